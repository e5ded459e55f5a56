package model

import (
	"github.com/brewput/brewput/model/sim"
	"runtime"
	"testing"
	"time"
)

// BenchmarkFinelockingSixCPUs is the engine's speed test against SimPy
// (validation/vs-simpy.sh): finelocking, 6 CPUs under fifo, 6 customers, 1 ms
// steps, 100 s of virtual time per op, as simpy_coffee.py --cpus 6 --par 6
// --dur 100. lattes/wall-s is the figure to compare; events/wall-s is the
// engine's own speed.
func BenchmarkFinelockingSixCPUs(b *testing.B) {
	cfg := talk("finelocking", 6)
	cfg.Warmup, cfg.Dur = 0, 100*time.Second
	benchRun(b, cfg)
}

// BenchmarkRun simulates 10 s of a few modes on 16 CPUs, with one
// customer per CPU, under both policies: the cost of a model point.
func BenchmarkRun(b *testing.B) {
	for _, sched := range []string{"fifo", "go"} {
		for _, mode := range []string{"ideal", "locking", "finelocking", "parsteam", "multi-2", "linearpipe-1", "splitpipe-0", "multipipe-2"} {
			b.Run("sched="+sched+"/mode="+mode, func(b *testing.B) {
				cfg := talk(mode, 16)
				cfg.Policy.Sched, cfg.Dur = sched, 10*time.Second
				benchRun(b, cfg)
			})
		}
	}
}

// benchRun runs cfg once per op and reports the speed per simulated latte
// and the engine's events a wall second.
func benchRun(b *testing.B, cfg Config) {
	b.ReportAllocs()
	lattes, events := 0, uint64(0)
	var r result
	for b.Loop() {
		r = run(b, cfg)
		lattes += r.Lattes
		events += r.Events
	}
	b.ReportMetric(float64(lattes)/b.Elapsed().Seconds(), "lattes/wall-s")
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/wall-s")
	b.ReportMetric(r.Throughput, "lattes/s")
	b.ReportMetric(float64(r.Latency.P50)/float64(ms), "p50-ms")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(lattes), "ns/latte")
	b.ReportMetric(float64(r.Events)/float64(r.Lattes), "events/latte")
}

// TestSteadyStateAllocatesLittle: simulating four times as long allocates
// no more, in every mode but parsteam, which starts a process per latte as
// coffee starts a goroutine: the engine's steady state allocates nothing,
// the pipelines recycle their orders, and the latency slices are sized
// once from the bounds. Four times as long is 3000 more lattes here; the
// slack is for the race detector's runtime, which allocates on its own.
func TestSteadyStateAllocatesLittle(t *testing.T) {
	for _, mode := range []string{"ideal", "locking", "finelocking", "multi-2", "linearpipe-0", "splitpipe-1", "multipipe-2", "espressopipe-1"} {
		allocs := func(d time.Duration) float64 {
			cfg := talk(mode, 4)
			cfg.Dur = d
			return testing.AllocsPerRun(2, func() { run(t, cfg) })
		}
		short, long := allocs(time.Second), allocs(4*time.Second)
		if long > short+50 {
			t.Errorf("%s: %v allocations simulating 1 s, %v simulating 4 s", mode, short, long)
		}
	}
}

// BenchmarkEngine tracks the engine's own speed and garbage on the
// vs-simpy model (finelocking, 6 CPUs, fifo), the same under the go
// policy, and under the go policy with cache lines that cost moving:
// events processed per wall second and heap allocations per event over a
// 10 s simulation.
func BenchmarkEngine(b *testing.B) {
	for _, sched := range []string{"fifo", "go", "go,lines"} {
		b.Run("sched="+sched, func(b *testing.B) {
			cfg := talk("finelocking", 6)
			cfg.Policy.Sched, cfg.Costs, cfg.Dur = sched, fixedCosts(), 10*time.Second
			if sched == "go,lines" {
				// The same with the mutexes' and channels' cache lines
				// moving between cores: what those mechanisms cost.
				cfg.Policy.Sched = "go"
				cfg.Costs.Transfer = sim.Transfer{Sibling: 9 * time.Nanosecond, Socket: 40 * time.Nanosecond, Remote: 140 * time.Nanosecond}
				cfg.Costs.RuntimeLock = 12 * time.Nanosecond
			}
			var events uint64
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for b.Loop() {
				events += run(b, cfg).Events
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(events), "allocs/event")
		})
	}
}

// BenchmarkDefaultStudyWithBands is brewput model's default study — the
// nine modes of the main job on 1 to 8 CPUs, 1 s a point after the
// warm-up, under the go policy with a band for every point — one point
// after the other on one goroutine (the command spreads them over the
// CPUs). Its s/study is the figure to hold under 10 s on 2 cores.
func BenchmarkDefaultStudyWithBands(b *testing.B) {
	modes := []string{"ideal", "locking", "finelocking", "parsteam", "multi-2", "linearpipe-0", "linearpipe-1", "linearpipe-10", "multipipe-2"}
	costs := fixedCosts()
	lo, hi := costs, costs
	lo.Wake, hi.Wake = costs.Wake*9/10, costs.Wake*11/10
	lo.SpinWindow, hi.SpinWindow = costs.SpinWindow-2*time.Microsecond, costs.SpinWindow+2*time.Microsecond
	for b.Loop() {
		for _, mode := range modes {
			for n := 1; n <= 8; n++ {
				cfg := DefaultConfig(n)
				cfg.Mode, cfg.Costs, cfg.Range = mode, costs, &Range{Lo: lo, Hi: hi}
				run(b, cfg)
			}
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/study")
}
