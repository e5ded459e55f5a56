// Package shopsweep measures the coffee shop with measure/sweep: a point
// of the shop (Spec) in this process (Measure) or in a child process
// (Runner, ServeChild), and a study of them (Batch).
package shopsweep

import (
	"cmp"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/results"
)

// Spec is one point of the coffee shop to measure.
type Spec struct {
	Mode coffee.Mode `json:"mode"`
	sweep.Load
	Steps coffee.Steps `json:"steps"`
	// Variant changes the mode's structure a little: a causal profile's
	// reliefs, run for real.
	Variant coffee.Variant `json:"variant,omitzero"`
	// Label tells the point apart in progress lines, such as a relief of
	// brewput why ("grinding 10 % faster").
	Label string `json:"-"`
}

// Batch is a study of the shop's points.
type Batch = sweep.Batch[Spec]

// Entry is what a sweep knows of s.
func (s Spec) Entry() sweep.Entry {
	return sweep.Entry{Name: s.Mode.String(), Load: s.Load, Label: s.Label}
}

// WithProfile is s with its trace and profiles at base.
func (s Spec) WithProfile(base string) Spec {
	s.Profile = base
	return s
}

// Duration is about how long measuring s takes, drinks under way included.
func (s Spec) Duration() time.Duration {
	drink := s.Steps.Grind + s.Steps.Press + s.Steps.Steam + s.Steps.Combine + 3*s.Steps.Jitter/2
	return s.Warmup + s.Dur + time.Duration(s.Workers(s.CPUs))*drink/time.Duration(max(s.CPUs, 1))
}

// Validate checks everything about s that can be checked before measuring.
func (s Spec) Validate() error {
	return cmp.Or(s.Mode.Validate(), s.Variant.Check(s.Mode), s.Load.Validate(), s.Steps.Validate())
}

// Plan lists base on each CPU count, mode by mode.
func Plan(modes []coffee.Mode, cpus []int, base Spec) []Spec {
	var specs []Spec
	for _, m := range modes {
		for _, n := range cpus {
			s := base
			s.Mode, s.CPUs = m, n
			specs = append(specs, s)
		}
	}
	return specs
}

// BatchOf is the study a journal's plan holds, to resume on this machine.
func BatchOf(plan *results.Plan, command string) (*Batch, error) {
	return sweep.BatchOf[Spec](plan, command)
}
