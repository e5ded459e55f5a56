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
	"github.com/brewput/brewput/internal/predict"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/blueprint"
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

// window is how long the simulation of cfg runs, and its warm-up. The
// window holds simCycles cycles of each customer at the structure's
// ceiling, at least simMinDur, at most 1 s. The warm-up is a fifth of it,
// and under the go policy at least the time to wake every P twice over:
// the Ps start idle and each wake costs microseconds, so that 64 CPUs
// take milliseconds to fill, and a window before then predicts a
// start-up, not the steady state.
func window(cfg model.Config) (warmup, dur time.Duration, err error) {
	cfg.Dur = time.Second
	b, err := cfg.Bounds()
	if err != nil {
		return 0, 0, err
	}
	secs := 1.0
	if b.ThroughputMax > 0 && !math.IsInf(b.ThroughputMax, 1) {
		secs = min(1, simCycles*float64(cfg.Resolve().Par)/b.ThroughputMax)
	}
	dur = max(time.Duration(secs*float64(time.Second)), simMinDur)
	warmup = dur / 5
	if cfg.Policy.Sched != "fifo" {
		warmup = max(warmup, 2*time.Duration(cfg.CPUs)*max(cfg.Costs.Wake, cfg.Costs.SpinWake))
	}
	return warmup, dur, nil
}

// predictAll simulates every variant on every CPU count under pr, as many
// at once as there are CPUs, each count with the variant's model read on
// the most CPUs measured up to it (modelFor), and, under the go policy,
// with its band over pr's costs and other start states; it returns the
// points by variant, in the order of models, then CPU count, each naming
// the study, so that it is read beside the study's measured points.
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
	var cfgs []model.Config
	for _, v := range variants {
		for _, n := range cpus {
			bp := bps[modelFor(models, v, n)]
			cfg := pr.Apply(model.Config{System: bp, Spec: results.Spec{Mode: bp.Name, CPUs: n}})
			var err error
			if cfg.Warmup, cfg.Dur, err = window(cfg); err != nil {
				return nil, fmt.Errorf("%s on %d CPUs: %w", v, n, err)
			}
			cfgs = append(cfgs, cfg)
		}
	}
	points, err := model.Simulate(ctx, cfgs, func(i int, _ results.Point, err error) error {
		if err != nil {
			return fmt.Errorf("%s on %d CPUs: %w", variants[i/len(cpus)], cpus[i%len(cpus)], err)
		}
		return nil
	})
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	for i := range points {
		points[i].Host, points[i].Calibration = pr.Host, pr.Cal
		points[i].AsStudy(study)
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
		pts := slices.DeleteFunc(slices.Clone(measured), func(p results.Point) bool { return p.Mode != v })
		if len(pts) == 0 {
			return nil, fmt.Errorf("no measured point of variant %s", v)
		}
		var counts []int
		for _, p := range pts {
			counts = append(counts, p.CPUs)
		}
		slices.Sort(counts)
		for _, n := range slices.Compact(counts) {
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
