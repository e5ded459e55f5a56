package model

import (
	"slices"
	"time"

	"github.com/brewput/brewput/model/sim"
)

// Range is each of the go policy's costs' confidence interval.
type Range struct {
	Lo, Hi sim.Costs
	// Sets, where any, replace Lo's and Hi's corners: costs an inference
	// found consistent with the points (calibrate.Inference.Sets).
	Sets []sim.Costs
}

// NewRange is the Range from lo to hi, nil where they are the same.
func NewRange(lo, hi sim.Costs) *Range {
	if lo == hi {
		return nil
	}
	return &Range{Lo: lo, Hi: hi}
}

// Band is the range of a prediction's and its edges' results.
type Band struct {
	ThroughputLo, ThroughputHi float64
	P50Lo, P50Hi               time.Duration
}

// corners are every cost at its low, then high, edge, each with the spin
// window at both of its (its effect is not monotone in the others), each
// once: where the medians may lie, not the runtime's own spread.
func (r Range) corners() []sim.Costs {
	if len(r.Sets) > 0 {
		return r.Sets
	}
	out := make([]sim.Costs, 0, 4)
	for _, c := range []sim.Costs{r.Lo, r.Hi} {
		for _, w := range []time.Duration{r.Lo.SpinWindow, r.Hi.SpinWindow} {
			c.SpinWindow = w
			if !slices.Contains(out, c) { // a corner simulated twice gives the same point twice
				out = append(out, c)
			}
		}
	}
	return out
}

// BandWindow is an edge's window where its point's is longer and tallied
// and the edge's median latency holds within EdgeTolerance over it.
const (
	BandWindow    = 16 * time.Second
	EdgeTolerance = 0.01
)

// phases are the other start states a closed loop's band simulates.
const phases = 3

// edges are what c's band simulates besides c (go policy, a Range): c at
// each corner; with CPU-time steps where c's are wall steps, for what a
// step sysmon cut saves turns on overhead the model does not know (ideal,
// 10 customers, 1 CPU: measured 250–261 lattes/s, wall 259, CPU 249); and
// in a closed loop from other start states, for where a run settles turns
// on how it started.
func (c Config) edges() []Config {
	if c.Range == nil || c.sched() != "go" {
		return nil
	}
	rng := *c.Range
	cfg := c
	cfg.Range, cfg.Probe, cfg.Trace, cfg.edge = nil, false, nil, true
	point := cfg.Costs
	var runs []Config
	for _, c := range rng.corners() {
		cfg.Costs = c
		runs = append(runs, cfg)
	}
	cfg.Costs = point
	if cfg.Policy.Burn == "wall" {
		c := cfg
		c.Policy.Burn = "cpu"
		runs = append(runs, c)
	}
	if cfg.Resolve().Rate == 0 {
		for k := range uint64(phases) {
			cfg.Phase = k + 1
			runs = append(runs, cfg)
		}
	}
	return runs
}

// bandOf is the band r and its edges' results span.
func bandOf(r result, edges []result) *Band {
	b := &Band{ThroughputLo: r.Throughput, ThroughputHi: r.Throughput, P50Lo: r.Latency.P50, P50Hi: r.Latency.P50}
	for _, e := range edges {
		b.ThroughputLo, b.ThroughputHi = min(b.ThroughputLo, e.Throughput), max(b.ThroughputHi, e.Throughput)
		b.P50Lo, b.P50Hi = min(b.P50Lo, e.Latency.P50), max(b.P50Hi, e.Latency.P50)
	}
	return b
}
