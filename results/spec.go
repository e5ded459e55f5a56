package results

import (
	"fmt"
	"time"
)

// Spec is one configuration: what runs (Mode: a shop's mode, a YAML
// system's name, a lab's "lab/variant", a study's variant or a benchmark),
// on how many CPUs, driven by which Load, and, for a prediction of the
// model, under which Policy. The harness, the sweep, the model, a YAML
// system, the command line's flags and the results files all use its
// names. Load and Policy are embedded: p.Par and p.Sched read a point's.
type Spec struct {
	Mode string `json:"mode"`
	CPUs int    `json:"cpus"`
	Load
	// Policy is zero for a measurement: real CPUs schedule it.
	Policy `json:"policy,omitzero"`
}

// Load is how a point is driven: a closed loop of Par customers, each
// ordering again as soon as served, or an open loop of Rate arrivals a
// second into a queue of at most MaxQ, served by Par servers; a window of
// Dur measured after Warmup.
type Load struct {
	// Par is the customers of a closed loop or the servers of an open
	// one; 0 means one per CPU.
	Par int `json:"par"`
	// Rate, when positive, makes the load an open loop: Rate arrivals a
	// second. 0 means a closed loop, where MaxQ is ignored.
	Rate float64 `json:"rate,omitempty"`
	MaxQ int     `json:"maxq,omitempty"`
	// Warmup runs first and is not counted; Dur is the measured window.
	Warmup time.Duration `json:"warmup,omitempty"`
	Dur    time.Duration `json:"dur"`
	// Harness is "talk" for the talk's harness (a closed loop only), ""
	// for brewput's own.
	Harness string `json:"harness,omitempty"`
}

// Open reports whether l is an open loop.
func (l Load) Open() bool { return l.Rate > 0 }

// Workers is the number of goroutines that run the operation on cpus
// CPUs: Par, or one per CPU.
func (l Load) Workers(cpus int) int {
	if l.Par == 0 {
		return cpus
	}
	return l.Par
}

// Validate checks what can be checked of l alone, naming each field as
// the command line's flag does.
func (l Load) Validate() error {
	switch {
	case l.Par < 0:
		return fmt.Errorf("par is %d; want 0 (one per CPU) or more", l.Par)
	case l.Dur <= 0:
		return fmt.Errorf("dur is %v; want a positive duration", l.Dur)
	case l.Warmup < 0:
		return fmt.Errorf("warmup is %v; want zero or a positive duration", l.Warmup)
	case l.Rate < 0:
		return fmt.Errorf("rate is %v; want a positive rate", l.Rate)
	case l.MaxQ < 0:
		return fmt.Errorf("maxq is %d; want 0 or more", l.MaxQ)
	case l.Harness != "" && l.Harness != "brewput" && l.Harness != "talk":
		return fmt.Errorf("harness is %q; want brewput or talk", l.Harness)
	case l.Harness == "talk" && l.Rate > 0:
		return fmt.Errorf("harness talk is a closed loop only; want no rate")
	}
	return nil
}

// Policy is how the model scheduled a prediction's virtual CPUs.
type Policy struct {
	// Sched is "fifo", the idealized machine, or "go", the Go runtime's
	// scheduler with its measured costs.
	Sched string `json:"sched,omitempty"`
	// Seed seeds the simulation's random draws: the same spec and seed
	// give the same point.
	Seed uint64 `json:"seed,omitempty"`
	// Runtime is the Go runtime the go policy follows where versions
	// differ: "go1.9", or "" for today's.
	Runtime string `json:"runtime,omitempty"`
	// Burn is "wall" where a go-policy prediction's steps end on the
	// clock, as the harness's default steps do, "" where they burn CPU
	// time.
	Burn string `json:"burn,omitempty"`
	// Background is the other processes' demand the go policy simulated;
	// zero for a machine to itself.
	Background Background `json:"background,omitzero"`
}

// Background is other processes' demand on a machine: CPUs' worth of
// work, in bursts of Burst.
type Background struct {
	CPUs  float64       `json:"cpus"`
	Burst time.Duration `json:"burst"`
}
