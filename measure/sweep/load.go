package sweep

import (
	"fmt"
	"time"

	"github.com/brewput/brewput/internal/profile"
)

// Load is how a point is measured: on how many CPUs, under what load, for
// how long, profiled or not. Spec is a Load of the coffee shop; package
// study measures the user's code under the same Load.
type Load struct {
	CPUs int `json:"cpus"`
	// Par is the number of workers: customers of a closed loop, servers
	// of an open one; 0 means one per CPU.
	Par int `json:"par"`
	// Rate, when positive, makes the load open-loop, with at most MaxQ
	// arrivals waiting.
	Rate   float64       `json:"rate"`
	MaxQ   int           `json:"maxq"`
	Warmup time.Duration `json:"warmup"`
	Dur    time.Duration `json:"dur"`
	// Harness is "talk" to measure through the talk's harness
	// (harness.RunTalk), a closed loop only; "" or "brewput" for brewput's
	// own (harness.Run).
	Harness string `json:"harness,omitempty"`
	// Profile, when set, is the path without extension of the point's
	// trace and profiles; see Spec.Profile.
	Profile string `json:"profile,omitempty"`
}

// Validate checks everything about l that can be checked before measuring.
func (l Load) Validate() error {
	switch {
	case l.CPUs < 1:
		return fmt.Errorf("cpus is %d; want at least 1", l.CPUs)
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
	case l.Workers() > MaxWorkers:
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

// Workers is the number of goroutines the harness runs: Par, or one per
// CPU.
func (l Load) Workers() int {
	if l.Par == 0 {
		return l.CPUs
	}
	return l.Par
}
