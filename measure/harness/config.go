package harness

import (
	"errors"
	"fmt"
	"time"
)

// Op is the operation under measurement, e.g. ordering a latte and waiting
// for it. A returned error is counted, not fatal.
type Op func() error

// Config describes the load a Run applies.
type Config struct {
	// Workers is the number of goroutines running Op at once: the customers
	// of a closed loop, or the servers taking arrivals off an open loop's
	// queue. It must be at least 1.
	Workers int

	// Rate, when positive, makes the load open-loop: Rate arrivals per second,
	// evenly spaced. Zero means closed loop.
	Rate float64

	// MaxQueue is the most arrivals an open loop lets wait for a worker;
	// an arrival beyond it is dropped. Zero means an arrival is served only
	// if a worker is idle at that moment. Ignored in a closed loop.
	MaxQueue int

	// Warmup is run but not counted.
	Warmup time.Duration

	// Duration is the length of the measured window after the warm-up.
	Duration time.Duration

	// OnWindow, if set, is called at the start and at the end of the measured
	// window, from the harness's own goroutine, so that a caller can take a
	// snapshot of its own counters (say, how long each machine was busy) over
	// exactly the window the harness measured.
	OnWindow func(Edge)
}

// Edge marks one end of the measured window.
type Edge int

const (
	// WindowStart is the moment the warm-up ends and counting begins.
	WindowStart Edge = iota
	// WindowEnd is the moment counting stops.
	WindowEnd
)

// Validate reports the first thing wrong with c, naming the field and what
// it accepts.
func (c Config) Validate() error {
	switch {
	case c.Workers < 1:
		return fmt.Errorf("harness: Workers is %d; want at least 1", c.Workers)
	case c.Duration <= 0:
		return fmt.Errorf("harness: Duration is %v; want a positive duration", c.Duration)
	case c.Warmup < 0:
		return fmt.Errorf("harness: Warmup is %v; want zero or a positive duration", c.Warmup)
	case c.Rate < 0:
		return fmt.Errorf("harness: Rate is %v; want a positive rate, or 0 for a closed loop", c.Rate)
	case c.MaxQueue < 0:
		return fmt.Errorf("harness: MaxQueue is %d; want 0 or more", c.MaxQueue)
	}
	return nil
}

// ErrNoOp is returned by Run when it is given a nil operation.
var ErrNoOp = errors.New("harness: nil Op")
