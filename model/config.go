package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/model/sim"
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

	// Harness is the load's harness in a closed loop: "brewput" (or "")
	// for brewput's own, where each customer orders again the moment its
	// drink is done, or "talk" for the talk's, where a generator hands
	// requests to the customers over a channel and each customer hands the
	// duration of its call to an aggregator over another, so that it blocks
	// between two drinks. An open loop has brewput's harness only.
	Harness string
	// Drain, with the talk's harness, simulates the talk's own protocol
	// rather than a window in the steady state (see Load.Drain): Warmup is
	// ignored, Duration is how long requests are handed out, and the
	// point's throughput is every call over the time to the last one.
	Drain bool

	// Sched is how the virtual CPUs are scheduled: "fifo", the idealized
	// machine that reproduces analytic results exactly, or "go", the Go
	// runtime's scheduler with Costs for its own work; "" means
	// DefaultSched.
	Sched string
	Costs sim.Costs
	// Runtime, under the go policy, is the Go runtime whose code the
	// scheduler follows where versions differ: "" for today's, "go1.9" for
	// the talk's (see sim.RuntimeGo19).
	Runtime string
	// Range, under the go policy, is the uncertainty of Costs: with it,
	// Run also simulates the point at the Range's corners and gives the
	// Band they span. nil means no band.
	Range *Range
	// Background, under the go policy, is other processes' demand on the
	// machine (see sim.Background): work that costs the program only when
	// it keeps every CPU busy. The zero value is a machine to itself.
	Background sim.Background

	// Burn, under the go policy, is how a step counts its time, as the
	// harness's --burn: "cpu" (or "") burns the step's duration of CPU
	// time whenever it runs; "wall" ends it when that long has passed
	// since it began, so that a step a preemption or other processes held
	// up ends on time with less of it burned (sim.CPUs.SetWallSteps). The
	// fifo policy never holds a step up, so the two are the same there.
	Burn string

	// The steps' durations, as coffee.Steps: each holds one CPU. Jitter,
	// when positive, adds to each machine step a uniform random amount in
	// [-Jitter/2, +Jitter/2] (never going below zero); Combine stays fixed.
	Grind, Press, Steam, Combine, Jitter time.Duration

	// Warmup is simulated first and not counted; Duration is the measured
	// window that follows it. A latte counts if it completes inside the
	// window (its end time t has Warmup < t <= Warmup+Duration). Run
	// lengthens a warm-up too short for the point to reach its steady
	// state (see SteadyWarmup); Result.Warmup says what it simulated.
	Warmup, Duration time.Duration

	// Probe marks a run whose throughput is only compared with another's
	// (a causal profile's relief, a band's edge): in a closed loop
	// without jitter or other processes, Run may end its window before
	// Duration, once it has counted enough drinks for the precision a
	// comparison needs (see ProbeWindow). Result.Window says how long it
	// measured.
	Probe bool
	// Edge marks a band's edge (BandConfigs): in such a closed loop, Run
	// ends its window at BandWindow where the median latency of its
	// second half is within EdgeTolerance of its first half's, and runs
	// the whole Duration otherwise, where latencies drift over longer
	// than BandWindow. Result.Window says how long it measured.
	Edge bool

	Seed uint64 // seeds the jitter; the same seed gives the same result
	// Phase, in a closed loop, is the start state: 0 starts every customer
	// (the talk harness's every worker) at once; k > 0 starts each after a
	// time drawn, from a source seeded with k, between zero and one
	// drink's least latency. Where the steady state a run settles into
	// depends on how it started, different phases show it (see band).
	// Under the go policy the phase and the seed also draw when sysmon
	// ticks (sim.CPUs.SetSysmonPhase), in every phase, 0 included.
	Phase uint64

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

	// Cancel, once closed (a context's Done), stops a simulation within a
	// few milliseconds: Run returns context.Canceled. The configurations
	// made from this one (a causal profile's reliefs, a band's corners)
	// share it.
	Cancel <-chan struct{}
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

// harness is the harness's name, "" read as "brewput".
func (c Config) harness() string {
	if c.Harness == "" {
		return "brewput"
	}
	return c.Harness
}

// sched is the scheduling policy's name, "" read as "go".
func (c Config) sched() string {
	if c.Sched == "" {
		return DefaultSched
	}
	return c.Sched
}

// DefaultSched is the policy a Config without one is simulated under, and
// the one every command that simulates (model, advise, schedule, why)
// takes when --sched is left out: the Go runtime's scheduler, as the
// programs the model predicts run.
const DefaultSched = "go"

// newCPUs makes the simulation's virtual CPUs under c's policy; every model
// gets its CPUs here and nowhere else.
func (c Config) newCPUs(s *sim.Sim) *sim.CPUs {
	if c.sched() == "fifo" {
		return sim.NewCPUs(s, c.CPUs)
	}
	cpus := sim.NewGoCPUs(s, c.CPUs, c.Costs)
	cpus.SetRuntime(sim.Runtime(c.Runtime))
	cpus.SetBackground(c.Background)
	cpus.SetSysmonPhase(c.sysmonPhase())
	cpus.SetWallSteps(c.Burn == "wall")
	return cpus
}

// sysmonPhase draws when sysmon first ticks, within its 10 ms sleep, from a
// source of its own seeded with the phase and the seed, so that the
// jitter's and the start states' draws stay what they were.
func (c Config) sysmonPhase() time.Duration {
	src := rand.New(rand.NewPCG(c.Seed, c.Phase^sysmonStream))
	return time.Duration(src.Int64N(int64(10 * time.Millisecond)))
}

// sysmonStream sets sysmon's source apart from the start states' (which
// is seeded with the phase and the seed, in that order).
const sysmonStream = 0x5e5a0a

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
	case c.Burn != "" && c.Burn != "cpu" && c.Burn != "wall":
		return mode, fmt.Errorf("burn %q: want cpu or wall", c.Burn)
	case !(c.Rate >= 0) || math.IsInf(c.Rate, 1): // NaN fails the first test
		return mode, fmt.Errorf("rate %v: want a positive number of arrivals per second, or 0 for a closed loop", c.Rate)
	case c.MaxQ < 0:
		return mode, fmt.Errorf("maxq %d: want 0 or more waiting orders", c.MaxQ)
	case c.Harness != "" && c.Harness != "brewput" && c.Harness != "talk":
		return mode, fmt.Errorf("harness %q: want brewput or talk", c.Harness)
	case c.Drain && c.harness() != "talk":
		return mode, fmt.Errorf("drain: the talk's protocol needs the talk's harness")
	case c.Harness == "talk" && c.Rate > 0:
		return mode, fmt.Errorf("harness talk: a closed loop only (the talk's generator hands out requests as fast as they are taken); drop the rate")
	case c.Runtime != "" && c.Runtime != string(sim.RuntimeGo19):
		return mode, fmt.Errorf("runtime %q: want \"\" (today's) or %s", c.Runtime, sim.RuntimeGo19)
	case c.Runtime != "" && c.sched() != "go":
		return mode, fmt.Errorf("runtime %s: applies to the go policy only", c.Runtime)
	case c.Sched != "" && c.Sched != "fifo" && c.Sched != "go":
		return mode, fmt.Errorf("sched %q: want fifo or go", c.Sched)
	case !(c.Background.CPUs >= 0 && c.Background.CPUs < float64(c.CPUs)):
		return mode, fmt.Errorf("background %v CPUs: want from 0 to less than the %d CPUs", c.Background.CPUs, c.CPUs)
	case c.Background.CPUs > 0 && c.Background.Burst <= 0:
		return mode, fmt.Errorf("background burst %v: want a positive duration such as 1ms", c.Background.Burst)
	case c.Background.CPUs > 0 && c.sched() != "go":
		return mode, fmt.Errorf("background: applies to the go policy only (fifo is the machine to itself)")
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
