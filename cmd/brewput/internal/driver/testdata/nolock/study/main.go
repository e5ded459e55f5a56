// Command study is package nolock's shared atomic counter as a study, whose
// one variant uses no metered lock or channel.
package main

import (
	"context"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/testdata/nolock"
	"github.com/brewput/brewput/measure/meter"
	"github.com/brewput/brewput/measure/study"
)

func main() {
	c := &nolock.Counter{}
	study.Main(study.Study{Name: "nolock", Summary: "a design without a lock", Unit: "ops",
		Variants: []study.Variant{{Name: "atomics", Summary: "an atomic counter every goroutine adds to",
			Meters: func() []meter.Meter { return nil },
			Op: func(context.Context) error {
				c.Add(1500)
				return nil
			}}}})
}
