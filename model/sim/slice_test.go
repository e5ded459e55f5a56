package sim

import (
	"slices"
	"testing"
	"time"
)

// TestLogSlices: with a log, every burn is told once per slice, on a CPU
// of the pool, never two at once on one CPU, summing to the CPUs' busy
// time; under both policies.
func TestLogSlices(t *testing.T) {
	for _, sched := range []string{"fifo", "go"} {
		t.Run(sched, func(t *testing.T) {
			s := New(1)
			cpus := NewCPUs(s, 2)
			if sched == "go" {
				cpus = NewGoCPUs(s, 2, Costs{Switch: time.Microsecond})
			}
			var got []Slice
			cpus.Log(func(sl Slice) { got = append(got, sl) })
			grind(s, cpus, 3, func() time.Duration { return ms }, func() time.Duration { return 2 * ms })
			s.Run(30 * ms)
			if len(got) < 20 {
				t.Fatalf("%d slices in 30 ms of three processes burning 3 ms a round; want about 30", len(got))
			}
			var sum time.Duration
			byCPU := map[int][]Slice{}
			for _, sl := range got {
				if sl.CPU < 0 || sl.CPU >= 2 {
					t.Fatalf("slice on CPU %d of 2: %+v", sl.CPU, sl)
				}
				if sl.End <= sl.Start || sl.Proc < 0 || sl.Proc > 2 {
					t.Fatalf("slice %+v", sl)
				}
				sum += sl.End - sl.Start
				byCPU[sl.CPU] = append(byCPU[sl.CPU], sl)
			}
			for cpu, ss := range byCPU {
				slices.SortFunc(ss, func(a, b Slice) int { return int(a.Start - b.Start) })
				for i := 1; i < len(ss); i++ {
					if ss[i].Start < ss[i-1].End {
						t.Fatalf("CPU %d runs two burns at once: %+v and %+v", cpu, ss[i-1], ss[i])
					}
				}
			}
			// Busy counts the burns still running at the end too, and the
			// go policy's runtime costs.
			if sum > cpus.Busy() || sum < cpus.Busy()-6*ms {
				t.Errorf("slices sum to %v, the CPUs were busy %v", sum, cpus.Busy())
			}
		})
	}
}

// TestLogRunningCoversBusy: the slices told as they end, the runtime's
// work, and those LogRunning tells of the burns still running sum to the
// CPUs' busy time exactly, under both policies, at any moment the
// simulation stops; LogRunning without a log does nothing.
func TestLogRunningCoversBusy(t *testing.T) {
	for _, sched := range []string{"fifo", "go"} {
		for _, until := range []time.Duration{30 * ms, 30*ms + 500*time.Microsecond, 31*ms + 7*time.Microsecond} {
			s := New(1)
			cpus := NewCPUs(s, 2)
			if sched == "go" {
				cpus = NewGoCPUs(s, 2, Costs{Switch: time.Microsecond, Wake: 20 * time.Microsecond, MutexHandoff: time.Microsecond})
			}
			cpus.LogRunning() // no log yet: nothing to tell
			var sum, runtime time.Duration
			cpus.Log(func(sl Slice) {
				sum += sl.End - sl.Start
				if sl.Runtime {
					runtime += sl.End - sl.Start
				}
			})
			grind(s, cpus, 3, func() time.Duration { return ms },
				func() time.Duration { return 2*ms + time.Duration(s.Rand().IntN(1000))*time.Microsecond })
			s.RunUntil(until)
			cpus.LogRunning()
			if sum != cpus.Busy() {
				t.Errorf("%s, stopped at %v: slices sum to %v, the CPUs were busy %v", sched, until, sum, cpus.Busy())
			}
			if (runtime > 0) != (sched == "go") {
				t.Errorf("%s: the runtime's work logged %v", sched, runtime)
			}
			s.Stop()
		}
	}
}

// TestNoLogSameRun: a log changes nothing in the run it watches.
func TestNoLogSameRun(t *testing.T) {
	run := func(log bool) (time.Duration, uint64) {
		s := New(3)
		cpus := NewCPUs(s, 3)
		if log {
			cpus.Log(func(Slice) {})
		}
		grind(s, cpus, 5, func() time.Duration { return time.Duration(1+s.Rand().IntN(3)) * ms }, func() time.Duration { return ms })
		s.Run(50 * ms)
		return cpus.Busy(), s.Events()
	}
	b0, n0 := run(false)
	b1, n1 := run(true)
	if b0 != b1 || n0 != n1 {
		t.Errorf("without a log: busy %v, %d events; with one: %v, %d", b0, n0, b1, n1)
	}
}

// grind starts n processes that take turns at the grinder's lock, each
// forever burning held() on cpus under it and then after() outside it:
// the load whose slices the tests above watch.
func grind(s *Sim, cpus *CPUs, n int, held, after func() time.Duration) {
	lock := NewMutex(s, "grinder")
	for range n {
		s.Go(func(p *Proc) {
			for {
				lock.Lock(p)
				cpus.Burn(p, held())
				lock.Unlock(p)
				cpus.Burn(p, after())
			}
		})
	}
}
