package study_test

import (
	"context"
	"sync"

	"github.com/brewput/brewput/measure/meter"
	"github.com/brewput/brewput/measure/study"
)

// A study of two ways to count: a counter behind one mutex, metered, and
// a sync.Map. In a program's main, study.Main(s) gives it brewput's
// command line: measure on 1, 2, … CPUs, report, compare, fit.
func Example() {
	mu := meter.NewMutex("counter")
	var shared int
	var perGoroutine sync.Map
	s := study.Study{
		Name: "counter",
		Unit: "increments",
		Variants: []study.Variant{
			{Name: "one-mutex", Summary: "every increment takes one mutex",
				Op: func(context.Context) error {
					mu.Lock()
					shared++
					mu.Unlock()
					return nil
				},
				Meters: func() []meter.Meter { return []meter.Meter{mu} }},
			{Name: "sync-map", Summary: "sync.Map of counters",
				Op: func(context.Context) error {
					perGoroutine.Store(1, 1)
					return nil
				}},
		},
	}
	_ = s // study.Main(s)
}
