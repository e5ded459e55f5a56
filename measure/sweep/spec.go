package sweep

import (
	"fmt"
	"time"

	"github.com/brewput/brewput/results"
)

// Spec is one point of a system to measure, as the system's own type S:
// plain data, which a study's journal keeps and a child process reads as
// JSON. A sweep knows of it only its Entry; S is the type itself, so that
// a study can give each point the path of its profiles (WithProfile).
type Spec[S any] interface {
	Entry() Entry
	// Duration is about how long measuring the point takes.
	Duration() time.Duration
	// Validate checks everything that can be checked before measuring.
	Validate() error
	// WithProfile is the point with its trace and profiles at base
	// (Load.Profile), or none where base is "".
	WithProfile(base string) S
}

// Entry is what a sweep knows of any point it measures: the configuration
// measured (its points' Mode), the load, and a label for progress lines
// ("grinding 10 % faster").
type Entry struct {
	Name  string
	Load  Load
	Label string
}

// Load is how one point is measured, the shop's or a study's: the load on
// CPUs CPUs, and where set the path, without extension, of its trace and
// profiles.
type Load struct {
	CPUs int `json:"cpus"`
	results.Load
	Profile string `json:"profile,omitempty"`
}

// Limits of a measured point, past which a typo would take minutes or the
// machine's memory: workers, each finishing an order after the window
// (10000 drinks of 4 ms on 1 CPU: 40 s more); an open loop's queue;
// arrivals closer than the dispatcher keeps to.
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
		return checkProfile(l.Profile)
	}
	return nil
}
