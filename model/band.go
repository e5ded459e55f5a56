package model

import (
	"slices"
	"time"

	"github.com/brewput/brewput/model/sim"
)

// Range is how uncertain the go policy's costs are: the low and the high
// edge of each cost's confidence interval, as brewput calibrate measured
// them (for the spin window, the interval its bisection ended with).
type Range struct {
	Lo, Hi sim.Costs
	// Sets, where there are any, are the costs the band simulates in place
	// of the corners of Lo and Hi: those an inference from measured
	// points found consistent with them (calibrate.Inference.Sets), whose
	// edges move together, so that a corner of all the low edges at once
	// may be nothing the measurements allow.
	Sets []sim.Costs
}

// NewRange is the Range from lo to hi, nil where they are the same: costs
// known to no better than their medians (a calibration from before
// repeats, or costs given as flags) make no band.
func NewRange(lo, hi sim.Costs) *Range {
	if lo == hi {
		return nil
	}
	return &Range{Lo: lo, Hi: hi}
}

// Band is the range a go-policy prediction spans over a Range: the least
// and the most throughput and median latency among the point estimate and
// the simulations at the Range's corners.
type Band struct {
	ThroughputLo, ThroughputHi float64
	P50Lo, P50Hi               time.Duration
}

// corners are the costs a band simulates besides the point estimate: every
// handoff and wake-up cost at its low edge and at its high edge, each with
// the spin window at its low and at its high edge. The spin window is
// apart because what it does is not monotone in the others: whether a P
// idle for a given time still spins — a cheap wake-up — or sleeps flips
// with the window against the idle times, which the handoff costs shape;
// simulating both sides of it shows such an edge instead of hiding it.
// Edges that are the same (a spin window known exactly) make a corner
// once: the same costs simulate to the same point.
//
// Bands come from the intervals' edges, not from drawing each event's
// cost from the measured distribution: the point estimate stays one
// deterministic simulation with the medians, each edge is a simulation
// anyone can rerun with the costs as flags, and the band measures what the
// calibration does not know — where the medians lie — which drawing from
// the distribution, whose spread is the runtime's own, would not show.
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

// BandWindow is the window a band's edge simulates where its point's own
// is longer and tallied (Config.shortens) and its latencies hold steady
// over it (Config.Edge): the longest probe window, over which the point
// tallies what it counted, so that the edge's throughput is carried to
// the point's window (Result.Carry). EdgeTolerance is how far apart the
// medians of its two halves may be: on case 7's 96 points (six modes, 1
// to 16 CPUs, 60 s) all but one edge's median over 16 s is within 1 % of
// its median over 60 s, and that one (multi-2 on 11 CPUs) drifts.
const (
	BandWindow    = 16 * time.Second
	EdgeTolerance = 0.01
)

// phases are the start states a closed loop's band simulates besides the
// point estimate's (Config.Phase).
const phases = 3

// bandRuns is how many simulations band adds to the point estimate's, at
// most: four corners where the Range has no Sets, fewer where some of its
// edges are the same.
func (c Config) bandRuns() int {
	n := 4
	if c.Range != nil && len(c.Range.Sets) > 0 {
		n = len(c.Range.Sets)
	}
	if c.Burn == "wall" {
		n++
	}
	if c.Rate == 0 {
		n += phases
	}
	return n
}

// band simulates cfg at rng's corners, and a closed loop with the medians
// from other start states, and returns the band they and the point
// estimate r span.
//
// The start states are there because a simulation is deterministic and a
// real run is not: with every customer starting at once, a pipeline on two
// CPUs settles into a steady state where one P waits out the runnext grace
// every step, while a run that started otherwise — on this machine, one in
// three — settles where none does, 4 % faster. Which one a run falls into
// turns on how it started, which nothing measures; the band shows both
// where both are possible, and is the point alone where the start does not
// matter.
//
// With steps that end on the clock, the band also spans the same point
// with steps of CPU time: what a step that sysmon cut short saves is a
// knife edge. A goroutine's 20.1 ms slice (two ticks) ends 20 or 21 of its
// 1 ms steps, and which turns on microseconds of each step's own overhead
// that the model does not know: real runs of ideal with 10 customers on
// one CPU of this machine made 250–261 lattes/s with 1 ms steps, 258–260
// with 0.98 ms and 249 with 1.02 ms, where the model with wall steps says
// 259, 259 and 249, and with steps of CPU time 249, 255 and 245.
func band(cfg Config, rng Range, r Result) (*Band, error) {
	cfg.Range = &rng
	runs := cfg.BandConfigs()
	edges := make([]Result, len(runs))
	for i, c := range runs {
		e, err := Run(c)
		if err != nil {
			return nil, err
		}
		edges[i] = r.Carry(e)
	}
	return BandOf(r, edges), nil
}

// BandConfigs are the simulations the band of c (with its Range, under the
// go policy) takes besides c itself, as Run simulates them (see band):
// c at each of its Range's corners, with steps of CPU time where c's end
// on the clock, and, in a closed loop, from other start states. Each runs
// the point's whole window, not a probe's: a band's edges carry its
// median latency too, which a shorter window may not reproduce, and a
// band that missed its own point would contradict it. None where c has no
// Range or is not under the go policy. A caller that runs them itself, in parallel, gets c's band
// from their results with BandOf.
func (c Config) BandConfigs() []Config {
	if c.Range == nil || c.sched() != "go" {
		return nil
	}
	rng := *c.Range
	cfg := c
	cfg.Range = nil
	cfg.Edge = true
	point := cfg.Costs
	runs := make([]Config, 0, c.bandRuns())
	for _, c := range rng.corners() {
		cfg.Costs = c
		runs = append(runs, cfg)
	}
	cfg.Costs = point
	if cfg.Burn == "wall" {
		c := cfg
		c.Burn = "cpu"
		runs = append(runs, c)
	}
	if cfg.Rate == 0 {
		for k := range uint64(phases) {
			cfg.Phase = k + 1
			runs = append(runs, cfg)
		}
	}
	return runs
}

// BandOf is the band the point estimate r and the results of its
// BandConfigs, edges, span: the least and the most throughput and median
// latency among them.
func BandOf(r Result, edges []Result) *Band {
	b := &Band{ThroughputLo: r.Throughput, ThroughputHi: r.Throughput, P50Lo: r.Latency.P50, P50Hi: r.Latency.P50}
	for _, e := range edges {
		b.ThroughputLo, b.ThroughputHi = min(b.ThroughputLo, e.Throughput), max(b.ThroughputHi, e.Throughput)
		b.P50Lo, b.P50Hi = min(b.P50Lo, e.Latency.P50), max(b.P50Hi, e.Latency.P50)
	}
	return b
}
