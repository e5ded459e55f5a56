package schedule

import (
	"time"

	"github.com/brewput/brewput/model"
)

// FromModel is cfg's exact schedule in the model over span, from the end
// of its warm-up (see model.Schedule): every step on its CPU, for its
// customer, and under the go policy the runtime's own work as Other, so
// that the bars cover the CPUs' busy time as the model counts it.
func FromModel(cfg model.Config, span time.Duration) (Timeline, error) {
	start, steps, err := model.Schedule(cfg, span)
	if err != nil {
		return Timeline{}, err
	}
	sched := cfg.Sched
	if sched == "" {
		sched = model.DefaultSched
	}
	t := Timeline{Mode: cfg.Mode.String(), CPUs: cfg.CPUs, Source: "model (" + sched + ")",
		Start: start, Span: span, Who: "customer"}
	for _, s := range steps {
		b := Bar{CPU: s.CPU, Start: s.Start - start, End: s.End - start, Machine: s.Machine, Who: s.Customer}
		switch {
		case s.Runtime:
			b.Machine, b.Who = Other, 0
		case b.Machine == "":
			b.Machine = Combine
		}
		t.Bars = append(t.Bars, b)
	}
	sortBars(t.Bars)
	return t, nil
}
