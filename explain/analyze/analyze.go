// Package analyze makes the analysis of a set of points: it asks each
// question of the explanation layer once (what limits each point, what
// the points answer, how each series scales, what the model advises,
// which schedules tell the story) and keeps the answers in an
// analysis.Analysis, which pages and tables only render.
package analyze

import (
	"fmt"
	"io"

	"github.com/brewput/brewput/explain/limits"
	"github.com/brewput/brewput/explain/scaling"
	"github.com/brewput/brewput/explain/schedule"
	"github.com/brewput/brewput/explain/verdict"
	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
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
	// BenchCol names Go benchmarks' variants by a projection of their
	// names, as benchstat's -col ("/impl"); "" finds the part in which
	// they vary (verdict.BenchFamilies).
	BenchCol string
}

// Points analyses points, giving each shop point without a causal
// profile one (in place). What cannot be analysed is said in the notes
// and on opt.Log, and the rest is analysed all the same.
func Points(points []results.Point, opt Options) (*analysis.Analysis, error) {
	a := &analysis.Analysis{Schema: analysis.Schema}
	note := func(err error) {
		a.Notes = append(a.Notes, err.Error())
		if opt.Log != nil {
			format.Lines(opt.Log, "")(err.Error())
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
	if opt.BenchCol != "" {
		if a.Verdict.Benches, err = verdict.BenchFamiliesBy(points, opt.BenchCol); err != nil {
			return nil, err
		}
	}
	if a.Of, err = analysis.OfPoints(points); err != nil {
		return nil, err
	}
	return a, nil
}

// Answer is the part of an analysis read from the points as they are,
// simulating nothing: the verdict, the grid, the compact tables, the labs.
func Answer(points []results.Point) *analysis.Analysis {
	a := &analysis.Analysis{Schema: analysis.Schema, Grid: verdict.NewGrid(points), Verdict: verdict.Of(points)}
	a.Ranges, a.StudyTable, a.Labs = verdict.Ranges(points), verdict.StudyTable(points), verdict.Labs(points)
	return a
}

// Fits fits the scaling law against CPUs to every series of points, a Go
// benchmark's within its package (two packages may name one alike).
func Fits(points []results.Point) ([]analysis.Fit, error) {
	others, benches := results.SplitBench(points)
	out, err := scaling.Fits(others, scaling.ByCPUs)
	pkgs, byPkg := collect.GroupBy(benches, func(p results.Point) (string, bool) { return p.Bench.Pkg, true })
	for _, pkg := range pkgs {
		fits, _ := scaling.Fits(byPkg[pkg], scaling.ByCPUs) // the same axis: no error
		for i := range fits {
			fits[i].Pkg = pkg
		}
		out = append(out, fits...)
	}
	return out, err
}
