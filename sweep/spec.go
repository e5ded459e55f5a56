package sweep

import (
	"fmt"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/profile"
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
	return s.Warmup + s.Dur + time.Duration(s.workers())*drink/time.Duration(max(s.CPUs, 1))
}

// Validate checks everything about s that can be checked before measuring.
func (s Spec) Validate() error {
	if err := s.Mode.Validate(); err != nil {
		return err
	}
	if err := s.Variant.Check(s.Mode); err != nil {
		return err
	}
	switch {
	case s.CPUs < 1:
		return fmt.Errorf("cpus is %d; want at least 1", s.CPUs)
	case s.Par < 0:
		return fmt.Errorf("par is %d; want 0 (one per CPU) or more", s.Par)
	case s.Dur <= 0:
		return fmt.Errorf("dur is %v; want a positive duration", s.Dur)
	case s.Warmup < 0:
		return fmt.Errorf("warmup is %v; want zero or a positive duration", s.Warmup)
	case s.Rate < 0:
		return fmt.Errorf("rate is %v; want a positive rate", s.Rate)
	case s.MaxQ < 0:
		return fmt.Errorf("maxq is %d; want 0 or more", s.MaxQ)
	case s.Harness != "" && s.Harness != "brewput" && s.Harness != "talk":
		return fmt.Errorf("harness is %q; want brewput or talk", s.Harness)
	case s.Harness == "talk" && s.Rate > 0:
		return fmt.Errorf("harness talk is a closed loop only; want no rate")
	case s.workers() > MaxWorkers:
		return fmt.Errorf("par is %d; want at most %d", s.Par, MaxWorkers)
	case s.MaxQ > MaxQueue:
		return fmt.Errorf("maxq is %d; want at most %d", s.MaxQ, MaxQueue)
	case s.Rate > 0 && (s.Rate > float64(time.Second/MinInterval) || s.Rate*s.Dur.Seconds() < 1):
		return fmt.Errorf("rate is %v; want an arrival at least every %v (the window) and at most every %v", s.Rate, s.Dur, MinInterval)
	}
	if s.Profile != "" {
		if err := profile.CheckBase(s.Profile); err != nil {
			return err
		}
	}
	return s.Steps.Validate()
}

// workers is the number of goroutines the harness runs.
func (s Spec) workers() int {
	if s.Par == 0 {
		return s.CPUs
	}
	return s.Par
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
