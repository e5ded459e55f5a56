package model

import (
	"slices"
	"time"
)

// Config is one closed-loop point to simulate: the shop's steps, the number
// of virtual CPUs and customers, and the simulated time.
type Config struct {
	CPUs      int // virtual CPUs, at least 1
	Customers int // closed-loop customers; 0 means one per CPU

	// The steps' durations, as coffee.Steps: each holds one CPU. Jitter,
	// when positive, adds to each machine step a uniform random amount in
	// [-Jitter/2, +Jitter/2] (never going below zero); Combine stays fixed.
	Grind, Press, Steam, Combine, Jitter time.Duration

	// Warmup is simulated first and not counted; Duration is the measured
	// window that follows it. A latte counts if it completes inside the
	// window (its end time t has Warmup < t <= Warmup+Duration).
	Warmup, Duration time.Duration

	Seed uint64 // seeds the jitter; the same seed gives the same result
}

// DefaultConfig is the talk's shop, every step 1 ms, on cpus CPUs with one
// customer per CPU, measured for 1 s after a 100 ms warm-up.
func DefaultConfig(cpus int) Config {
	ms := time.Millisecond
	return Config{CPUs: cpus, Grind: ms, Press: ms, Steam: ms, Combine: ms, Warmup: 100 * ms, Duration: time.Second, Seed: 1}
}

func (c Config) customers() int {
	if c.Customers > 0 {
		return c.Customers
	}
	return c.CPUs
}

// Result is what a simulated point gives.
type Result struct {
	Lattes     int     // lattes completed inside the measured window
	Throughput float64 // lattes per virtual second of the window
	Latency    Latency // of the lattes completed inside the window
	CPUUtil    float64 // CPU time used in the window / (CPUs × window)
	Machines   []Machine
	Events     uint64 // events the engine processed, warm-up included
}

// Machine is one shared resource's use in the measured window.
type Machine struct {
	Name     string
	Uses     int64
	BusyFrac float64       // fraction of the window it was held
	MeanWait time.Duration // mean wait to get it, per use
}

// Latency summarizes a latency distribution, exactly: its percentiles are
// order statistics of every recorded latte (nearest rank), not estimates.
type Latency struct {
	Min, P05, P25, P50, P75, P90, P95, P99, Max, Mean time.Duration
}

// latencies collects every latte's latency in the measured window.
type latencies []time.Duration

// summarize sorts the latencies and returns their distribution; an empty
// one gives zeros.
func (l latencies) summarize() Latency {
	if len(l) == 0 {
		return Latency{}
	}
	slices.Sort(l)
	var sum time.Duration
	for _, d := range l {
		sum += d
	}
	q := func(f float64) time.Duration { // nearest rank
		i := int(f*float64(len(l))+0.999999999) - 1
		return l[min(max(i, 0), len(l)-1)]
	}
	return Latency{
		Min: l[0], P05: q(0.05), P25: q(0.25), P50: q(0.50), P75: q(0.75),
		P90: q(0.90), P95: q(0.95), P99: q(0.99), Max: l[len(l)-1],
		Mean: sum / time.Duration(len(l)),
	}
}
