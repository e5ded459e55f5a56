package sweep

import (
	"fmt"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/internal/profile"
	"github.com/brewput/brewput/results"
)

// Spec is one point to measure.
type Spec struct {
	// Mode is the mode measured; it travels to the child process as its
	// name.
	Mode coffee.Mode `json:"mode"`
	// Load is the CPUs, the load (Par customers of a closed loop or
	// servers of an open one, MaxQ orders) and the profile's files.
	Load
	Steps coffee.Steps `json:"steps"`
	// Variant changes the mode's structure a little (more machines, more
	// buffer, a split lock): a causal profile's reliefs, run for real.
	Variant coffee.Variant `json:"variant,omitzero"`
	// Label names the point in progress lines where its mode and CPUs do
	// not tell it apart from the others measured, such as a relief of
	// brewput why ("grinding 10 % faster"); it is not sent to the child.
	Label string `json:"-"`
}

// Duration is about how long measuring s takes: its warm-up and window,
// and the drinks under way when the window closes, each of at most one
// drink's CPU time, shared by its CPUs.
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

// Plan lists the points of a sweep, mode by mode, each over every CPU count,
// all with base's load and steps.
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

// Load is how one point is measured: the load, on CPUs CPUs, profiled or
// not. Spec is a Load of the coffee shop; package study measures the
// user's code under the same Load.
type Load struct {
	CPUs int `json:"cpus"`
	results.Load
	// Profile, when set, is the path without extension of the point's
	// trace and profiles (profile.FilesFor).
	Profile string `json:"profile,omitempty"`
}

// Limits of a measured point, past which a typo would take minutes, or the
// machine's memory, rather than measure anything: customers (or servers),
// each with an order under way when the window closes, which finishes
// after it (10000 drinks of 4 ms on 1 CPU: 40 s more); an open loop's
// queue; arrivals closer than a microsecond, which the dispatcher cannot
// keep to.
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
