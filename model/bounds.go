package model

import (
	"math"
	"time"
)

// Bounds are what a structure alone allows (+Inf: unbounded).
type Bounds struct {
	// CPU is CPUs ÷ a drink's CPU time, in drinks per second.
	CPU float64
	// Structural is copies ÷ hold time of the most-held resource (a lock,
	// a pool, a stage), which Resource names ("" where none is held).
	Structural float64
	Resource   string
	// ThroughputMax is the least of CPU, Structural, the customers (or
	// servers) ÷ LatencyMin and an open loop's rate; Limit names which:
	// "cpus", the Resource, "customers", "servers" or "arrivals".
	ThroughputMax float64
	Limit         string
	// LatencyMin is one drink's latency with no waiting: its critical
	// path, or its CPU time over all the CPUs if that is longer.
	LatencyMin time.Duration
}

// Structure is what bounds come from, in mean seconds an operation.
type Structure struct {
	Resources []Resource
	CPU       float64 // mean CPU seconds one operation burns
	Path      float64 // mean seconds of one operation's critical path with no waiting
}

// Resource is what an operation holds a while, Copies at once.
type Resource struct {
	Name   string
	Copies int     // how many operations can hold it at once
	Hold   float64 // mean seconds an operation holds one copy
}

// Bounds are st's on cpus CPUs with workers, open at rate > 0.
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
