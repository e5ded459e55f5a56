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

// Structure is what a system's bounds come from, with no simulation: the
// resources one operation holds, its CPU time and its critical path, all
// means in seconds. Each mode declares its own next to its code; package
// blueprint derives one from a user's file.
type Structure struct {
	Resources []Resource
	CPU       float64 // mean CPU seconds one operation burns
	Path      float64 // mean seconds of one operation's critical path with no waiting
}

// Resource is something an operation must hold for a while and that only
// so many operations can hold at once: a lock, a pool of machines, a
// pipeline stage (which holds each order for its step).
type Resource struct {
	Name   string
	Copies int     // how many operations can hold it at once
	Hold   float64 // mean seconds an operation holds one copy
}

// bounds computes cfg's bounds from the structure its mode declares. Steps
// count at their mean, so with jitter the bounds are long-run averages.
func bounds(cfg Config, st structure) Bounds {
	return st.Bounds(cfg.CPUs, cfg.customers(), cfg.Rate)
}

// Bounds returns the bounds of st on cpus CPUs with workers customers (a
// closed loop) or, when rate is positive, workers servers taking rate
// arrivals per second.
func (st Structure) Bounds(cpus, workers int, rate float64) Bounds {
	inf := math.Inf(1)
	per := func(n float64, seconds float64) float64 { // n per seconds, +Inf for no time
		if seconds <= 0 {
			return inf
		}
		return n / seconds
	}
	b := Bounds{CPU: per(float64(cpus), st.CPU), Structural: inf}
	for _, r := range st.Resources {
		if x := per(float64(r.Copies), r.Hold); x < b.Structural {
			b.Structural, b.Resource = x, r.Name
		}
	}
	// An operation takes no less than its critical path, nor than its CPU
	// time spread over every CPU.
	latMin := max(st.Path, st.CPU/float64(cpus))
	b.LatencyMin = time.Duration(math.Round(latMin * 1e9))

	who, arrivals := "customers", inf
	if rate > 0 {
		who, arrivals = "servers", rate
	}
	b.ThroughputMax, b.Limit = b.CPU, "cpus"
	for _, c := range []struct {
		limit string
		x     float64
	}{
		{b.Resource, b.Structural},
		{who, per(float64(workers), latMin)},
		{"arrivals", arrivals},
	} {
		if c.x < b.ThroughputMax {
			b.ThroughputMax, b.Limit = c.x, c.limit
		}
	}
	return b
}
