package model

import (
	"testing"
	"time"
)

// TestFinelockingTalk checks the talk's result for finelocking under fifo,
// exactly: with 1 ms steps and one customer per CPU, N CPUs give
// min(250·N, 1000) lattes/s. Up to 4 CPUs every latte takes 4 ms and the
// machines are busy N/4 of the time; past 4 the machines are the
// bottleneck, each busy all the time, and by Little's law the N customers
// each wait N ms for a latte. The 100 ms warm-up puts the window in the
// steady state, where it holds an exact number of lattes.
func TestFinelockingTalk(t *testing.T) {
	for n := 1; n <= 8; n++ {
		r := run(t, talk("finelocking", n))
		want := min(250*n, 1000)
		if r.Lattes != want || r.Throughput != float64(want) {
			t.Errorf("%d CPUs: %d lattes (%v/s), want %d", n, r.Lattes, r.Throughput, want)
		}
		checkEvery(t, "finelocking", r, max(4, time.Duration(n))*ms)
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
	cfg := talk("finelocking", 2)
	cfg.Par = 8
	r := run(t, cfg)
	if r.Lattes != 500 || r.CPUUtil != 1 {
		t.Errorf("%d lattes, CPU utilization %v; want 500, 1", r.Lattes, r.CPUUtil)
	}
	if r.Latency.Mean != 16*ms {
		t.Errorf("mean latency %v, want 16ms", r.Latency.Mean)
	}
}

// TestFinelockingJitterLittle: Little's law holds on a jittered run, within
// the window's edge effects.
func TestFinelockingJitterLittle(t *testing.T) {
	cfg := talk("finelocking", 6)
	cfg.Steps.Jitter = 500 * time.Microsecond
	r := run(t, cfg)
	if l := r.Throughput * r.Latency.Mean.Seconds(); l < 5.9 || l > 6.1 {
		t.Errorf("throughput × latency = %.3f, want about 6 customers", l)
	}
	if r.Little < 0.99 || r.Little > 1.01 {
		t.Errorf("Little's law check %v, want about 1", r.Little)
	}
}
