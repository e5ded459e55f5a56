package model

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/brewput/brewput/results"
)

// TestPoint: a closed-loop result converts to a point as sweep fills a
// measured one: source "model", the mode's name and unit, one customer per
// CPU, the window, the steps in ms with no burn clock, latencies in ms, CPU
// use, and the machines.
func TestPoint(t *testing.T) {
	cfg := talk("finelocking", 6)
	cfg.Steps.Jitter = 500 * time.Microsecond
	r := run(t, cfg)
	p := r.point(cfg)
	want := results.Steps{Grind: time.Millisecond, Press: time.Millisecond, Steam: time.Millisecond, Combine: time.Millisecond, Jitter: 500 * time.Microsecond}
	switch {
	case p.Source != "model" || p.Mode != "finelocking" || p.Unit != "lattes/s":
		t.Errorf("source %q, mode %q, unit %q", p.Source, p.Mode, p.Unit)
	case p.CPUs != 6 || p.Par != 6 || p.Rate != 0 || p.MaxQ != 0 || p.Dur.Seconds() != 1 || p.Warmup.Seconds() != 0.1:
		t.Errorf("cpus %d, par %d, rate %v, maxq %d, dur %v s, warmup %v s", p.CPUs, p.Par, p.Rate, p.MaxQ, p.Dur.Seconds(), p.Warmup.Seconds())
	case p.Steps() != want:
		t.Errorf("steps %+v, want %+v", p.Steps(), want)
	case p.Ops != int64(r.Lattes) || p.Throughput != r.Throughput || p.Metrics[results.Drops] != 0:
		t.Errorf("ops %d, throughput %v, drops %.0f; result %d, %v", p.Ops, p.Throughput, p.Metrics[results.Drops], r.Lattes, r.Throughput)
	case p.Latency.P50 != results.Ms(r.Latency.P50) || p.Latency.Mean != results.Ms(r.Latency.Mean) || p.Service != nil:
		t.Errorf("latency %+v, service %v; result %+v", p.Latency, p.Service, r.Latency)
	case p.Metrics[results.Util] != r.CPUUtil || p.Metrics[results.CPUUsed] != 6*r.CPUUtil:
		t.Errorf("util %v, cpu used %v; result %v", p.Metrics[results.Util], p.Metrics[results.CPUUsed], r.CPUUtil)
	case len(p.Machines()) != 3 || p.Machines()[1].Name != "espresso" || p.Machines()[1].Uses != r.Machines[1].Uses ||
		p.Machines()[1].MeanWaitMs != r.Machines[1].MeanWaitMs:
		t.Errorf("machines %+v; result %+v", p.Machines(), r.Machines)
	}
}

// TestPointOpenLoop: an open-loop point has its rate, queue bound, drops
// and service latencies.
func TestPointOpenLoop(t *testing.T) {
	cfg := open("linearpipe-1", 1, 400, 10)
	r := run(t, cfg)
	p := r.point(cfg)
	if p.Rate != 400 || p.MaxQ != 10 || p.Metrics[results.Drops] != 150 || p.Service == nil || p.Service.Max != 4 {
		t.Errorf("rate %v, maxq %d, drops %.0f, service %+v; want 400, 10, 150, 4 ms", p.Rate, p.MaxQ, p.Metrics[results.Drops], p.Service)
	}
}

// TestPointBusyCapped: ideal's machines are used by many customers at once,
// so the model reports them busy more than the whole window; a point caps
// the fraction at 1, as sweep does.
func TestPointBusyCapped(t *testing.T) {
	cfg := talk("ideal", 4)
	r := run(t, cfg)
	if r.Machines[0].BusyFrac != 1 {
		t.Errorf("grinder busy %v, want 1 (4 customers, a quarter of the time each)", r.Machines[0].BusyFrac)
	}
	cfg = talk("ideal", 8)
	r = run(t, cfg)
	if r.Machines[0].BusyFrac != 2 || r.point(cfg).Machines()[0].BusyFrac != 1 {
		t.Errorf("grinder busy %v, in the point %v; want 2, 1", r.Machines[0].BusyFrac, r.point(cfg).Machines()[0].BusyFrac)
	}
}

// TestPointBounds: a point carries the model's policy, seed and bounds, an
// unset bound as 0, and encodes as JSON (which has no infinity) for every
// mode, the noop with its infinite CPU bound included.
func TestPointBounds(t *testing.T) {
	cfg := talk("finelocking", 6)
	cfg.Policy.Seed = 7
	r := run(t, cfg)
	p := r.point(cfg)
	want := results.Bounds{CPU: 1500, Structural: 1000, ThroughputMax: 1000, SetBy: "grinder", LatencyMinMs: 4, Resource: "grinder", Little: r.Little}
	if p.Sched != "fifo" || p.Seed != 7 || p.Bounds == nil || *p.Bounds != want {
		t.Errorf("sched %q, seed %d, bounds %+v; want fifo, 7, %+v", p.Sched, p.Seed, p.Bounds, want)
	}
	for _, mode := range everyMode(t) {
		cfg := talk(mode, 2)
		cfg.Rate = 400
		p := run(t, cfg).point(cfg)
		if _, err := json.Marshal(p); err != nil {
			t.Errorf("%s: %v", mode, err)
		}
		if mode == "ideal" && p.Bounds.Structural != 0 {
			t.Errorf("ideal: structural bound %v, want 0 (none)", p.Bounds.Structural)
		}
	}
}
