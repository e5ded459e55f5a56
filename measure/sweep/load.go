package sweep

import (
	"fmt"
	"time"

	"github.com/brewput/brewput/internal/profile"
	"github.com/brewput/brewput/results"
)

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
