package study

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/brewput/brewput/internal/parallel"
	"github.com/brewput/brewput/internal/predict"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
)

// LeavesOut says in a line what a study's prediction does not model.
const LeavesOut = "Past the CPUs measured, the model keeps an operation's costs as measured on the most of them: it leaves out " +
	"how they grow with more cores (cache lines shared by more cores, memory bandwidth, the garbage collector's extra work); " +
	"the locks of a group are taken at random, evenly, and channels count as work."

// simCycles is how many cycles of each customer a prediction's window
// holds, at the structure's ceiling, and simMinDur the shortest window:
// enough for a steady state of operations that take 100 ns, short enough
// that 64 CPU counts with their bands take a minute, not an hour.
const (
	simCycles = 500
	simMinDur = 500 * time.Microsecond
)

// window is how long the simulation of bp at opt runs, and its warm-up.
// The window holds simCycles cycles of each customer at the structure's
// ceiling, at least simMinDur, at most 1 s. The warm-up is a fifth of it,
// and under the go policy at least the time to wake every P twice over:
// the Ps start idle and each wake costs microseconds, so that 64 CPUs
// take milliseconds to fill, and a window before then predicts a
// start-up, not the steady state.
func window(bp *blueprint.Blueprint, opt blueprint.Options) (warmup, dur time.Duration, err error) {
	opt.Duration = time.Second
	b, err := bp.Bounds(opt)
	if err != nil {
		return 0, 0, err
	}
	workers, _ := bp.Workers(opt)
	secs := 1.0
	if b.ThroughputMax > 0 && !math.IsInf(b.ThroughputMax, 1) {
		secs = min(1, simCycles*float64(workers)/b.ThroughputMax)
	}
	dur = max(time.Duration(secs*float64(time.Second)), simMinDur)
	warmup = dur / 5
	if opt.Sched != "fifo" {
		warmup = max(warmup, 2*time.Duration(opt.CPUs)*max(opt.Costs.Wake, opt.Costs.SpinWake))
	}
	return warmup, dur, nil
}

// corners are the go policy's costs a band simulates besides the point
// estimate's, as model's bands take them: the sets an inference found,
// else every cost at its low and at its high edge, each with the spin
// window at both of its edges.
func corners(r *model.Range) []sim.Costs {
	if r == nil {
		return nil
	}
	if len(r.Sets) > 0 {
		return r.Sets
	}
	var out []sim.Costs
	for _, c := range []sim.Costs{r.Lo, r.Hi} {
		for _, w := range []time.Duration{r.Lo.SpinWindow, r.Hi.SpinWindow} {
			c.SpinWindow = w
			out = append(out, c)
		}
	}
	return out
}

// phases are the seeds after the prediction's own that a closed loop's
// band simulates besides the corners: other start states, as model's
// bands do.
const phases = 3

// simulate predicts bp on cpus CPUs under pr: the point estimate and,
// under the go policy, its band over the corners of pr's costs and other
// start states.
func simulate(ctx context.Context, pr predict.Prediction, bp *blueprint.Blueprint, cpus int) (results.Point, error) {
	opt := blueprint.Options{CPUs: cpus, Seed: pr.Seed, Sched: pr.Sched, Costs: pr.Costs,
		Runtime: sim.Runtime(pr.Runtime), Background: pr.Background, Cancel: ctx.Done()}
	var err error
	if opt.Warmup, opt.Duration, err = window(bp, opt); err != nil {
		return results.Point{}, err
	}
	r, err := bp.Run(opt)
	if err != nil {
		return results.Point{}, err
	}
	p := bp.Point(r, opt)
	p.Host, p.Calibration = pr.Host, pr.Cal
	if pr.Sched != "go" || pr.Range == nil {
		return p, nil
	}
	var runs []blueprint.Options
	for _, c := range corners(pr.Range) {
		o := opt
		o.Costs = c
		runs = append(runs, o)
	}
	for k := range uint64(phases) {
		o := opt
		o.Seed = opt.Seed + k + 1
		runs = append(runs, o)
	}
	band := &results.Band{Throughput: [2]float64{p.Throughput, p.Throughput}, P50Ms: [2]float64{p.Latency.P50, p.Latency.P50}}
	for _, o := range runs {
		e, err := bp.Run(o)
		if err != nil {
			return results.Point{}, err
		}
		ep := bp.Point(e, o)
		band.Throughput = [2]float64{min(band.Throughput[0], ep.Throughput), max(band.Throughput[1], ep.Throughput)}
		band.P50Ms = [2]float64{min(band.P50Ms[0], ep.Latency.P50), max(band.P50Ms[1], ep.Latency.P50)}
	}
	p.Band = band
	return p, nil
}

// predictAll simulates every variant on every CPU count, as many at once
// as there are CPUs, each count with the variant's model read on the most
// CPUs measured up to it (modelFor), and returns the points by variant,
// in the order of models, then CPU count.
func predictAll(ctx context.Context, pr predict.Prediction, models []variantModel, cpus []int) ([]results.Point, error) {
	var variants []string
	bps := map[*variantModel]*blueprint.Blueprint{}
	for i := range models {
		m := &models[i]
		if !slices.Contains(variants, m.Variant) {
			variants = append(variants, m.Variant)
		}
		bp, err := m.blueprint()
		if err != nil {
			return nil, err
		}
		bps[m] = bp
	}
	n := len(variants) * len(cpus)
	points := make([]results.Point, n)
	errs := make([]error, n)
	parallel.Do(n, func(i int) {
		if ctx.Err() != nil {
			errs[i] = ctx.Err()
			return
		}
		m := modelFor(models, variants[i/len(cpus)], cpus[i%len(cpus)])
		points[i], errs[i] = simulate(ctx, pr, bps[m], cpus[i%len(cpus)])
	})
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("%s on %d CPUs: %w", variants[i/len(cpus)], cpus[i%len(cpus)], err)
		}
	}
	return points, nil
}

// modelFor is the model of variant that predicts it on n CPUs: the one
// read on the most CPUs measured up to n, or on the fewest measured where
// n is below them all. models holds every variant's, by CPU count.
func modelFor(models []variantModel, variant string, n int) *variantModel {
	var pick *variantModel
	for i := range models {
		m := &models[i]
		if m.Variant != variant {
			continue
		}
		switch {
		case pick == nil,
			m.From.CPUs <= n && (pick.From.CPUs > n || m.From.CPUs > pick.From.CPUs),
			m.From.CPUs > n && pick.From.CPUs > n && m.From.CPUs < pick.From.CPUs:
			pick = m
		}
	}
	return pick
}

// check is a prediction held against what was measured at one CPU count.
type check struct {
	Variant  string
	CPUs     int
	Measured float64 // the median of the measured runs' throughput
	Runs     int
	// Disturbed reports whether any of the runs was (results.Point.Disturbed).
	Disturbed bool
	Predicted results.Point
}

// lo and hi are the prediction's band, or its point estimate where it
// has none.
func (c check) lo() float64 {
	if b := c.Predicted.Band; b != nil {
		return b.Throughput[0]
	}
	return c.Predicted.Throughput
}

func (c check) hi() float64 {
	if b := c.Predicted.Band; b != nil {
		return b.Throughput[1]
	}
	return c.Predicted.Throughput
}

// resolution is how finely a prediction can reproduce a measurement,
// a fraction either way: its steps are whole nanoseconds (half a
// nanosecond of a 100 ns operation is 0.5 %) and its window counts whole
// cycles of each customer (one in simCycles, 0.2 %).
const resolution = 0.005

// Within reports whether the measured throughput lies within the band,
// to the model's resolution.
func (c check) Within() bool {
	return c.Measured >= c.lo()*(1-resolution) && c.Measured <= c.hi()*(1+resolution)
}

// Off is how far the measured throughput lies from the nearest edge of
// the band, as a fraction of that edge: negative where it measured less.
func (c check) Off() float64 {
	switch {
	case c.Within():
		return 0
	case c.Measured < c.lo():
		return c.Measured/c.lo() - 1
	}
	return c.Measured/c.hi() - 1
}

// Verdict says, in words, how the prediction fares: "within its band",
// or "off by -22 %" (the measured against the nearest edge).
func (c check) Verdict() string {
	if c.Within() {
		return "within its band"
	}
	return fmt.Sprintf("off by %+.0f %%", 100*c.Off())
}

// checks holds each prediction against the measured points of its
// variant and CPU count, where there are any, by variant and CPU count.
func checks(predicted, measured []results.Point) []check {
	var out []check
	for _, p := range predicted {
		var thr []float64
		c := check{Variant: p.Mode, CPUs: p.CPUs, Predicted: p}
		for _, m := range measured {
			if m.Mode == p.Mode && m.CPUs == p.CPUs {
				thr = append(thr, m.Throughput)
				c.Disturbed = c.Disturbed || m.Disturbed
			}
		}
		if len(thr) == 0 {
			continue
		}
		c.Measured, c.Runs = results.Median(thr), len(thr)
		out = append(out, c)
	}
	return out
}

// modelsOf reads each variant's models from what was measured: one for
// each CPU count measured, from the median run of that count by
// throughput, in the order the variants are given, then by CPU count.
// An operation's costs on more cores — its work slowed by cache lines
// other cores share, its holds — are what they measured there, so each
// count measured is predicted from its own readings and every count past
// them from the readings on the most CPUs.
func modelsOf(variants []string, measured []results.Point) ([]variantModel, error) {
	var out []variantModel
	for _, v := range variants {
		var pts []results.Point
		for _, p := range measured {
			if p.Mode == v {
				pts = append(pts, p)
			}
		}
		if len(pts) == 0 {
			return nil, fmt.Errorf("no measured point of variant %s", v)
		}
		var counts []int
		for _, p := range pts {
			if !slices.Contains(counts, p.CPUs) {
				counts = append(counts, p.CPUs)
			}
		}
		slices.Sort(counts)
		for _, n := range counts {
			runs := slices.DeleteFunc(slices.Clone(pts), func(p results.Point) bool { return p.CPUs != n })
			slices.SortFunc(runs, func(a, b results.Point) int { return cmp.Compare(a.Throughput, b.Throughput) })
			m, err := modelOf(runs[(len(runs)-1)/2])
			if err != nil {
				return nil, err
			}
			out = append(out, m)
		}
	}
	return out, nil
}

// tableCounts are the CPU counts the prediction's table shows of those
// predicted: the first and the last, the powers of two and those
// measured; the JSON has every one.
func tableCounts(cpus []int, measured []results.Point) []int {
	var out []int
	for i, n := range cpus {
		pow2 := n&(n-1) == 0
		if i == 0 || i == len(cpus)-1 || pow2 || slices.ContainsFunc(measured, func(p results.Point) bool { return p.CPUs == n }) {
			out = append(out, n)
		}
	}
	return out
}

// writePrediction writes the prediction as a table: each variant's model
// in a line, then a row per variant and CPU count (tableCounts) with the
// predicted throughput, its band, what limits it by the structural bounds,
// and, where measured, the measured throughput and the check.
func writePrediction(w io.Writer, models []variantModel, predicted, measured []results.Point, cpus []int) error {
	var b strings.Builder
	b.WriteString("What each model is made of, from its meters on each CPU count measured (a count past them takes the most CPUs' model):\n")
	for _, m := range models {
		fmt.Fprintf(&b, "  %s (%d CPU(s), %s): %s\n", m.Variant, m.From.CPUs, results.FormatRate(m.From.Throughput, m.Unit), m.describe())
	}
	b.WriteString("\n")
	width := len("variant")
	for _, m := range models {
		width = max(width, len(m.Variant))
	}
	fmt.Fprintf(&b, "  %-*s  %4s  %14s  %-24s  %-18s  %14s  %s\n", width, "variant", "cpus", "predicted", "band", "bound", "measured", "check")
	shown := tableCounts(cpus, measured)
	cs := checks(predicted, measured)
	for _, p := range predicted {
		if !slices.Contains(shown, p.CPUs) {
			continue
		}
		band := "-"
		if p.Band != nil {
			band = fmt.Sprintf("[%s, %s]", rate(p.Band.Throughput[0]), rate(p.Band.Throughput[1]))
		}
		bound := "-"
		if bd := p.Bounds; bd != nil && bd.ThroughputMax > 0 {
			bound = fmt.Sprintf("%s %s", rate(bd.ThroughputMax), boundName(bd))
		}
		meas, verdict := "", ""
		if i := slices.IndexFunc(cs, func(c check) bool { return c.Variant == p.Mode && c.CPUs == p.CPUs }); i >= 0 {
			c := cs[i]
			meas = rate(c.Measured)
			if c.Disturbed {
				meas += "*"
			}
			verdict = c.Verdict()
		}
		fmt.Fprintf(&b, "  %-*s  %4d  %14s  %-24s  %-18s  %14s  %s\n", width, p.Mode, p.CPUs, rate(p.Throughput), band, bound, meas, verdict)
	}
	unit := "ops/s"
	if len(models) > 0 {
		unit = models[0].Unit
	}
	fmt.Fprintf(&b, "\nThroughput in %s (M = million); bound: the structural limit and what sets it; the table shows the powers of two, the ends and the counts measured (--format json has every count).\n", unit)
	if slices.ContainsFunc(cs, func(c check) bool { return c.Disturbed }) {
		b.WriteString("* a measured run of this point was disturbed: other processes took CPU from it.\n")
	}
	b.WriteString(summary(cs))
	b.WriteString(LeavesOut + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// summary says in a line per check how each measured point compares.
func summary(cs []check) string {
	if len(cs) == 0 {
		return "Nothing measured to check the prediction against.\n"
	}
	var b strings.Builder
	b.WriteString("The prediction against what was measured:\n")
	for _, c := range cs {
		fmt.Fprintf(&b, "  %s on %d CPU(s): measured %s, predicted %s [%s, %s]: %s\n", c.Variant, c.CPUs,
			rate(c.Measured), rate(c.Predicted.Throughput), rate(c.lo()), rate(c.hi()), c.Verdict())
	}
	return b.String()
}

// rate writes a throughput with an SI prefix and no unit: "8.13M".
func rate(v float64) string {
	for _, p := range []struct {
		f float64
		s string
	}{{1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if v >= p.f {
			return fmt.Sprintf("%.3g%s", v/p.f, p.s)
		}
	}
	return fmt.Sprintf("%.3g", v)
}

// boundName says what sets a structural bound: "cpus", a resource,
// "customers".
func boundName(b *results.Bounds) string {
	if b.Limit == "" {
		return "cpus"
	}
	return b.Limit
}
