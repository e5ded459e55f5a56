package model

import (
	"fmt"
	"math"
	"reflect"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/sim"
)

// Config is one point to simulate: the mode, the shop's steps, the virtual
// CPUs and how they are scheduled, the load, and the simulated time. Its
// fields mirror what a real point is measured with (sweep.Spec and the
// harness's Config), so that a model point and a measured one describe the
// same experiment.
type Config struct {
	// Mode is the coffee shop's mode to simulate, such as finelocking,
	// multi-2 or linearpipe-10.
	Mode coffee.Mode

	CPUs int // virtual CPUs, at least 1

	// Customers is the number of closed-loop customers or, in an open loop,
	// of servers taking arrivals off the queue; 0 means one per CPU, as the
	// command line's --par 0.
	Customers int

	// Rate, when positive, makes the load open-loop: Rate arrivals per
	// virtual second, evenly spaced, into a queue of at most MaxQ waiting
	// orders; an arrival that finds it full is dropped. 0 means closed
	// loop, where MaxQ is ignored.
	Rate float64
	MaxQ int

	// Sched is how the virtual CPUs are scheduled: "fifo", the idealized
	// machine that reproduces analytic results exactly, or "go", the Go
	// runtime's scheduler with Costs for its own work; "" means "go".
	Sched string
	Costs sim.Costs

	// The steps' durations, as coffee.Steps: each holds one CPU. Jitter,
	// when positive, adds to each machine step a uniform random amount in
	// [-Jitter/2, +Jitter/2] (never going below zero); Combine stays fixed.
	Grind, Press, Steam, Combine, Jitter time.Duration

	// Warmup is simulated first and not counted; Duration is the measured
	// window that follows it. A latte counts if it completes inside the
	// window (its end time t has Warmup < t <= Warmup+Duration).
	Warmup, Duration time.Duration

	Seed uint64 // seeds the jitter; the same seed gives the same result

	// Copies overrides how many machines of each kind the shop has; 0
	// keeps the mode's. It asks what coffee has no mode for, such as a
	// second grinder and nothing else: in multi-N it replaces N for that
	// kind, in finelocking (parsteam, americano, espresso) a kind with
	// more than one copy becomes a pool, in a pipeline it is each stage's
	// workers on every line (coffee.Variant says the same of real code).
	Copies Copies
	// Buffers, in a pipeline, is the room in the channel into each stage
	// in place of the mode's N; 0 keeps the mode's.
	Buffers Copies
	// Split, in locking, lets the customer combine outside the kitchen
	// lock.
	Split bool
}

// Copies is a number for each kind of machine: coffee's Machines.
type Copies = coffee.Machines

// Variant is the coffee.Variant c asks for: its copies, buffers and split.
func (c Config) Variant() coffee.Variant {
	return coffee.Variant{Copies: c.Copies, Buffers: c.Buffers, Split: c.Split}
}

// DefaultConfig is the talk's shop in finelocking mode, every step 1 ms, on
// cpus CPUs under the go policy with one closed-loop customer per CPU,
// measured for 1 s after a 100 ms warm-up.
func DefaultConfig(cpus int) Config {
	ms := time.Millisecond
	return Config{
		Mode: coffee.Mode{Family: "finelocking"}, CPUs: cpus,
		Grind: ms, Press: ms, Steam: ms, Combine: ms,
		Warmup: 100 * ms, Duration: time.Second, Seed: 1,
	}
}

// customers is the number of harness workers, as sweep.Spec's workers: one
// per CPU unless set.
func (c Config) customers() int {
	if c.Customers > 0 {
		return c.Customers
	}
	return c.CPUs
}

// sched is the scheduling policy's name, "" read as "go".
func (c Config) sched() string {
	if c.Sched == "" {
		return "go"
	}
	return c.Sched
}

// newCPUs makes the simulation's virtual CPUs under c's policy; every model
// gets its CPUs here and nowhere else.
func (c Config) newCPUs(s *sim.Sim) *sim.CPUs {
	if c.sched() == "fifo" {
		return sim.NewCPUs(s, c.CPUs)
	}
	return sim.NewGoCPUs(s, c.CPUs, c.Costs)
}

// validate rejects a configuration that cannot be simulated and returns its
// mode. (A closed loop whose drink takes no time is rejected later, by Run,
// once the mode's structure says which steps the drink uses.)
func (c Config) validate() (coffee.Mode, error) {
	mode := c.Mode
	if err := mode.Validate(); err != nil {
		return coffee.Mode{}, err
	}
	switch {
	case c.CPUs < 1:
		return mode, fmt.Errorf("cpus %d: want at least 1", c.CPUs)
	case c.Customers < 0:
		return mode, fmt.Errorf("customers %d: want 0 (one per CPU) or more", c.Customers)
	case c.Duration <= 0:
		return mode, fmt.Errorf("duration %v: want a positive duration", c.Duration)
	case c.Warmup < 0:
		return mode, fmt.Errorf("warmup %v: want zero or a positive duration", c.Warmup)
	case !(c.Rate >= 0) || math.IsInf(c.Rate, 1): // NaN fails the first test
		return mode, fmt.Errorf("rate %v: want a positive number of arrivals per second, or 0 for a closed loop", c.Rate)
	case c.MaxQ < 0:
		return mode, fmt.Errorf("maxq %d: want 0 or more waiting orders", c.MaxQ)
	case c.Sched != "" && c.Sched != "fifo" && c.Sched != "go":
		return mode, fmt.Errorf("sched %q: want fifo or go", c.Sched)
	}
	if err := c.Variant().Check(mode); err != nil {
		return mode, err
	}
	for _, f := range []struct {
		name string
		d    time.Duration
	}{{"grind", c.Grind}, {"press", c.Press}, {"steam", c.Steam}, {"latte", c.Combine}, {"jitter", c.Jitter}} {
		if f.d < 0 {
			return mode, fmt.Errorf("%s %v: want zero or a positive duration such as 1ms", f.name, f.d)
		}
	}
	// Every cost is a duration; checking them by reflection keeps this
	// check right as the go policy gains costs.
	costs := reflect.ValueOf(c.Costs)
	for i := range costs.NumField() {
		if d, ok := costs.Field(i).Interface().(time.Duration); ok && d < 0 {
			return mode, fmt.Errorf("costs: %s %v: want zero or a positive duration", costs.Type().Field(i).Name, d)
		}
	}
	return mode, nil
}
