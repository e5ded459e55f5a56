package sim

import (
	"math"
	"time"
)

// Background is the demand that other processes put on the machine, for the
// go policy's CPUs: CPUs' worth of work on average, arriving at random in
// bursts of Burst. A burst that arrives while one of the machine's CPUs is
// free runs there and costs the program nothing; one that arrives while
// every CPU runs the program takes a CPU from one of its threads for its
// length, as the operating system preempts a thread. So a program that
// leaves a CPU free does not feel the others' work, and one that uses them
// all loses about CPUs of them.
type Background struct {
	CPUs  float64
	Burst time.Duration
}

// SetBackground gives the go policy's CPUs c the background b; it must be
// called before the simulation runs. It does nothing under the fifo policy,
// which is the idealized machine, or when b has no CPUs or no burst.
func (c *CPUs) SetBackground(b Background) {
	if c.sched != nil && b.CPUs > 0 && b.Burst > 0 {
		c.bg = b
	}
}

// stall returns how long the background holds up a slice of d that a
// goroutine is about to burn: nothing if a CPU is free besides the one it
// takes, otherwise the bursts that strike it, each of which arrives at any
// instant with the same chance and takes one of the busy CPUs at random.
func (c *CPUs) stall(d time.Duration) time.Duration {
	if c.bg.CPUs <= 0 || c.inUse+1 < c.n {
		return 0
	}
	perCPU := c.bg.CPUs / c.bg.Burst.Seconds() / float64(c.n) // bursts a second that strike one CPU
	return time.Duration(poisson(c.sim, perCPU*d.Seconds())) * c.bg.Burst
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
