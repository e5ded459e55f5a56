package sim

import (
	"math"
	"time"
)

// Background is other processes' demand on the machine, for the go
// policy: CPUs' worth of work on average, arriving at random in bursts of
// Burst, which take a CPU from the program only where none is free.
type Background struct {
	CPUs  float64
	Burst time.Duration
}

// SetBackground gives the go policy's CPUs c the background b, fewer CPUs
// than c has. Call it before the run; fifo ignores it.
func (c *CPUs) SetBackground(b Background) {
	if b.CPUs >= float64(c.n) {
		panic("sim: a background of as many CPUs as the machine has")
	}
	if c.sched != nil && b.CPUs > 0 && b.Burst > 0 {
		c.bg = b
	}
}

// stall returns how long the background holds up a slice of d: nothing
// while another CPU is free, else the bursts striking during it and during
// those bursts, so that the others get their CPUs' worth.
func (c *CPUs) stall(d time.Duration) time.Duration {
	if c.bg.CPUs <= 0 || c.inUse+1 < c.n {
		return 0
	}
	perCPU := c.bg.CPUs / c.bg.Burst.Seconds() / float64(c.n) // bursts a second that strike one CPU
	var stall time.Duration
	// Each round's bursts strike during the last round's; with the others'
	// share of a CPU below one the rounds die out.
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
