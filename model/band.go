package model

import (
	"time"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/model/sim"
)

// Range is each of the go policy's costs' confidence interval.
type Range struct {
	Lo, Hi sim.Costs
	// Sets, where any, replace Lo's and Hi's corners: costs found
	// consistent with measured points (validation's inference of them).
	Sets []sim.Costs
	// Widen, where set, widens a point's band on cpus CPUs within its
	// bounds: validation's, by the model's own error past the CPUs the
	// costs were inferred on.
	Widen func(b *Band, cpus int, bnd Bounds)
	// Machine, where set, is the span of a machine whose own costs are
	// not known (Hardware): each corner is simulated at its fast and its
	// slow edge.
	Machine *MachineRange
}

// MachineRange is a machine's costs a band spans where they are not
// known: moving a cache line, and the all-core speed, at each edge.
type MachineRange struct {
	Fast, Slow sim.Transfer
	FastAll    float64 // AllCore at the fast edge
	SlowAll    float64
	// Threaded: the slow edge is also simulated with hardware threads
	// (ThreadedShape); Packed: both edges with the Ps on one socket first.
	Threaded, Packed bool
	// OwnTransfer keeps the calibration's own line moves: only the
	// all-core speed and FastStay and SlowStay (sim.Transfer.Stay) span.
	OwnTransfer        bool
	FastStay, SlowStay float64
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

// corner is one set of costs a band simulates (see MachineRange).
type corner struct {
	costs            sim.Costs
	threaded, packed bool
	allCore          bool // differs from its costs' corner in the all-core speed and a word's stay alone
}

// corners are every cost at its low, then high, edge, each with the spin
// window at both of its (its effect is not monotone in the others), each
// once; with words, each edge also with a word staying as the other's.
func (r Range) corners(words bool) []corner {
	out := r.Sets
	if len(out) == 0 {
		out = make([]sim.Costs, 0, 4)
		for _, c := range []sim.Costs{r.Lo, r.Hi} {
			for _, w := range []time.Duration{r.Lo.SpinWindow, r.Hi.SpinWindow} {
				c.SpinWindow = w
				out = collect.AppendNew(out, c) // a corner simulated twice gives the same point twice
			}
		}
	}
	var cs []corner
	for _, c := range out {
		m := r.Machine
		if m == nil {
			cs = append(cs, corner{costs: c})
			continue
		}
		fast, slow := c, c
		slow.AllCore, slow.AllCoreFirst = m.SlowAll, true
		if m.OwnTransfer {
			fast.Transfer.Stay, slow.Transfer.Stay = m.FastStay, m.SlowStay
		} else {
			fast.Transfer, fast.AllCore, slow.Transfer = m.Fast, m.FastAll, m.Slow
		}
		cs = append(cs, corner{costs: fast}, corner{costs: slow, allCore: m.OwnTransfer})
		if words {
			f, s := fast, slow
			f.Transfer.Stay, s.Transfer.Stay = slow.Transfer.Stay, fast.Transfer.Stay
			cs = append(cs, corner{costs: f}, corner{costs: s, allCore: m.OwnTransfer})
		}
		if m.Packed {
			cs = append(cs, corner{costs: fast, packed: true}, corner{costs: slow, packed: true})
		}
		if m.Threaded {
			cs = append(cs, corner{costs: slow, threaded: true})
		}
	}
	return cs
}

// BandWindow is an edge's window where its point's is longer and tallied
// and the edge's median latency holds within EdgeTolerance over it.
const (
	BandWindow    = 16 * time.Second
	EdgeTolerance = 0.01
)

// phases are the other start states a closed loop's band simulates.
const phases = 3

// Edges are what c's band simulates besides c (go policy, a Range): c at
// each corner; with CPU-time steps where c's are wall steps (what a step
// sysmon cut saves turns on overhead the model does not know); and in a
// closed loop from other start states. Configurations that differ in their
// CPUs only have their edges in the same order, for speed-ups edge by edge.
func (c Config) Edges() []Config {
	if c.Range == nil || c.sched() != "go" {
		return nil
	}
	rng := *c.Range
	cfg := c
	cfg.Range, cfg.Probe, cfg.Trace, cfg.edge = nil, false, nil, true
	point := cfg.Costs
	var runs []Config
	machine := cfg.Machine
	for _, c := range rng.corners(cfg.System != nil && cfg.System.Words()) {
		if cfg.clock() != "" && (c.allCore || c.threaded || c.packed) {
			// Steps that are times take them whatever the core's speed.
			continue
		}
		cfg.Costs, cfg.Machine = c.costs, machine
		if c.threaded {
			cfg.Machine = ThreadedShape(cfg.CPUs)
		}
		cfg.Machine.Packed = c.packed
		runs = append(runs, cfg)
	}
	cfg.Costs, cfg.Machine = point, machine
	if cfg.clock() == "wall" {
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
