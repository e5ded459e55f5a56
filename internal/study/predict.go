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

	"github.com/brewput/brewput/explain/verdict"
	"github.com/brewput/brewput/report/text"

	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/internal/parallel"
	"github.com/brewput/brewput/internal/predict"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
)

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

// simulate predicts bp, a variant of study, on cpus CPUs under pr: the
// point estimate and, under the go policy, its band over the corners of
// pr's costs and other start states. The point names the study, so that
// it is read beside the study's measured points.
func simulate(ctx context.Context, pr predict.Prediction, study string, bp *blueprint.Blueprint, cpus int) (results.Point, error) {
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
	p.Host, p.Calibration, p.Study = pr.Host, pr.Cal, study
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
func predictAll(ctx context.Context, pr predict.Prediction, study string, models []variantModel, cpus []int) ([]results.Point, error) {
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
		points[i], errs[i] = simulate(ctx, pr, study, bps[m], cpus[i%len(cpus)])
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

// writePrediction writes the prediction: each variant's model in a line,
// then the table of the predicted points against the measured ones
// (text.WritePrediction), a row per variant and CPU count of
// tableCounts.
func writePrediction(w io.Writer, models []variantModel, predicted, measured []results.Point, cpus []int) error {
	var b strings.Builder
	b.WriteString("What each model is made of, from its meters on each CPU count measured (a count past them takes the most CPUs' model):\n")
	for _, m := range models {
		fmt.Fprintf(&b, "  %s (%d CPU(s), %s): %s\n", m.Variant, m.From.CPUs, format.Rate(m.From.Throughput, m.Unit), m.describe())
	}
	b.WriteString("\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	return text.WritePrediction(w, predicted, verdict.Checks(append(slices.Clone(predicted), measured...)), tableCounts(cpus, measured))
}
