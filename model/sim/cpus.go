package sim

import "time"

// CPUs is a pool of n virtual CPUs, a real run's GOMAXPROCS; [CPUs.Burn]
// is burn.Clock.Burn. Under the go policy ([NewGoCPUs]) they are the
// runtime's Ps.
type CPUs struct {
	sim     *Sim
	n       int
	inUse   int
	waiters ring[cpuWaiter]

	busyDone time.Duration // CPU time of finished burns
	sumStart time.Duration // sum of the start times of the burns in progress

	sched *goSched   // the go policy's scheduler; nil under fifo
	bg    Background // other processes' demand, under the go policy only

	log  func(Slice) // see Log
	free []bool      // which fifo CPUs are taken, numbered for log
	open []openSlice // the slice running on each CPU, for LogRunning
}

type cpuWaiter struct {
	p *Proc
	d time.Duration
}

// NewCPUs returns n ≥ 1 virtual CPUs under the fifo policy.
func NewCPUs(s *Sim, n int) *CPUs {
	if n < 1 {
		panic("sim: NewCPUs needs at least one CPU")
	}
	return &CPUs{sim: s, n: n}
}

func (c *CPUs) N() int { return c.n }

// Burn occupies one CPU for d of virtual time, waiting first for a free
// one if all are busy; d <= 0 takes none. Under the go policy it burns on
// the goroutine's P; once its slice is up it is preempted there and then
// (by signal, or at the next call of a loop that makes calls), switching
// in Burn's own frame (see handoff).
func (c *CPUs) Burn(p *Proc, d time.Duration) {
	if d <= 0 {
		return
	}
	s := c.sim
	if c.sched == nil {
		c.take(p, d)
		// p.park(), spelled out: resumes when the burn is over
		if co := s.handoff(p.co, p); co != nil {
			if co.pending {
				co.next()
			} else {
				co.yield(struct{}{})
			}
		}
		p.back()
		c.EndBurn(p, d)
		return
	}
	if p.pp == nil && !s.stopping {
		panic("sim: a goroutine without a P burned")
	}
	end := s.now + d
	for d > 0 {
		if s.now >= p.pp.preemptAt {
			c.sched.preempt(p)
			if c.sched.wallSteps {
				// The step's clock ran on while the goroutine waited.
				if d = end - s.now; d <= 0 {
					break
				}
			}
		}
		slice := min(d, p.pp.preemptAt-s.now)
		pp := p.pp
		span, ran := c.span(pp, slice)
		start := s.now
		c.inUse++
		c.sumStart += start
		if c.log != nil && p.pp != nil {
			c.opened(p.pp.id, p, start+span-ran)
		}
		if pp != nil {
			pp.burning = true
		}
		// p.waitUntil(start + span), spelled out
		if at := start + span; !s.skip(p, at) {
			s.schedule(p, at)
			if co := s.handoff(p.co, p); co != nil {
				if co.pending {
					co.next()
				} else {
					co.yield(struct{}{})
				}
			}
			p.back()
		}
		if pp != nil {
			pp.burning = false
		}
		if c.log != nil && ran > 0 {
			c.slice(p, s.now-ran)
		}
		p.burned += ran
		c.inUse--
		c.busyDone += ran
		c.sumStart -= start
		if c.sched.wallSteps {
			d = end - s.now
		} else {
			d -= slice
		}
	}
}

// span is how long a slice of a burn on P pp takes under the go policy,
// and how much of it the burn runs.
func (c *CPUs) span(pp *gp, slice time.Duration) (span, ran time.Duration) {
	stall := c.stall(slice) // the CPU runs another process meanwhile
	span, ran = slice+stall, slice
	if c.sched.wallSteps && stall > 0 {
		// The step still ends slice from now, or when the others give
		// the CPU back; their bursts begin anywhere in it.
		at := time.Duration(c.sim.Rand().Int64N(int64(slice)))
		span = max(slice, at+stall)
		ran = span - stall
	}
	if speed := c.speed(pp); speed < 1 {
		span = time.Duration(float64(span) / speed)
	}
	return span, ran
}

// StartBurn is Burn of d > 0 for a process that runs as steps
// ([Sim.GoSteps]), under fifo: it takes a CPU, or waits for one, and the
// process's next step, once the burn is over, calls EndBurn first.
func (c *CPUs) StartBurn(p *Proc, d time.Duration) {
	if c.sched != nil || p.step == nil || d <= 0 {
		panic("sim: StartBurn is for a process that runs as steps, under fifo, for some time")
	}
	c.take(p, d)
}

// take starts p's burn of d on a free CPU, or puts it in line for one.
func (c *CPUs) take(p *Proc, d time.Duration) {
	if c.inUse < c.n && c.log == nil {
		// c.start(p, d), spelled out for the common case
		c.inUse++
		c.sumStart += c.sim.now
		// c.sim.push, spelled out for an event after the others (d > 0)
		s := c.sim
		if at := s.now + d; at >= s.last {
			s.seq++
			s.later.push(event{at: at, seq: s.seq, p: p, kind: resumeEvent})
			s.last = at
		} else {
			s.push(event{at: at, p: p, kind: resumeEvent})
		}
	} else if c.inUse < c.n {
		c.start(p, d)
	} else {
		c.waiters.push(cpuWaiter{p: p, d: d})
	}
}

// EndBurn ends p's burn of d, now over, under fifo: Burn's, or
// StartBurn's in the process's next step.
func (c *CPUs) EndBurn(p *Proc, d time.Duration) {
	if c.log != nil {
		c.slice(p, c.sim.now-d)
	}
	p.burned += d
	c.inUse--
	c.busyDone += d
	c.sumStart -= c.sim.now - d
	if c.waiters.len() > 0 {
		w := c.waiters.pop()
		c.start(w.p, w.d)
	}
}

// start gives a CPU to p's burn of d, which ends d from now.
func (c *CPUs) start(p *Proc, d time.Duration) {
	c.inUse++
	c.sumStart += c.sim.now
	if c.log != nil {
		c.takeCPU(p)
		c.opened(p.cpu, p, c.sim.now)
	}
	c.sim.schedule(p, c.sim.now+d)
}

// Busy returns the CPU time used so far, summed over the CPUs, including
// the elapsed part of the burns in progress.
func (c *CPUs) Busy() time.Duration {
	return c.busyDone + time.Duration(c.inUse)*c.sim.now - c.sumStart
}

// SetWorkSteps makes the go policy's burns work to do, slower on a shared
// core (speed), rather than time to take. Call it before the run; fifo
// ignores it.
func (c *CPUs) SetWorkSteps(on bool) {
	if c.sched != nil {
		c.sched.workSteps = on
	}
}

// SetWallSteps makes the go policy's burns end on the clock, as burn.Wall
// steps do. Call it before the run; fifo ignores it.
func (c *CPUs) SetWallSteps(on bool) {
	if c.sched != nil {
		c.sched.wallSteps = on
	}
}

// speed is how fast P pp's core runs a burn starting now, against one
// running alone: slower while the other thread of its core runs, and by
// how many other Ps burn (Costs.AllCore).
func (c *CPUs) speed(pp *gp) float64 {
	g := c.sched
	speed := 1.0
	if pp == nil || !g.workSteps {
		return speed
	}
	if pp.sibling >= 0 && g.ps[pp.sibling].burning {
		speed = siblingSpeed
	}
	threads := c.n
	if g.threads > 0 {
		threads = g.threads
	}
	if all := g.costs.AllCore; all > 0 && all < 1 && threads > 1 {
		others := float64(min(c.inUse, threads-1)) / float64(threads-1)
		if g.costs.AllCoreFirst && c.inUse > 0 {
			others = 1
		}
		speed *= 1 - (1-all)*others
	}
	if busy := c.inUse + 1; busy > threads {
		speed *= float64(threads) / float64(busy) // more Ps than threads: they take turns
	}
	return speed
}
