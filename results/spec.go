package results

import (
	"fmt"
	"time"
)

// Spec is one configuration: what runs (Mode), on how many CPUs, under which
// Load, and for a prediction which Policy.
type Spec struct {
	Mode string `json:"mode"`
	CPUs int    `json:"cpus"`
	Load
	// Policy is zero for a measurement: real CPUs schedule it.
	Policy `json:"policy,omitzero"`
}

// Load is how a point is driven: a closed loop of Par customers, or an
// open loop of Rate arrivals a second into a queue of at most MaxQ served
// by Par servers; a window of Dur measured after Warmup.
type Load struct {
	// Par 0 means one per CPU.
	Par    int           `json:"par"`
	Rate   float64       `json:"rate,omitempty"`
	MaxQ   int           `json:"maxq,omitempty"`
	Warmup time.Duration `json:"warmup,omitempty"`
	Dur    time.Duration `json:"dur"`
	// Harness is "talk" for the talk's harness (a closed loop), "" for brewput's.
	Harness string `json:"harness,omitempty"`
}

// Open reports whether l is an open loop.
func (l Load) Open() bool { return l.Rate > 0 }

// Workers is the goroutines that run the operation on cpus CPUs.
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
	// Seed seeds the simulation: the same spec and seed give the same point.
	Seed uint64 `json:"seed,omitempty"`
	// Burn is "wall" where a go-policy prediction's steps end on the
	// clock, as the harness's default steps do.
	Burn string `json:"burn,omitempty"`
	// Background is other processes' demand the go policy simulated.
	Background Background `json:"background,omitzero"`
	// Machine, for a go-policy prediction, says which machine it is for and
	// where its costs come from: a calibration, or published machines'.
	Machine string `json:"machine,omitempty"`
}

// Background is other processes' demand: CPUs, in bursts of Burst.
type Background struct {
	CPUs  float64       `json:"cpus"`
	Burst time.Duration `json:"burst"`
}
