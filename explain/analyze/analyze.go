// Package analyze reads the analysis of a set of points: it asks each
// question of the explanation layer once and keeps the answers in an
// analysis.Analysis, which pages and tables only render.
package analyze

import (
	"github.com/brewput/brewput/explain/scaling"
	"github.com/brewput/brewput/explain/verdict"
	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// Points reads the analysis of points into a, which holds what the
// experiments found on them (a new analysis where a is nil). benchCol
// names Go benchmarks' variants as benchstat's -col ("/impl"); "" finds
// the part in which they vary.
func Points(points []results.Point, a *analysis.Analysis, modes results.Modes, benchCol string) (*analysis.Analysis, error) {
	if a == nil {
		a = &analysis.Analysis{Schema: analysis.Schema}
	}
	fits, err := Fits(points)
	if err != nil {
		return nil, err
	}
	a.Fits = fits
	answer := Answer(points, modes)
	a.Verdict, a.Grid, a.Ranges, a.StudyTable, a.Labs = answer.Verdict, answer.Grid, answer.Ranges, answer.StudyTable, answer.Labs
	if benchCol != "" {
		if a.Verdict.Benches, err = verdict.BenchFamiliesBy(points, benchCol); err != nil {
			return nil, err
		}
	}
	if a.Of, err = analysis.OfPoints(points); err != nil {
		return nil, err
	}
	return a, nil
}

// Answer is the part of an analysis read from the points as they are,
// simulating nothing; modes is what their system declares (nil: nothing).
func Answer(points []results.Point, modes results.Modes) *analysis.Analysis {
	a := &analysis.Analysis{Schema: analysis.Schema, Grid: verdict.NewGrid(points), Verdict: verdict.Of(points, modes)}
	a.Ranges, a.StudyTable, a.Labs = verdict.Ranges(points, modes), verdict.StudyTable(points), verdict.Labs(points)
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
