package model

import (
	"testing"
	"time"

	"github.com/brewput/brewput/results"
)

// open is the talk's shop on cpus CPUs in an open loop: rate arrivals/s,
// at most maxQ waiting, one server per CPU.
func open(mode string, cpus int, rate float64, maxQ int) Config {
	cfg := talk(mode, cpus)
	cfg.Rate, cfg.MaxQ = rate, maxQ
	return cfg
}

// TestOpenLoopUnderloaded: 500 arrivals/s on 4 CPUs, which could make
// 1000, are all served at once: no drops, and latency equal to the 4 ms
// service time.
func TestOpenLoopUnderloaded(t *testing.T) {
	r := run(t, open("finelocking", 4, 500, 10))
	if r.Lattes != 500 || r.Drops != 0 {
		t.Errorf("%d lattes, %d drops; want 500, 0", r.Lattes, r.Drops)
	}
	checkEvery(t, "latency", r, 4*ms)
	if r.Service == nil || r.Service.Min != 4*ms || r.Service.Max != 4*ms {
		t.Errorf("service %+v, want 4ms for every latte", r.Service)
	}
	if r.Little != 0 {
		t.Errorf("Little's law check %v in an open loop, want 0 (none)", r.Little)
	}
}

// TestOpenLoopOverloadedDrops: 400 arrivals/s at one CPU that makes 250
// lattes/s fill the queue of 10, and the 150 arrivals a second that find it
// full are dropped. An arrival that gets in waits for the 9 queued ahead of
// it and the latte being made, so its latency from its intended arrival is
// between 40 and 44 ms, though each service takes 4 ms.
func TestOpenLoopOverloadedDrops(t *testing.T) {
	r := run(t, open("finelocking", 1, 400, 10))
	if r.Lattes != 250 || r.Drops != 150 {
		t.Errorf("%d lattes, %d drops; want 250, 150", r.Lattes, r.Drops)
	}
	if r.Latency.Min <= 40*ms || r.Latency.Max > 44*ms {
		t.Errorf("latency %v to %v, want within (40ms, 44ms]", r.Latency.Min, r.Latency.Max)
	}
	if r.Service.Min != 4*ms || r.Service.Max != 4*ms {
		t.Errorf("service %+v, want 4ms", r.Service)
	}
}

// TestOpenLoopLatencyFromIntendedArrival: 300 arrivals/s at one CPU that
// makes 250 lattes/s, with room to queue them all for longer than the
// model waits for a queue to fill (MaxFill), drop nothing; the queue
// grows, the point says it is not steady, and each latte's latency runs
// from its intended arrival, queueing included (no coordinated omission).
// The latte completed at the window's end, 1100 ms, is the 275th (one
// every 4 ms from 0), whose order was due at 274 ÷ 300 s.
func TestOpenLoopLatencyFromIntendedArrival(t *testing.T) {
	r := run(t, open("finelocking", 1, 300, 100000))
	if r.Lattes != 250 || r.Drops != 0 || results.QueueSteady(r.growth(), r.Arrived) || r.growth() != 50 || r.Warmup != 100*ms {
		t.Errorf("%d lattes, %d drops, steady %v, growth %d, warm-up %v; want 250, 0, not steady, 50, 100ms", r.Lattes, r.Drops, results.QueueSteady(r.growth(), r.Arrived), r.growth(), r.Warmup)
	}
	i, rate := 274.0, 300.0 // variables, computed as dispatch computes them
	due := time.Duration(i * float64(time.Second) / rate)
	if want := 1100*ms - due; r.Latency.Max != want {
		t.Errorf("latest latency %v, want %v", r.Latency.Max, want)
	}
	if r.Service.Max != 4*ms {
		t.Errorf("service up to %v, want 4ms", r.Service.Max)
	}
}

// TestOpenLoopNoQueue: with MaxQ 0 an arrival is served only if a server
// is idle at that moment. Arrivals every 2.5 ms at one server busy 4 ms
// each: every other one finds it busy and is dropped.
func TestOpenLoopNoQueue(t *testing.T) {
	r := run(t, open("finelocking", 1, 400, 0))
	if r.Lattes != 200 || r.Drops != 200 {
		t.Errorf("%d lattes, %d drops; want 200, 200", r.Lattes, r.Drops)
	}
	checkEvery(t, "latency", r, 4*ms)
}

// TestOpenLoopServers: servers, not CPUs, can be the limit: one server on
// 4 CPUs makes a latte at a time, 250/s, however fast orders arrive.
func TestOpenLoopServers(t *testing.T) {
	cfg := open("finelocking", 4, 1000, 10)
	cfg.Par = 1
	r := run(t, cfg)
	if r.Lattes != 250 || r.Drops != 750 {
		t.Errorf("%d lattes, %d drops; want 250, 750", r.Lattes, r.Drops)
	}
	if r.Bounds.ThroughputMax != 250 || r.Bounds.Limit != "servers" {
		t.Errorf("bounds %+v, want 250 set by the servers", r.Bounds)
	}
}
