package model

import (
	"reflect"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// goleak checks after all tests that every simulation unwound its
// processes' coroutines.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const ms = time.Millisecond

// TestFinelockingTalk checks the talk's result for finelocking under fifo,
// exactly: with 1 ms steps and one customer per CPU, N CPUs give
// min(250·N, 1000) lattes/s. Up to 4 CPUs every latte takes 4 ms and the
// machines are busy N/4 of the time; past 4 the machines are the
// bottleneck, each busy all the time, and by Little's law the N customers
// each wait N ms for a latte. The 100 ms warm-up puts the window in the
// steady state, where it holds an exact number of lattes.
func TestFinelockingTalk(t *testing.T) {
	for n := 1; n <= 8; n++ {
		r, err := Finelocking(DefaultConfig(n))
		if err != nil {
			t.Fatal(err)
		}
		want := min(250*n, 1000)
		lat := max(4, time.Duration(n)) * ms
		if r.Lattes != want || r.Throughput != float64(want) {
			t.Errorf("%d CPUs: %d lattes (%v/s), want %d", n, r.Lattes, r.Throughput, want)
		}
		if r.Latency.Min != lat || r.Latency.Max != lat || r.Latency.Mean != lat {
			t.Errorf("%d CPUs: latency %+v, want %v for every latte", n, r.Latency, lat)
		}
		wantUtil := float64(4*want) / 1000 / float64(n) // 4 ms of CPU per latte
		if r.CPUUtil != wantUtil {
			t.Errorf("%d CPUs: CPU utilization %v, want %v", n, r.CPUUtil, wantUtil)
		}
		for _, m := range r.Machines {
			if m.Uses != int64(want) || m.BusyFrac != float64(want)/1000 {
				t.Errorf("%d CPUs: %s %d uses, busy %v; want %d, %v", n, m.Name, m.Uses, m.BusyFrac, want, float64(want)/1000)
			}
		}
	}
}

// TestFinelockingFewerCPUs: 8 customers on 2 CPUs are held by the CPU
// bound, 2 CPUs ÷ 4 ms of CPU per latte = 500 lattes/s, and by Little's law
// each latte takes 8 customers ÷ 500/s = 16 ms on average.
func TestFinelockingFewerCPUs(t *testing.T) {
	cfg := DefaultConfig(2)
	cfg.Customers = 8
	r, err := Finelocking(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Lattes != 500 || r.CPUUtil != 1 {
		t.Errorf("%d lattes, CPU utilization %v; want 500, 1", r.Lattes, r.CPUUtil)
	}
	if r.Latency.Mean != 16*ms {
		t.Errorf("mean latency %v, want 16ms", r.Latency.Mean)
	}
}

// TestFinelockingDeterministic: with jitter, the same seed gives the same
// result and another seed a different one; Little's law holds on the
// jittered run too.
func TestFinelockingDeterministic(t *testing.T) {
	cfg := DefaultConfig(6)
	cfg.Jitter = 500 * time.Microsecond
	a, errA := Finelocking(cfg)
	b, errB := Finelocking(cfg)
	cfg.Seed = 2
	c, errC := Finelocking(cfg)
	if errA != nil || errB != nil || errC != nil {
		t.Fatal(errA, errB, errC)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("same seed, different results:\n%+v\n%+v", a, b)
	}
	if reflect.DeepEqual(a, c) {
		t.Errorf("seeds 1 and 2 gave the same result: %+v", a)
	}
	// Little's law: customers = throughput × mean latency (within the
	// window's edge effects).
	if l := a.Throughput * a.Latency.Mean.Seconds(); l < 5.9 || l > 6.1 {
		t.Errorf("throughput × latency = %.3f, want about 6 customers", l)
	}
}

// TestFinelockingBadConfig: configurations that cannot run are errors.
func TestFinelockingBadConfig(t *testing.T) {
	for _, mod := range []func(*Config){
		func(c *Config) { c.CPUs = 0 },
		func(c *Config) { c.Customers = -1 },
		func(c *Config) { c.Duration = 0 },
		func(c *Config) { c.Warmup = -ms },
		func(c *Config) { c.Press = -ms },
		func(c *Config) { c.Grind, c.Press, c.Steam, c.Combine = 0, 0, 0, 0 },
	} {
		cfg := DefaultConfig(2)
		mod(&cfg)
		if _, err := Finelocking(cfg); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
}

// BenchmarkFinelockingSixCPUs is the engine's speed test against SimPy
// (scripts/vs-simpy.sh): finelocking, 6 CPUs, 6 customers, 1 ms steps,
// 100 s of virtual time per op, as simpy_coffee.py --cpus 6 --par 6 --dur
// 100. lattes/wall-s is the figure to compare.
func BenchmarkFinelockingSixCPUs(b *testing.B) {
	cfg := DefaultConfig(6)
	cfg.Warmup, cfg.Duration = 0, 100*time.Second
	b.ReportAllocs()
	lattes := 0
	var r Result
	for b.Loop() {
		var err error
		r, err = Finelocking(cfg)
		if err != nil {
			b.Fatal(err)
		}
		lattes += r.Lattes
	}
	b.ReportMetric(float64(lattes)/b.Elapsed().Seconds(), "lattes/wall-s")
	b.ReportMetric(r.Throughput, "lattes/s")
	b.ReportMetric(float64(r.Latency.P50)/float64(ms), "p50-ms")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(lattes), "ns/latte")
	b.ReportMetric(float64(r.Events)/float64(r.Lattes), "events/latte")
}
