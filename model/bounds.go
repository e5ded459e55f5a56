package model

import (
	"math"
	"time"
)

// Bounds are what a point's structure alone allows, with no simulation:
// the analytic limits a simulated (or measured) point is checked against.
// A bound that nothing sets is +Inf.
type Bounds struct {
	// CPU is the CPU bound in drinks per second: CPUs ÷ the CPU time of a
	// drink.
	CPU float64
	// Structural is the structural bound in drinks per second: copies ÷
	// holding time of the most-held resource (a lock, a pool of machines,
	// a pipeline stage), named by Resource ("" when the mode holds none).
	Structural float64
	Resource   string
	// ThroughputMax is the least of CPU, Structural, the customers (or
	// servers) ÷ LatencyMin, and, in an open loop, the arrival rate; Limit
	// names which: "cpus", the Resource, "customers", "servers" or
	// "arrivals".
	ThroughputMax float64
	Limit         string
	// LatencyMin is one drink's latency with no waiting: its critical path
	// (parsteam and splitpipe overlap steaming with grind and press), or
	// its CPU time spread over all the CPUs if that is longer.
	LatencyMin time.Duration
}

// bounds computes cfg's bounds from the structure its mode declares. Steps
// count at their mean, so with jitter the bounds are long-run averages.
func bounds(cfg Config, st structure) Bounds {
	inf := math.Inf(1)
	per := func(n float64, seconds float64) float64 { // n per seconds, +Inf for no time
		if seconds <= 0 {
			return inf
		}
		return n / seconds
	}
	b := Bounds{CPU: per(float64(cfg.CPUs), st.cpu), Structural: inf}
	for _, r := range st.resources {
		if x := per(float64(r.copies), r.hold); x < b.Structural {
			b.Structural, b.Resource = x, r.name
		}
	}
	latMin := max(st.path, st.cpu/float64(cfg.CPUs))
	b.LatencyMin = time.Duration(math.Round(latMin * 1e9))

	who, arrivals := "customers", inf
	if cfg.Rate > 0 {
		who, arrivals = "servers", cfg.Rate
	}
	b.ThroughputMax, b.Limit = b.CPU, "cpus"
	for _, c := range []struct {
		limit string
		x     float64
	}{
		{b.Resource, b.Structural},
		{who, per(float64(cfg.customers()), latMin)},
		{"arrivals", arrivals},
	} {
		if c.x < b.ThroughputMax {
			b.ThroughputMax, b.Limit = c.x, c.limit
		}
	}
	return b
}
