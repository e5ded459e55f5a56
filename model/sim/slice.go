package sim

import "time"

// Slice is one stretch of a burn on one CPU: process Proc ran on CPU (under
// the go policy, the P) from Start to End of virtual time. A burn waits for
// a CPU first under the fifo policy, so its slice starts when it got one;
// under the go policy a burn longer than the time slice is cut into one
// slice per time slice.
type Slice struct {
	CPU        int
	Proc       int
	Start, End time.Duration
}

// Log makes the CPUs call fn with every slice of a burn as it ends, from
// then on; nil stops it. The fifo policy numbers its CPUs for the log
// only: a burn takes the CPU its process last burned on if that one is
// free, as a scheduler keeps a thread where it ran, and the
// lowest-numbered free one otherwise. Without a log, a
// burn costs one nil check more: nothing a run without one notices.
func (c *CPUs) Log(fn func(Slice)) {
	c.log = fn
	if fn != nil && c.free == nil && c.sched == nil {
		c.free = make([]bool, c.n)
		// Burns already running hold CPUs the log never numbered: count
		// them as the highest, so that new burns take the others.
		for i := c.n - c.inUse; i < c.n; i++ {
			c.free[i] = true
		}
	}
}

// takeCPU numbers the fifo CPU p's burn starts on: its last, or the
// lowest free one.
func (c *CPUs) takeCPU(p *Proc) {
	if p.cpu >= 0 && p.cpu < len(c.free) && !c.free[p.cpu] {
		c.free[p.cpu] = true
		return
	}
	for i, busy := range c.free {
		if !busy {
			c.free[i] = true
			p.cpu = i
			return
		}
	}
	p.cpu = -1 // cannot be: a burn starts only on a free CPU
}

// slice logs the end, now, of a slice of p's burn that began at start, and
// frees its fifo CPU.
func (c *CPUs) slice(p *Proc, start time.Duration) {
	cpu := p.cpu
	if c.sched != nil && p.pp != nil {
		cpu = p.pp.id
	} else if cpu >= 0 && cpu < len(c.free) {
		c.free[cpu] = false
	}
	c.log(Slice{CPU: cpu, Proc: p.id, Start: start, End: c.sim.now})
}
