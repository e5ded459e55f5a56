package meter

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Stretch is an experiment on a meter, as Coz's on a line of code: make
// one part slower for a run and see what it costs the throughput. A
// stretched Mutex or RWMutex holds its lock Extra longer each time; a
// stretched Chan spins Extra before each send, or with Extra 0 takes Frac
// longer per handoff. A lock's stretch is a fixed time spun in calibrated
// loops, lest a clock read inside its section lengthen it.
type Stretch struct {
	Extra      time.Duration // what a stretched lock adds to each critical section, a stretched Chan to each send
	Frac       float64       // how much longer a channel's handoff takes where Extra is 0: 0.1 is 10 %
	loopsPerNs float64       // spin loops per nanosecond on this CPU
}

// NewStretch returns a Stretch of nothing yet, calibrated on the calling
// goroutine's CPU by the fastest of five spins of about a millisecond (an
// experiment spins on a CPU the program keeps warm).
func NewStretch() (Stretch, error) {
	const loops = 1 << 20
	best := time.Duration(math.MaxInt64)
	for range 5 {
		start := time.Now()
		spinLoops(loops)
		best = min(best, time.Since(start))
	}
	if best <= 0 {
		return Stretch{}, errors.New("stretch: the clock did not move while spinning")
	}
	return Stretch{loopsPerNs: loops / float64(best.Nanoseconds())}, nil
}

// Check says what is wrong with s: a negative Extra, a Frac outside 0 to
// 10, or no calibration (NewStretch).
func (s Stretch) Check() error {
	switch {
	case s.loopsPerNs <= 0:
		return errors.New("stretch: not calibrated; make one with NewStretch")
	case s.Extra < 0:
		return fmt.Errorf("stretch: extra %v: want zero or a positive duration", s.Extra)
	case !(s.Frac >= 0 && s.Frac <= 10):
		return fmt.Errorf("stretch: fraction %v: want 0 to 10, such as 0.1 for 10 %% longer", s.Frac)
	}
	return nil
}

// Spin spins on the CPU for about d, without reading the clock.
func (s Stretch) Spin(d time.Duration) {
	if n := int64(float64(d) * s.loopsPerNs); n > 0 {
		spinLoops(n)
	}
}

func (s Stretch) extraLoops() int64 { return int64(float64(s.Extra) * s.loopsPerNs) }

func (s Stretch) fracLoops(d int64) int64 { return int64(float64(d) * s.Frac * s.loopsPerNs) }

// spinLoops runs n dependent steps of a linear congruential generator,
// about a nanosecond each; out of line, so that its result is kept.
//
//go:noinline
func spinLoops(n int64) uint64 {
	x := uint64(n)
	for range n {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

// Stretcher is a meter that can be stretched: Mutex, RWMutex, Chan.
type Stretcher interface {
	Meter
	// Stretch stretches every later use; unsynchronized, so call it before
	// the meter is shared.
	Stretch(s Stretch)
}
