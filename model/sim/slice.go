package sim

import "time"

// Slice is one stretch of a burn: process Proc ran on CPU (under the go
// policy, the P) from Start to End of virtual time; with Runtime set, the
// runtime's own work for Proc, which Busy counts too.
type Slice struct {
	CPU        int
	Proc       int
	Start, End time.Duration
	Runtime    bool
}

// Log calls fn with every slice as it ends (runtime work as it begins),
// covering the time Busy counts; nil stops it. fifo numbers its CPUs for
// the log: a process's last if free, else the lowest.
func (c *CPUs) Log(fn func(Slice)) {
	c.log = fn
	if fn != nil && c.open == nil {
		c.open = make([]openSlice, c.n)
	}
	if fn != nil && c.free == nil && c.sched == nil {
		c.free = make([]bool, c.n)
		// Burns already running hold the highest-numbered CPUs.
		for i := c.n - c.inUse; i < c.n; i++ {
			c.free[i] = true
		}
	}
}

// openSlice is the slice of a burn running on one CPU, if on.
type openSlice struct {
	on    bool
	proc  int
	start time.Duration
}

// LogRunning tells the log the part so far of every slice still running,
// as though it ended now; each is told again, whole, when it ends.
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

// runtimeWork logs the runtime working on cpu for p from now for d.
func (c *CPUs) runtimeWork(cpu int, p *Proc, d time.Duration) {
	if c.log != nil {
		c.logRuntime(cpu, p, d)
	}
}

// logRuntime is runtimeWork's logging, out of line so that the check
// inlines.
func (c *CPUs) logRuntime(cpu int, p *Proc, d time.Duration) {
	if d > 0 {
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

// slice logs the end, now, of p's slice from start, freeing its fifo CPU.
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
