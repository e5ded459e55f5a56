// Package analyze makes the analysis of a set of points: it asks each
// question of the explanation layer once — what limits each point (its
// causal profile, on the point), what the points answer, how each series
// scales, what the model advises for each mode, which schedules tell the
// story — and keeps the
// answers in an analysis.Analysis, which pages and tables only render.
package analyze

import (
	"fmt"
	"io"

	"github.com/brewput/brewput/explain/limits"
	"github.com/brewput/brewput/explain/scaling"
	"github.com/brewput/brewput/explain/schedule"
	"github.com/brewput/brewput/explain/verdict"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// Options say how to analyse.
type Options struct {
	// Policy profiles the points that have no causal profile: a measured
	// point's configuration is simulated under it (the fifo policy where
	// it is zero).
	Policy model.Policy
	// Log hears what could not be analysed, as it happens; nil for none.
	Log io.Writer
}

// Points analyses points, giving each shop point without a causal
// profile one (in place), and returns the analysis. What cannot be
// analysed (a profile or an advice the model cannot simulate) is said in
// the analysis' notes and on opt.Log, and the rest is analysed all the
// same.
func Points(points []results.Point, opt Options) (*analysis.Analysis, error) {
	a := &analysis.Analysis{Schema: analysis.Schema}
	note := func(err error) {
		a.Notes = append(a.Notes, err.Error())
		if opt.Log != nil {
			fmt.Fprintln(opt.Log, err)
		}
	}
	policy := opt.Policy
	if policy.Sched == "" {
		policy = limits.Fifo()
	}
	if err := limits.Annotate(points, policy); err != nil {
		note(fmt.Errorf("causal profiles: %w", err))
	}
	// The advice is the fifo policy's, which needs no calibration, so
	// that any machine makes the same of the same points.
	advice, skipped := limits.Points(points, limits.Fifo())
	for _, err := range skipped {
		note(err)
	}
	a.Advice = advice
	a.Schedules = schedule.Pictures(points, schedule.Span)
	fits, err := Fits(points)
	if err != nil {
		return nil, err
	}
	a.Fits = fits
	answer := Answer(points)
	a.Verdict, a.Grid, a.Ranges, a.StudyTable, a.Labs = answer.Verdict, answer.Grid, answer.Ranges, answer.StudyTable, answer.Labs
	if a.Of, err = analysis.OfPoints(points); err != nil {
		return nil, err
	}
	return a, nil
}

// Answer is the part of an analysis that is read from the points as they
// are, simulating nothing: the verdict, the map of limits, the compact
// tables and the labs' answers.
func Answer(points []results.Point) *analysis.Analysis {
	a := &analysis.Analysis{Schema: analysis.Schema, Grid: verdict.NewGrid(points)}
	a.Verdict = verdict.OfGrid(a.Grid)
	a.Verdict.Studies = verdict.Studies(points)
	a.Verdict.Benches = verdict.BenchFamilies(points)
	a.Ranges, a.StudyTable, a.Labs = verdict.Ranges(points), verdict.StudyTable(points), verdict.Labs(points)
	return a
}

// Fits fits the Universal Scalability Law against CPUs to every series of
// points, a Go benchmark's series within its package (two packages may
// name a benchmark alike).
func Fits(points []results.Point) ([]analysis.Fit, error) {
	others, benches := results.SplitBench(points)
	out, err := scaling.Fits(others, scaling.ByCPUs)
	if err != nil {
		return nil, err
	}
	for _, pkg := range packages(benches) {
		var mine []results.Point
		for _, p := range benches {
			if p.Bench.Pkg == pkg {
				mine = append(mine, p)
			}
		}
		fits, err := scaling.Fits(mine, scaling.ByCPUs)
		if err != nil {
			return nil, err
		}
		for i := range fits {
			fits[i].Pkg = pkg
		}
		out = append(out, fits...)
	}
	return out, nil
}

// packages are the benchmarks' packages, in the order they first come.
func packages(benches []results.Point) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range benches {
		if !seen[p.Bench.Pkg] {
			seen[p.Bench.Pkg] = true
			out = append(out, p.Bench.Pkg)
		}
	}
	return out
}
