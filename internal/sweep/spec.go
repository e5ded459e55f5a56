package sweep

import (
	"time"

	"github.com/brewput/brewput/coffee"
)

// Spec is one point to measure.
type Spec struct {
	// Mode is the mode measured; it travels to the child process as its
	// name.
	Mode coffee.Mode `json:"mode"`
	CPUs int         `json:"cpus"`
	// Par is the number of customers (closed loop) or servers (open loop);
	// 0 means one per CPU.
	Par int `json:"par"`
	// Rate, when positive, makes the load open-loop, with at most MaxQ
	// orders waiting.
	Rate   float64       `json:"rate"`
	MaxQ   int           `json:"maxq"`
	Warmup time.Duration `json:"warmup"`
	Dur    time.Duration `json:"dur"`
	Steps  coffee.Steps  `json:"steps"`
	// Variant changes the mode's structure a little (more machines, more
	// buffer, a split lock): a causal profile's reliefs, run for real.
	Variant coffee.Variant `json:"variant,omitzero"`
	// Label names the point in progress lines where its mode and CPUs do
	// not tell it apart from the others measured, such as a relief of
	// brewput why ("grinding 10 % faster"); it is not sent to the child.
	Label string `json:"-"`
	// Harness is "talk" to measure through the talk's harness
	// (harness.RunTalk), a closed loop only; "" or "brewput" for brewput's
	// own (harness.Run).
	Harness string `json:"harness,omitempty"`
	// Profile, when set, is the path without extension of the files the
	// point's execution trace and CPU, block and mutex profiles are
	// written to (see package profile), e.g. "prof/finelocking-2cpu"; its
	// folder must exist.
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

// Duration is about how long measuring s takes: its warm-up and window,
// and the drinks under way when the window closes, each of at most one
// drink's CPU time, shared by its CPUs.
func (s Spec) Duration() time.Duration {
	drink := s.Steps.Grind + s.Steps.Press + s.Steps.Steam + s.Steps.Combine + 3*s.Steps.Jitter/2
	return s.Warmup + s.Dur + time.Duration(s.Load().Workers())*drink/time.Duration(max(s.CPUs, 1))
}

// Validate checks everything about s that can be checked before measuring.
func (s Spec) Validate() error {
	if err := s.Mode.Validate(); err != nil {
		return err
	}
	if err := s.Variant.Check(s.Mode); err != nil {
		return err
	}
	if err := s.Load().Validate(); err != nil {
		return err
	}
	return s.Steps.Validate()
}

// Load is the load s measures its mode under.
func (s Spec) Load() Load {
	return Load{CPUs: s.CPUs, Par: s.Par, Rate: s.Rate, MaxQ: s.MaxQ, Warmup: s.Warmup, Dur: s.Dur, Harness: s.Harness, Profile: s.Profile}
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
