package model

import (
	"reflect"
	"testing"
	"time"

	"github.com/brewput/brewput/results"
	"go.uber.org/goleak"
)

// goleak checks after all tests that every simulation unwound its
// processes' coroutines, and that every real shop a test opened was closed.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const ms = time.Millisecond

// talk is the talk's shop under the fifo policy, the idealized machine that
// reproduces its results exactly: mode on cpus CPUs, one customer per CPU,
// 1 ms steps, 1 s measured after 100 ms.
func talk(mode string, cpus int) Config {
	cfg := DefaultConfig(cpus)
	cfg.Mode, cfg.Policy.Sched = mode, "fifo"
	return cfg
}

// run runs cfg and fails the test on an error.
func run(t testing.TB, cfg Config) result {
	t.Helper()
	r, err := simulateOne(cfg, nil)
	if err != nil {
		t.Fatalf("%s on %d CPUs: %v", cfg.Mode, cfg.CPUs, err)
	}
	return r
}

// banded runs cfg with its band's edges, and gives it the band they span
// as Simulate does.
func banded(t testing.TB, cfg Config) result {
	t.Helper()
	r := run(t, cfg)
	var edges []result
	for _, e := range cfg.Edges() {
		edges = append(edges, r.carry(run(t, e)))
	}
	if edges != nil {
		r.Band = bandOf(r, edges)
	}
	return r
}

// checkEvery checks that every latte took exactly lat.
func checkEvery(t *testing.T, what string, r result, lat time.Duration) {
	t.Helper()
	if r.Latency.Min != lat || r.Latency.Max != lat || r.Latency.Mean != lat {
		t.Errorf("%s: latency %+v, want %v for every latte", what, r.Latency, lat)
	}
}

// TestIdealTalk: with no synchronization, N CPUs make 250·N lattes/s, each
// in 4 ms, every CPU busy all the time. The 100 ms warm-up puts the window
// in the steady state, where it holds an exact number of lattes.
func TestIdealTalk(t *testing.T) {
	for n := 1; n <= 8; n++ {
		r := run(t, talk("ideal", n))
		if r.Lattes != 250*n || r.Throughput != float64(250*n) || r.CPUUtil != 1 {
			t.Errorf("%d CPUs: %d lattes (%v/s), CPU utilization %v; want %d, 1", n, r.Lattes, r.Throughput, r.CPUUtil, 250*n)
		}
		checkEvery(t, "ideal", r, 4*ms)
	}
}

// TestLockingTalk: one lock around the kitchen holds the shop at 250
// lattes/s however many CPUs it has; the N customers queue for it in turn,
// so each latte takes N × 4 ms and the kitchen is busy all the time, while
// only one CPU works.
func TestLockingTalk(t *testing.T) {
	for n := 1; n <= 8; n++ {
		r := run(t, talk("locking", n))
		if r.Lattes != 250 {
			t.Errorf("%d CPUs: %d lattes, want 250", n, r.Lattes)
		}
		checkEvery(t, "locking", r, time.Duration(4*n)*ms)
		if r.CPUUtil != 1/float64(n) {
			t.Errorf("%d CPUs: CPU utilization %v, want %v", n, r.CPUUtil, 1/float64(n))
		}
		kitchen := r.Machines[0]
		wantWait := time.Duration(4*(n-1)) * ms
		if kitchen.Name != "kitchen" || kitchen.Uses != 250 || kitchen.BusyFrac != 1 || kitchen.MeanWaitMs != results.Ms(wantWait) {
			t.Errorf("%d CPUs: %+v, want the kitchen used 250 times, busy 1, waited %v", n, kitchen, wantWait)
		}
	}
}

// TestLockingManyCustomers: 100 customers on 6 CPUs still get 250 lattes/s
// from the locked kitchen, and queue 100 × 4 ms = 400 ms for each latte
// once every customer has had a first one (the first lattes, ordered at
// once at time 0, wait less: the k-th is served after k × 4 ms).
func TestLockingManyCustomers(t *testing.T) {
	cfg := talk("locking", 6)
	cfg.Par = 100
	r := run(t, cfg)
	if r.Lattes != 250 {
		t.Errorf("%d lattes, want 250", r.Lattes)
	}
	if r.Latency.P50 != 400*ms || r.Latency.Max != 400*ms {
		t.Errorf("median %v, max %v; want 400ms", r.Latency.P50, r.Latency.Max)
	}
	// Past the first round of lattes every one takes exactly 400 ms.
	cfg.Warmup = 500 * ms
	checkEvery(t, "locking after the first round", run(t, cfg), 400*ms)
}

// TestMultiTwoTalk: two copies of each machine scale like ideal up to 6
// CPUs, 250·N lattes/s at 4 ms, and only stop at 2 × 1000 lattes/s.
func TestMultiTwoTalk(t *testing.T) {
	for n := 1; n <= 8; n++ {
		r := run(t, talk("multi-2", n))
		if r.Lattes != 250*n {
			t.Errorf("%d CPUs: %d lattes, want %d", n, r.Lattes, 250*n)
		}
		checkEvery(t, "multi-2", r, 4*ms)
		for _, m := range r.Machines {
			if m.Uses != int64(250*n/2) || m.MeanWaitMs != 0 {
				t.Errorf("%d CPUs: %+v, want %d uses and no waiting", n, m, 250*n/2)
			}
		}
	}
}

// TestPipelinesTalk: every pipeline keeps up with ideal, 250·N lattes/s at
// 4 ms, and reaches 1000 lattes/s at 4 CPUs, where its busiest stage is
// busy all the time; the lines of multipipe-2 go on past it.
func TestPipelinesTalk(t *testing.T) {
	for _, mode := range []string{"linearpipe-0", "linearpipe-1", "linearpipe-10", "splitpipe-1", "multipipe-2"} {
		for _, n := range []int{1, 2, 4} {
			r := run(t, talk(mode, n))
			if r.Lattes != 250*n {
				t.Errorf("%s, %d CPUs: %d lattes, want %d", mode, n, r.Lattes, 250*n)
			}
			checkEvery(t, mode, r, 4*ms)
		}
	}
	// splitpipe-0 as well reaches 1000 at 4 CPUs (see
	// TestSplitpipeUnbufferedFallsOutOfStep for 3).
	if r := run(t, talk("splitpipe-0", 4)); r.Lattes != 1000 {
		t.Errorf("splitpipe-0, 4 CPUs: %d lattes, want 1000", r.Lattes)
	}
	for _, mode := range []string{"linearpipe-0", "linearpipe-1", "linearpipe-10", "splitpipe-0", "splitpipe-1"} {
		r := run(t, talk(mode, 8))
		if r.Lattes != 1000 {
			t.Errorf("%s, 8 CPUs: %d lattes, want 1000: one line makes at most 1000", mode, r.Lattes)
		}
		checkEvery(t, mode+" on 8 CPUs", r, 8*ms) // Little's law: 8 customers ÷ 1000/s
	}
	if r := run(t, talk("multipipe-2", 8)); r.Lattes != 2000 {
		t.Errorf("multipipe-2, 8 CPUs: %d lattes, want 2000", r.Lattes)
	}
}

// TestSplitpipeUnbufferedFallsOutOfStep is a prediction of the model: on 3
// CPUs the unbuffered split pipeline falls out of step. A customer who has
// handed the coffee to the grinder waits for the steamer to take the milk,
// and a grinder that is done waits for the espresso machine, neither
// holding a CPU; the CPUs idle a ninth of the time and the shop makes 2
// lattes every 3 ms, taking 4 and 5 ms in turn, below the CPU bound of 750
// lattes/s. A buffer of one lets the stages keep their pace.
func TestSplitpipeUnbufferedFallsOutOfStep(t *testing.T) {
	r := run(t, talk("splitpipe-0", 3))
	if r.Lattes != 666 || r.Latency.Min != 4*ms || r.Latency.Max != 5*ms {
		t.Errorf("splitpipe-0: %d lattes, latency %v to %v; want 666, 4ms to 5ms", r.Lattes, r.Latency.Min, r.Latency.Max)
	}
	if r := run(t, talk("splitpipe-1", 3)); r.Lattes != 750 {
		t.Errorf("splitpipe-1: %d lattes, want 750", r.Lattes)
	}
}

// TestDrinks: an americano (grind, press, combine) takes 3 ms of CPU and
// an espresso (grind, press) 2 ms, locked or pipelined alike, until the
// grinder, busy 1 ms per drink, holds them at 1000 drinks/s.
func TestDrinks(t *testing.T) {
	for _, c := range []struct {
		modes []string
		work  time.Duration
	}{
		{[]string{"americano", "americanopipe-0", "americanopipe-1"}, 3 * ms},
		{[]string{"espresso", "espressopipe-0", "espressopipe-1"}, 2 * ms},
	} {
		for _, mode := range c.modes {
			for n := 1; n <= 4; n++ {
				r := run(t, talk(mode, n))
				// The window holds whole drinks: 1 s ÷ 3 ms is 333 of them.
				want := min(int(time.Duration(n)*time.Second/c.work), 1000)
				if r.Lattes != want {
					t.Errorf("%s, %d CPUs: %d drinks, want %d", mode, n, r.Lattes, want)
				}
				if len(r.Machines) != 2 {
					t.Errorf("%s: machines %+v, want the grinder and the espresso machine", mode, r.Machines)
				}
			}
		}
	}
}

// TestParsteam: steaming alongside grind and press does not raise the
// throughput, which the grinder still holds at 1000 lattes/s; it shortens
// a latte to 3 ms once CPUs are to spare.
func TestParsteam(t *testing.T) {
	for n := 1; n <= 8; n++ {
		r := run(t, talk("parsteam", n))
		if want := min(250*n, 1000); r.Lattes != want {
			t.Errorf("%d CPUs: %d lattes, want %d", n, r.Lattes, want)
		}
	}
	// Two customers on 4 CPUs: each latte's steaming overlaps its grind
	// and press.
	cfg := talk("parsteam", 4)
	cfg.Par = 2
	r := run(t, cfg)
	if r.Lattes != 666 {
		t.Errorf("2 customers on 4 CPUs: %d lattes, want 666 (2 every 3 ms)", r.Lattes)
	}
	checkEvery(t, "parsteam with CPUs to spare", r, 3*ms)
}

// TestJitterUnbufferedPipeSlower: once steps vary, a stage that finishes
// early has nowhere to put the order down on an unbuffered line, so
// linearpipe-0 falls strictly below linearpipe-1, and a buffer of 10 does
// better still; without jitter all three make the same 1000 lattes/s.
func TestJitterUnbufferedPipeSlower(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		var got []int
		for _, mode := range []string{"linearpipe-0", "linearpipe-1", "linearpipe-10"} {
			cfg := talk(mode, 6)
			cfg.Steps.Jitter, cfg.Policy.Seed = ms, seed
			got = append(got, run(t, cfg).Lattes)
		}
		if !(got[0] < got[1] && got[1] < got[2] && got[2] < 1000) {
			t.Errorf("seed %d: linearpipe-0, -1, -10 made %v lattes; want strictly increasing, below 1000", seed, got)
		}
	}
}

// TestDeterministic: with jitter, the same seed gives the same result and
// another seed a different one, for every mode under both policies.
func TestDeterministic(t *testing.T) {
	for _, sched := range []string{"fifo", "go"} {
		for _, mode := range everyMode(t) {
			if mode == "noop" {
				continue // no steps to jitter
			}
			cfg := talk(mode, 3)
			cfg.Policy.Sched, cfg.Steps.Jitter, cfg.Dur = sched, 500*time.Microsecond, 200*ms
			a, b := run(t, cfg), run(t, cfg)
			cfg.Policy.Seed = 2
			c := run(t, cfg)
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%s, %s: same seed, different results:\n%+v\n%+v", mode, sched, a, b)
			}
			if reflect.DeepEqual(a, c) {
				t.Errorf("%s, %s: seeds 1 and 2 gave the same result: %+v", mode, sched, a)
			}
		}
	}
}
