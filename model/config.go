package model

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
)

// Config is one point to simulate: a results.Spec, and more.
type Config struct {
	results.Spec
	// Steps are the shop's steps (Policy.Burn says how they count time);
	// Variant what coffee has no mode for: copies, buffers, a split lock.
	Steps   coffee.Steps
	Variant coffee.Variant
	System  *blueprint.Blueprint // where set, simulated in place of the shop's Mode
	Costs   sim.Costs            // the go policy's
	Range   *Range               // where set, the costs' uncertainty: the point's band
	Machine sim.Machine          // the hardware's shape, for Costs.Transfer
	Quirks  sim.Quirks           // an older Go runtime's, for validation/
	// Drain, with the talk's harness, is the talk's own protocol: no
	// warm-up, requests handed out for Dur, then all served.
	Drain bool
	// Phase, in a closed loop, is the start state: k > 0 delays each
	// customer's start by up to one drink's least latency, drawn from a
	// source seeded with k (a System runs with seed Seed+k instead).
	Phase uint64
	// Draw is the Phase a System's run came from, for what it draws once
	// for a run (a hashed resource's copies).
	Draw uint64
	// Probe marks a relief of the last non-probe before it in Simulate's
	// list: its window may end early (tallied), its throughput carried to
	// that one's window.
	Probe bool
	Trace *Trace // where set, gets the schedule over its Span, the window
	edge  bool   // a band's edge (see edge)
	// coroutines runs every process as a coroutine, for the tests that
	// check that processes run as steps give the same answers.
	coroutines bool
}

// Structure is what a system's bounds come from; Bounds what it allows.
type (
	Structure = blueprint.Structure
	Bounds    = blueprint.Bounds
)

// Policy is a results.Policy with the go policy's costs and their Range.
type Policy struct {
	results.Policy
	Costs   sim.Costs
	Range   *Range
	Machine sim.Machine
}

// Apply returns c under p; c keeps its Burn, which its steps say.
func (p Policy) Apply(c Config) Config {
	burn := c.Policy.Burn
	c.Policy, c.Costs, c.Range, c.Machine = p.Policy, p.Costs, p.Range, p.Machine
	c.Policy.Burn = burn
	return c
}

// DefaultConfig is the talk's finelocking shop on cpus CPUs, go policy.
func DefaultConfig(cpus int) Config {
	return Config{
		Spec: results.Spec{Mode: "finelocking", CPUs: cpus, Load: results.Load{Warmup: 100 * time.Millisecond, Dur: time.Second},
			Policy: results.Policy{Seed: 1}},
		Steps: coffee.DefaultSteps(),
	}
}

// SystemConfig is b on cpus CPUs under the go policy, 1 s after 100 ms,
// seed 1.
func SystemConfig(b *blueprint.Blueprint, cpus int) Config {
	return Config{System: b, Spec: results.Spec{Mode: b.Name, CPUs: cpus,
		Load: results.Load{Warmup: 100 * time.Millisecond, Dur: time.Second}, Policy: results.Policy{Seed: 1}}}
}

// DefaultSched is the policy of a Config without one, --sched's default.
const DefaultSched = "go"

// sched is the scheduling policy's name, "" read as DefaultSched.
func (c Config) sched() string { return cmp.Or(c.Policy.Sched, DefaultSched) }

// harness is the harness's name, "" read as "brewput".
func (c Config) harness() string { return cmp.Or(c.Harness, "brewput") }

// Resolve is c with its load counted out (Par, a System's own).
func (c Config) Resolve() Config {
	if c.System != nil {
		c.Load, _ = c.System.LoadAt(c.Load, c.CPUs)
		return c
	}
	c.Par = c.Workers(c.CPUs)
	return c
}

// newCPUs makes the simulation's virtual CPUs under c's policy.
func (c Config) newCPUs(s *sim.Sim) *sim.CPUs {
	if c.sched() == "fifo" {
		return sim.NewCPUs(s, c.CPUs)
	}
	cpus := sim.NewGoCPUs(s, c.CPUs, c.Costs)
	cpus.SetMachine(c.Machine)
	cpus.SetQuirks(c.Quirks)
	cpus.SetBackground(sim.Background(c.Policy.Background))
	if c.System == nil {
		// Sysmon's first tick, drawn from the seed's and phase's own source.
		src := rand.New(rand.NewPCG(c.Policy.Seed, c.Phase^sysmonStream))
		cpus.SetSysmonPhase(time.Duration(src.Int64N(int64(10 * time.Millisecond))))
	}
	// A file's steps are work, unless it gives them a clock; the shop's
	// are times.
	cpus.SetWallSteps(c.clock() == "wall")
	cpus.SetWorkSteps(c.clock() == "")
	// The talk's protocol measures from the start.
	cpus.SetSteadyStart(c.harness() != "talk")
	return cpus
}

// clock is how c's steps count time (blueprint.Blueprint's Clock).
func (c Config) clock() string {
	if c.System == nil {
		return cmp.Or(c.Policy.Burn, "cpu")
	}
	return cmp.Or(c.Policy.Burn, c.System.Clock)
}

// sysmonStream sets sysmon's source apart from the start states'.
const sysmonStream = 0x5e5a0a

// Validate reports what Simulate would refuse of c, without simulating.
func (c Config) Validate() error {
	st, err := c.structure()
	if err != nil {
		return err
	}
	return c.advances(st)
}

// validate rejects what cannot be simulated, and parses the shop's mode.
func (c Config) validate() (coffee.Mode, error) {
	if err := c.Load.Validate(); err != nil {
		return coffee.Mode{}, err
	}
	switch {
	case c.CPUs < 1:
		return coffee.Mode{}, fmt.Errorf("cpus %d: want at least 1", c.CPUs)
	case math.IsNaN(c.Rate) || math.IsInf(c.Rate, 1):
		return coffee.Mode{}, fmt.Errorf("rate %v: want a positive number of arrivals per second, or 0", c.Rate)
	case c.Policy.Burn != "" && c.Policy.Burn != "cpu" && c.Policy.Burn != "wall":
		return coffee.Mode{}, fmt.Errorf("burn %q: want cpu or wall", c.Policy.Burn)
	case c.Drain && c.harness() != "talk":
		return coffee.Mode{}, fmt.Errorf("drain: the talk's protocol needs the talk's harness")
	case c.Policy.Sched != "" && c.Policy.Sched != "fifo" && c.Policy.Sched != "go":
		return coffee.Mode{}, fmt.Errorf("sched %q: want fifo or go", c.Policy.Sched)
	case c.Quirks != sim.Quirks{} && c.sched() != "go":
		return coffee.Mode{}, fmt.Errorf("an older runtime's quirks apply to the go policy only")
	case !(c.Policy.Background.CPUs >= 0 && c.Policy.Background.CPUs < float64(c.CPUs)):
		return coffee.Mode{}, fmt.Errorf("background %v CPUs: want from 0 to less than the %d CPUs", c.Policy.Background.CPUs, c.CPUs)
	case c.Policy.Background.CPUs > 0 && c.Policy.Background.Burst <= 0:
		return coffee.Mode{}, fmt.Errorf("background burst %v: want a positive duration such as 1ms", c.Policy.Background.Burst)
	case c.Policy.Background.CPUs > 0 && c.sched() != "go":
		return coffee.Mode{}, fmt.Errorf("background: applies to the go policy only (fifo is the machine to itself)")
	case c.Trace != nil && c.Trace.Span <= 0:
		return coffee.Mode{}, fmt.Errorf("span %v: want a positive duration such as 20ms", c.Trace.Span)
	case c.Trace != nil && c.Drain:
		return coffee.Mode{}, fmt.Errorf("drain: the talk's protocol has no steady state to draw; leave it out")
	}
	// By reflection, for the go policy may gain costs.
	costs := reflect.ValueOf(c.Costs)
	for i := range costs.NumField() {
		if d, ok := costs.Field(i).Interface().(time.Duration); ok && d < 0 {
			return coffee.Mode{}, fmt.Errorf("costs: %s %v: want zero or a positive duration", costs.Type().Field(i).Name, d)
		}
	}
	if c.System != nil {
		if c.Harness == "talk" || c.Trace != nil {
			return coffee.Mode{}, fmt.Errorf("%s: a system of its own runs under brewput's harness, and its schedule is not drawn", c.Mode)
		}
		return coffee.Mode{}, nil
	}
	mode, err := coffee.ParseMode(c.Mode)
	if err != nil {
		return mode, err
	}
	if err := c.Variant.Check(mode); err != nil {
		return mode, err
	}
	return mode, c.Steps.Validate()
}

// ConfigOf is the configuration that simulates what point p of the shop
// ran, but for its policy, the caller's to set; false for other points.
func ConfigOf(p results.Point) (cfg Config, ok bool) {
	if p.Kind != results.KindShop || p.Shop == nil {
		return Config{}, false
	}
	if _, err := coffee.ParseMode(p.Mode); err != nil {
		return Config{}, false
	}
	st := p.Shop.Steps
	cfg = Config{
		Spec:  results.Spec{Mode: p.Mode, CPUs: p.CPUs, Load: p.Load},
		Steps: coffee.Steps{Grind: st.Grind, Press: st.Press, Steam: st.Steam, Combine: st.Combine, Jitter: st.Jitter},
	}
	cfg.Policy.Burn = st.Clock
	if p.IsModel() {
		cfg.Policy.Burn = p.Burn
	}
	if cfg.Dur <= 0 {
		cfg.Dur = time.Second
	}
	return cfg, true
}
