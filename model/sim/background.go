package sim

import (
	"math"
	"time"
)

// Background is the demand that other processes put on the machine, for the
// go policy's CPUs: CPUs' worth of work on average (fewer than the
// machine's), arriving at random in bursts of Burst. A burst that arrives
// while one of the machine's CPUs is free runs there and costs the program
// nothing; one that arrives while every CPU runs the program takes a CPU
// from one of its threads for its length, as the operating system preempts
// a thread. So a program that leaves a CPU free does not feel the others'
// work, and one that uses them all loses CPUs of them.
type Background struct {
	CPUs  float64
	Burst time.Duration
}

// SetBackground gives the go policy's CPUs c the background b; it must be
// called before the simulation runs, and b must take fewer CPUs than c has
// (others taking them all would leave the program none: it panics). It
// does nothing under the fifo policy, which is the idealized machine, or
// when b has no CPUs or no burst.
func (c *CPUs) SetBackground(b Background) {
	if b.CPUs >= float64(c.n) {
		panic("sim: a background of as many CPUs as the machine has")
	}
	if c.sched != nil && b.CPUs > 0 && b.Burst > 0 {
		c.bg = b
	}
}

// stall returns how long the background holds up a slice of d that a
// goroutine is about to burn: nothing if a CPU is free besides the one it
// takes, otherwise the bursts that strike it, each of which arrives at any
// instant with the same chance and takes one of the busy CPUs at random —
// during the slice, and during the bursts that already hold it up, so that
// on a machine the program keeps busy the others get their CPUs' worth.
func (c *CPUs) stall(d time.Duration) time.Duration {
	if c.bg.CPUs <= 0 || c.inUse+1 < c.n {
		return 0
	}
	perCPU := c.bg.CPUs / c.bg.Burst.Seconds() / float64(c.n) // bursts a second that strike one CPU
	var stall time.Duration
	// Each round's bursts strike during the time the last round added;
	// with the others' share of a CPU below one the rounds die out.
	for exposed := d; exposed > 0; {
		add := time.Duration(poisson(c.sim, perCPU*exposed.Seconds())) * c.bg.Burst
		stall += add
		exposed = add
	}
	return stall
}

// poisson draws from the Poisson distribution of the given mean (Knuth's
// method: the means here are far below one).
func poisson(s *Sim, mean float64) int {
	limit, k := math.Exp(-mean), 0
	for p := s.Rand().Float64(); p > limit; p *= s.Rand().Float64() {
		k++
	}
	return k
}
