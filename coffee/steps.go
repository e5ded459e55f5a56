package coffee

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime/trace"
	"time"

	"github.com/brewput/brewput/measure/burn"
)

// Steps sets how long each step of a drink occupies a CPU, and how.
type Steps struct {
	Grind, Press, Steam, Combine time.Duration

	// Jitter adds to each machine step (not Combine, the customer's) a
	// uniform random amount in [-Jitter/2, +Jitter/2], floored at zero.
	Jitter time.Duration

	// Clock is how a step accounts for its time; see package burn.
	Clock burn.Clock
}

// DefaultSteps is the talk's shop: every step 1 ms, no jitter.
func DefaultSteps() Steps {
	return Steps{Grind: time.Millisecond, Press: time.Millisecond, Steam: time.Millisecond, Combine: time.Millisecond}
}

// Validate reports a negative duration, named as its flag is.
func (s Steps) Validate() error {
	for _, f := range []struct {
		name string
		d    time.Duration
	}{{"grind", s.Grind}, {"press", s.Press}, {"steam", s.Steam}, {"combine", s.Combine}, {"jitter", s.Jitter}} {
		if f.d < 0 {
			return fmt.Errorf("%s %v: want zero or a positive duration such as 1ms", f.name, f.d)
		}
	}
	return nil
}

// machine returns one machine step's duration, jittered.
func (s Steps) machine(d time.Duration) time.Duration {
	if s.Jitter <= 0 {
		return d
	}
	d += time.Duration(rand.Int64N(int64(s.Jitter)+1)) - s.Jitter/2
	return max(d, 0)
}

// CombineRegion names the combine step's region in an execution trace; a
// machine's step is a region named after the machine (Meter.Name).
const CombineRegion = "combine"

// combine is the customer's last step, with no machine.
func (s Steps) combine() {
	if s.Combine <= 0 {
		return
	}
	r := trace.StartRegion(context.Background(), CombineRegion)
	s.Clock.Burn(s.Combine)
	r.End()
}

func (s Steps) grind() time.Duration { return s.machine(s.Grind) }
func (s Steps) press() time.Duration { return s.machine(s.Press) }
func (s Steps) steam() time.Duration { return s.machine(s.Steam) }
