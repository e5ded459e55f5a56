// Package schedule draws the schedules explain/schedule picks: the
// model's exact schedule of a configuration (FromModel) beside the
// execution trace of a measured point where its file is at hand.
package schedule

import (
	"cmp"
	"context"
	"time"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results/analysis"
)

// Span is the stretch of time a picture shows by default: five lattes of
// the talk's shop per customer.
const Span = 20 * time.Millisecond

// FromModel is cfg's exact schedule in the model over span after its
// warm-up: every step on its CPU, and the go policy's runtime work as
// analysis.Other, so that the bars cover the CPUs' busy time.
func FromModel(cfg model.Config, span time.Duration) (analysis.Timeline, error) {
	tr := &model.Trace{Span: span}
	cfg.Trace = tr
	if _, err := model.Simulate(context.Background(), []model.Config{cfg}, nil); err != nil {
		return analysis.Timeline{}, err
	}
	sched := cmp.Or(cfg.Policy.Sched, model.DefaultSched)
	t := analysis.Timeline{Mode: cfg.Mode, CPUs: cfg.CPUs, Source: "model (" + sched + ")",
		Start: tr.Start, Span: span, Who: "customer"}
	for _, s := range tr.Steps {
		b := analysis.Bar{CPU: s.CPU, Start: s.Start - tr.Start, End: s.End - tr.Start, Machine: s.Machine, Who: s.Customer}
		switch {
		case s.Runtime:
			b.Machine, b.Who = analysis.Other, 0
		case b.Machine == "":
			b.Machine = analysis.Combine
		}
		t.Bars = append(t.Bars, b)
	}
	analysis.SortBars(t.Bars)
	return t, nil
}
