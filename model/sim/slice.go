package sim

import "time"

// Slice is one stretch of a burn on one CPU: process Proc ran on CPU (under
// the go policy, the P) from Start to End of virtual time. A burn waits for
// a CPU first under the fifo policy, so its slice starts when it got one;
// under the go policy a burn longer than the time slice is cut into one
// slice per time slice.
//
// Under the go policy a Slice is also the runtime's own work on a P, which
// the CPUs count as busy (see CPUs.Busy): Runtime is set, and Proc is the
// goroutine the P works for — the one it wakes or switches to, or the one
// that pays for a handoff.
type Slice struct {
	CPU        int
	Proc       int
	Start, End time.Duration
	Runtime    bool
}

// Log makes the CPUs call fn with every slice of a burn as it ends, and
// with every stretch of the runtime's work as it begins (its end is known
// then), from then on; nil stops it. Between them, the slices cover the
// CPUs' busy time: the time Busy counts. The fifo policy numbers its CPUs
// for the log only: a burn takes the CPU its process last burned on if
// that one is free, as a scheduler keeps a thread where it ran, and the
// lowest-numbered free one otherwise. Without a log, a burn costs one nil
// check more: nothing a run without one notices.
func (c *CPUs) Log(fn func(Slice)) {
	c.log = fn
	if fn != nil && c.open == nil {
		c.open = make([]openSlice, c.n)
	}
	if fn != nil && c.free == nil && c.sched == nil {
		c.free = make([]bool, c.n)
		// Burns already running hold CPUs the log never numbered: count
		// them as the highest, so that new burns take the others.
		for i := c.n - c.inUse; i < c.n; i++ {
			c.free[i] = true
		}
	}
}

// openSlice is the slice of a burn running on one CPU, for a log: since
// when, by which process; on is false while the CPU runs none.
type openSlice struct {
	on    bool
	proc  int
	start time.Duration
}

// LogRunning tells the log the part so far of every slice still running,
// CPU by CPU, as though each ended now: what a log that stops now would
// miss. The slices are told again, whole, when they end.
func (c *CPUs) LogRunning() {
	if c.log == nil {
		return
	}
	now := c.sim.now
	for cpu, o := range c.open {
		if o.on && o.start < now {
			c.log(Slice{CPU: cpu, Proc: o.proc, Start: o.start, End: now})
		}
	}
}

// opened notes, for a log, that p's slice from start runs on cpu.
func (c *CPUs) opened(cpu int, p *Proc, start time.Duration) {
	if cpu >= 0 && cpu < len(c.open) {
		c.open[cpu] = openSlice{on: true, proc: p.id, start: start}
	}
}

// runtimeWork tells the log that the runtime works on cpu for p from now
// for d.
func (c *CPUs) runtimeWork(cpu int, p *Proc, d time.Duration) {
	if c.log != nil && d > 0 {
		c.log(Slice{CPU: cpu, Proc: p.id, Start: c.sim.now, End: c.sim.now + d, Runtime: true})
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
	if cpu >= 0 && cpu < len(c.open) {
		c.open[cpu].on = false
	}
	c.log(Slice{CPU: cpu, Proc: p.id, Start: start, End: c.sim.now})
}
