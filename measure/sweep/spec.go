package sweep

import (
	"fmt"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/internal/profile"
	"github.com/brewput/brewput/results"
)

// Spec is one point of the coffee shop to measure.
type Spec struct {
	Mode coffee.Mode `json:"mode"`
	Load
	Steps coffee.Steps `json:"steps"`
	// Variant changes the mode's structure a little: a causal profile's
	// reliefs, run for real.
	Variant coffee.Variant `json:"variant,omitzero"`
	// Label tells the point apart in progress lines, such as a relief of
	// brewput why ("grinding 10 % faster").
	Label string `json:"-"`
}

// Duration is about how long measuring s takes, drinks under way included.
func (s Spec) Duration() time.Duration {
	drink := s.Steps.Grind + s.Steps.Press + s.Steps.Steam + s.Steps.Combine + 3*s.Steps.Jitter/2
	return s.Warmup + s.Dur + time.Duration(s.Workers(s.CPUs))*drink/time.Duration(max(s.CPUs, 1))
}

// Validate checks everything about s that can be checked before measuring.
func (s Spec) Validate() error {
	if err := s.Mode.Validate(); err != nil {
		return err
	}
	if err := s.Variant.Check(s.Mode); err != nil {
		return err
	}
	if err := s.Load.Validate(); err != nil {
		return err
	}
	return s.Steps.Validate()
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

// Load is how one point is measured, the shop's or a study's: the load on
// CPUs CPUs, and where set the path, without extension, of its trace and
// profiles.
type Load struct {
	CPUs int `json:"cpus"`
	results.Load
	Profile string `json:"profile,omitempty"`
}

// Limits of a measured point, past which a typo would take minutes or the
// machine's memory: workers, each finishing an order after the window
// (10000 drinks of 4 ms on 1 CPU: 40 s more); an open loop's queue;
// arrivals closer than the dispatcher keeps to.
const (
	MaxWorkers  = 10_000
	MaxQueue    = 1_000_000
	MinInterval = time.Microsecond
)

// Validate checks everything about l that can be checked before measuring.
func (l Load) Validate() error {
	if l.CPUs < 1 {
		return fmt.Errorf("cpus is %d; want at least 1", l.CPUs)
	}
	if err := l.Load.Validate(); err != nil {
		return err
	}
	switch {
	case l.Workers(l.CPUs) > MaxWorkers:
		return fmt.Errorf("par is %d; want at most %d", l.Par, MaxWorkers)
	case l.MaxQ > MaxQueue:
		return fmt.Errorf("maxq is %d; want at most %d", l.MaxQ, MaxQueue)
	case l.Rate > 0 && (l.Rate > float64(time.Second/MinInterval) || l.Rate*l.Dur.Seconds() < 1):
		return fmt.Errorf("rate is %v; want an arrival at least every %v (the window) and at most every %v", l.Rate, l.Dur, MinInterval)
	}
	if l.Profile != "" {
		return profile.CheckBase(l.Profile)
	}
	return nil
}
