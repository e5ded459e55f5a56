// Package experiment makes the analysis of a set of points: it runs the
// experiments an analysis asks for, each in its package below (a point's
// causal profile and the advice in the model, the schedules' pictures),
// and reads the rest with explain/analyze, which simulates nothing.
package experiment

import (
	"fmt"
	"io"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/experiment/limits"
	"github.com/brewput/brewput/experiment/schedule"
	"github.com/brewput/brewput/explain/analyze"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// Options say how to analyse.
type Options struct {
	// Policy profiles the points that have no causal profile (fifo where
	// it is zero).
	Policy model.Policy
	// Log hears what could not be analysed, as it happens; nil for none.
	Log io.Writer
	// BenchCol names Go benchmarks' variants as benchstat's -col does
	// ("/impl"); "" finds the part in which they vary.
	BenchCol string
}

// Analyze analyses points, giving each shop point without a causal
// profile one, in place. What cannot be analysed is said in the notes and
// on opt.Log, and the rest is analysed all the same.
func Analyze(points []results.Point, opt Options) (*analysis.Analysis, error) {
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
	return analyze.Points(points, a, coffee.Declared{}, opt.BenchCol)
}
