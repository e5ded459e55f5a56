package meter

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// Stretch is an experiment on a meter, as Coz (Curtsinger and Berger,
// SOSP 2015) experiments on a line of code: make one part of a program
// slower on purpose, for one run, and see what that costs the program's
// throughput. A stretched Mutex holds its lock Extra longer each time
// (the writers of an RWMutex likewise); a stretched Chan takes Frac
// longer to hand each value over. Where stretching one part costs more
// than the same extra work would cost done in parallel, that part is what
// limits the program.
//
// A lock's stretch is a fixed time because a lock does not time its own
// critical section (that would take a clock read inside it, more than a
// short section's tenth): the caller knows the mean section from an
// unstretched run, Reading.Held over Reading.Uses, and asks for a
// fraction of it. A channel times its handoff itself once armed (any
// Stretch from NewStretch, even one of Frac 0), outside the spin.
//
// The extra time is spent spinning on the CPU, counted in loops of a
// calibrated length rather than by reading the clock.
type Stretch struct {
	// Extra is what a stretched lock adds to every critical section.
	Extra time.Duration
	// Frac is how much longer a stretched channel's handoff takes: 0.1
	// is 10 % longer.
	Frac float64
	// loopsPerNs is how many spin loops take a nanosecond on this CPU.
	loopsPerNs float64
}

// NewStretch returns a Stretch that stretches nothing yet, its spin loop
// calibrated on the calling goroutine's CPU: it spins for about a
// millisecond five times and takes the fastest, as the spin under an
// experiment runs on a CPU the program keeps warm. Set Extra or Frac.
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
// 10, a Stretch not made by NewStretch.
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

// extraLoops is the loops a stretched lock spins, 0 where it is not.
func (s Stretch) extraLoops() int64 { return int64(float64(s.Extra) * s.loopsPerNs) }

// fracLoops is the loops Frac of d takes.
func (s Stretch) fracLoops(d int64) int64 { return int64(float64(d) * s.Frac * s.loopsPerNs) }

// spinLoops runs n steps of a linear congruential generator: about a
// nanosecond each, every one depending on the last, so that the compiler
// can neither drop nor shorten them. It is not inlined, so that its
// result, returned, is kept.
//
//go:noinline
func spinLoops(n int64) uint64 {
	x := uint64(n)
	for range n {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

// Stretcher is a meter that can be stretched for an experiment: Mutex,
// RWMutex (its writers) and Chan (its sends).
type Stretcher interface {
	Meter
	// Stretch makes every later use s.Frac longer. It is not
	// synchronized: call it before the meter is shared, as a study's
	// Setup has made it and before its load starts.
	Stretch(s Stretch)
}

// Group is the name of the group a meter belongs to, which an experiment
// stretches as one: meters named "shard#1", "shard#2", … are the group
// "shard", one lock per shard of one design; a channel's two sides are
// the channel. Any other meter is a group of its own, its name.
func Group(name string) string {
	for _, side := range []string{" send", " receive"} {
		if ch, ok := strings.CutSuffix(name, side); ok {
			name = ch
			break
		}
	}
	if base, n, ok := strings.Cut(name, "#"); ok && base != "" && n != "" && strings.Trim(n, "0123456789") == "" {
		return base
	}
	return name
}
