package model

import (
	"math"
	"testing"
)

// TestBoundsTalk: the bounds of the talk's modes, from their structure.
func TestBoundsTalk(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		mode   string
		cpus   int
		want   Bounds
		reason string
	}{
		{"ideal", 6, Bounds{CPU: 1500, Structural: inf, ThroughputMax: 1500, Limit: "cpus", LatencyMin: 4 * ms}, "nothing is held"},
		{"locking", 6, Bounds{CPU: 1500, Structural: 250, Resource: "kitchen", ThroughputMax: 250, Limit: "kitchen", LatencyMin: 4 * ms}, "the kitchen is held 4 ms a latte"},
		{"finelocking", 2, Bounds{CPU: 500, Structural: 1000, Resource: "grinder", ThroughputMax: 500, Limit: "cpus", LatencyMin: 4 * ms}, "each lock is held 1 ms; the first of equals is named"},
		{"finelocking", 6, Bounds{CPU: 1500, Structural: 1000, Resource: "grinder", ThroughputMax: 1000, Limit: "grinder", LatencyMin: 4 * ms}, "past 4 CPUs the grinder holds it"},
		{"parsteam", 1, Bounds{CPU: 250, Structural: 1000, Resource: "grinder", ThroughputMax: 250, Limit: "cpus", LatencyMin: 4 * ms}, "one CPU cannot overlap the steaming"},
		{"parsteam", 2, Bounds{CPU: 500, Structural: 1000, Resource: "grinder", ThroughputMax: 500, Limit: "cpus", LatencyMin: 3 * ms}, "the steaming overlaps grind and press"},
		{"multi-2", 10, Bounds{CPU: 2500, Structural: 2000, Resource: "grinder×2", ThroughputMax: 2000, Limit: "grinder×2", LatencyMin: 4 * ms}, "two grinders"},
		{"linearpipe-0", 8, Bounds{CPU: 2000, Structural: 1000, Resource: "grinder", ThroughputMax: 1000, Limit: "grinder", LatencyMin: 4 * ms}, "a stage is held for its step"},
		{"splitpipe-1", 8, Bounds{CPU: 2000, Structural: 1000, Resource: "grinder", ThroughputMax: 1000, Limit: "grinder", LatencyMin: 3 * ms}, "the milk branch runs beside grind and press"},
		{"multipipe-3", 16, Bounds{CPU: 4000, Structural: 3000, Resource: "grinder×3", ThroughputMax: 3000, Limit: "grinder×3", LatencyMin: 4 * ms}, "three lines"},
		{"espressopipe-1", 1, Bounds{CPU: 500, Structural: 1000, Resource: "grinder", ThroughputMax: 500, Limit: "cpus", LatencyMin: 2 * ms}, "an espresso is grind and press"},
	} {
		r := run(t, talk(c.mode, c.cpus))
		if r.Bounds != c.want {
			t.Errorf("%s on %d CPUs (%s):\n got %+v\nwant %+v", c.mode, c.cpus, c.reason, r.Bounds, c.want)
		}
	}
}

// TestBoundsCustomers: in a closed loop the customers bound the throughput
// too, customers ÷ the least latency: 2 customers make at most 500 lattes/s
// of 4 ms on any number of CPUs.
func TestBoundsCustomers(t *testing.T) {
	cfg := talk("ideal", 8)
	cfg.Par = 2
	r := run(t, cfg)
	if r.Bounds.ThroughputMax != 500 || r.Bounds.Limit != "customers" || r.Lattes != 500 {
		t.Errorf("bounds %+v, %d lattes; want 500 set by the customers, and reached", r.Bounds, r.Lattes)
	}
}

// TestBoundsArrivals: an open loop cannot pass its arrival rate.
func TestBoundsArrivals(t *testing.T) {
	r := run(t, open("finelocking", 4, 600, 10))
	if r.Bounds.ThroughputMax != 600 || r.Bounds.Limit != "arrivals" {
		t.Errorf("bounds %+v, want 600 set by the arrivals", r.Bounds)
	}
}

// TestBoundsHold: no mode passes its bounds. On 1 to 8 CPUs, with 1 ms
// steps, every mode's throughput is at most ThroughputMax (up to a drink
// the window's edges can add), no latte is faster than LatencyMin, and
// Little's law holds. The fifo machine reaches the bound in all of them
// but the unbuffered split pipe on 3 CPUs.
func TestBoundsHold(t *testing.T) {
	for _, mode := range everyMode(t) {
		if mode == "noop" {
			continue
		}
		for n := 1; n <= 8; n++ {
			r := run(t, talk(mode, n))
			b := r.Bounds
			if r.Throughput > b.ThroughputMax+1 {
				t.Errorf("%s, %d CPUs: %v drinks/s, over the bound %+v", mode, n, r.Throughput, b)
			}
			if r.Latency.Min < b.LatencyMin {
				t.Errorf("%s, %d CPUs: a latte in %v, under the least latency %v", mode, n, r.Latency.Min, b.LatencyMin)
			}
			if r.Little < 0.998 || r.Little > 1.002 {
				t.Errorf("%s, %d CPUs: Little's law check %v, want 1", mode, n, r.Little)
			}
			reached := r.Throughput >= math.Floor(b.ThroughputMax)
			if outOfStep := mode == "splitpipe-0" && n == 3; reached == outOfStep {
				t.Errorf("%s, %d CPUs: %v drinks/s against a bound of %v", mode, n, r.Throughput, b.ThroughputMax)
			}
		}
	}
}
