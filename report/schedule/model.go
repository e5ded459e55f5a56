package schedule

import (
	"time"

	"github.com/brewput/brewput/model"
)

// FromModel is cfg's exact schedule in the model over span, from the end
// of its warm-up (see model.Schedule): every step on its CPU, for its
// customer.
func FromModel(cfg model.Config, span time.Duration) (Timeline, error) {
	start, steps, err := model.Schedule(cfg, span)
	if err != nil {
		return Timeline{}, err
	}
	sched := cfg.Sched
	if sched == "" {
		sched = "go"
	}
	t := Timeline{Mode: cfg.Mode.String(), CPUs: cfg.CPUs, Source: "model (" + sched + ")",
		Start: start, Span: span, Who: "customer"}
	for _, s := range steps {
		m := s.Machine
		if m == "" {
			m = Combine
		}
		t.Bars = append(t.Bars, Bar{CPU: s.CPU, Start: s.Start - start, End: s.End - start, Machine: m, Who: s.Customer})
	}
	sortBars(t.Bars)
	return t, nil
}
