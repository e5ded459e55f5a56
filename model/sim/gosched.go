package sim

import "time"

// Costs are what the go policy charges for the Go runtime's own work when
// one goroutine readies another. brewput calibrate measures them on the
// machine with microbenchmarks; they are never fitted to a model's results.
type Costs struct {
	// Switch is the time a P takes to park one goroutine and start the next
	// one already in its queues.
	Switch time.Duration `json:"switch_ns"`
	// Wake is the time from a goroutine being readied while some P is idle
	// to that idle P running it: waking a sleeping thread, which then
	// steals the goroutine from the P that readied it.
	Wake time.Duration `json:"wake_ns"`
	// SpinWake is the same for a P that went idle less than SpinWindow ago:
	// its thread is still spinning, looking for work, and takes it at once.
	SpinWake   time.Duration `json:"spin_wake_ns"`
	SpinWindow time.Duration `json:"spin_window_ns"`
	// MutexHandoff is what an Unlock that wakes a waiting goroutine costs
	// its caller; ChanHandoff and BufChanHandoff what a send or receive that
	// readies a waiting goroutine costs its caller, on an unbuffered and on
	// a buffered channel.
	MutexHandoff   time.Duration `json:"mutex_handoff_ns"`
	ChanHandoff    time.Duration `json:"chan_handoff_ns"`
	BufChanHandoff time.Duration `json:"buf_chan_handoff_ns"`
	// RunnextGrace is how long a P that steals another P's runnext
	// goroutine waits first, giving that P the chance to run it itself:
	// the runtime asks for 3 µs (runqgrab's usleep(3)), and the operating
	// system stretches the sleep by its timer slack (50 µs by default on
	// Linux). The thief steals only if the goroutine is still there when
	// the wait is over. Zero means the 3 µs asked for, as calibrations
	// from before it was measured had it.
	RunnextGrace time.Duration `json:"runnext_grace_ns,omitempty"`
	// MutexSpin is one spin of a Lock that finds its sync.Mutex held
	// (procyield(30): thirty PAUSE instructions on amd64). Lock spins up
	// to four times, while other Ps run goroutines, before it sleeps,
	// and takes the mutex at once where a spin ends with it free: a lock
	// held for less than a spin is then handed over without a sleep or a
	// wake-up. Zero means it never spins, as calibrations from before it
	// was measured had it.
	MutexSpin time.Duration `json:"mutex_spin_ns,omitempty"`
}

// grace is how long the runnext wait lasts: RunnextGrace, or the 3 µs
// asked for where it is zero.
func (c Costs) grace() time.Duration {
	if c.RunnextGrace == 0 {
		return runnextAsked
	}
	return c.RunnextGrace
}

// The Go runtime's own constants (runtime/proc.go), not measured: they are
// its code.
const (
	// timeSlice is how long a goroutine may run before sysmon preempts it
	// (forcePreemptNS). Sysmon notices only at its own ticks, which in a
	// busy program come every sysmonSleep (see goSched.preemptAt).
	timeSlice = 10 * time.Millisecond
	// sysmonSleep is how long sysmon sleeps between ticks once it has had
	// nothing to retake from system calls for a while: its delay doubles
	// from 20 µs up to this (sysmon's usleep(delay)).
	sysmonSleep = 10 * time.Millisecond
	// runnextAsked is the wait runqgrab asks for before stealing the
	// runnext goroutine of a running P (usleep(3)); Costs.RunnextGrace is
	// how long the wait really lasts.
	runnextAsked = 3 * time.Microsecond
	// starvation is how long a goroutine may wait for a sync.Mutex before
	// the mutex switches to handing itself over in order
	// (starvationThresholdNs).
	starvation = time.Millisecond
	// spins is how many times Lock spins before it sleeps (active_spin).
	spins = 4
)

// Runtime names the Go runtime whose scheduler the go policy follows where
// versions differ in code (not in costs, which calibrate measures): "" for
// the current one, RuntimeGo19 for Go 1.9's.
type Runtime string

// RuntimeGo19 is Go 1.9's runtime, the talk's (late 2017). Its starving
// sync.Mutex hands the lock to the first waiter without yielding its P
// (Go 1.14 added the yield, golang.org/issue/33747): the unlocker runs on
// and, if it locks again at once, queues behind the waiter before that
// waiter has run — so the mutex stays in starvation mode and hands over
// in order, where today's yield lets the waiter run first, find itself
// the last waiter and end starvation mode.
const RuntimeGo19 Runtime = "go1.9"

// SetRuntime makes the go policy's CPUs c follow runtime r's code where it
// differs from the current runtime's; it must be called before the
// simulation runs. It does nothing under the fifo policy.
func (c *CPUs) SetRuntime(r Runtime) {
	if c.sched != nil {
		c.sched.runtime = r
	}
}

// NewGoCPUs returns n virtual CPUs under the go policy: they are the Go
// runtime's Ps (GOMAXPROCS = n), and every process is a goroutine that
// needs a P to run at all, not only to burn.
//
//   - Each P has a local run queue and a runnext slot. A goroutine readied
//     by a running one — woken by an Unlock or a channel operation, or
//     started by Go — takes the runnext slot of the readier's P: it runs
//     there as soon as the readier blocks, ahead of the queue, while the
//     readier keeps its P in the meantime.
//   - A P that has nothing to run takes goroutines from the global queue,
//     then steals half of another P's queue, or that P's runnext goroutine.
//     If it finds nothing it goes idle; readying a goroutine while some P
//     is idle (and none already woken) wakes one, which arrives to look for
//     work after Costs.Wake — or after Costs.SpinWake if it went idle less
//     than Costs.SpinWindow ago, its thread still spinning.
//   - A goroutine keeps its P, over any number of burns, until sysmon finds
//     the P's time slice older than 10 ms at one of its ticks (every 10 ms
//     and a timer slack, at a phase of their own: SetSysmonPhase); then,
//     if others are waiting, it is preempted — at once, or under Go 1.9 at
//     the end of its burn — and goes to the back of the global queue.
//   - Mutexes behave as sync.Mutex does: an Unlock wakes one waiter without
//     handing it the lock, so a goroutine already running may take the lock
//     first; a waiter that has waited over 1 ms puts the mutex into
//     starvation mode, where it is handed over in order.
//   - Unlocks and channel operations that ready a goroutine cost their caller
//     Costs.MutexHandoff or Costs.ChanHandoff, and switching goroutines on a
//     P costs Costs.Switch, all spent holding the P.
//
// A simulation has at most one set of go-policy CPUs.
func NewGoCPUs(s *Sim, n int, c Costs) *CPUs {
	if s.sched != nil {
		panic("sim: NewGoCPUs called twice on one simulation")
	}
	cpus := NewCPUs(s, n)
	g := &goSched{sim: s, cpus: cpus, costs: c}
	// sysmon's usleep is stretched by the same timer slack as runqgrab's.
	g.sysmonPeriod = sysmonSleep + max(0, c.grace()-runnextAsked)
	for i := range n {
		pp := &gp{id: i}
		pp.waker = &Proc{sim: s, id: -1, live: -1, pp: pp}
		g.ps = append(g.ps, pp)
	}
	// Ps start idle, highest number on top, so that the first woken is P0.
	for i := n - 1; i >= 0; i-- {
		g.idle = append(g.idle, g.ps[i])
	}
	cpus.sched = g
	s.sched = g
	return cpus
}

// goSched is the go policy's scheduler: the runtime's Ps and queues.
type goSched struct {
	sim      *Sim
	cpus     *CPUs
	costs    Costs
	runtime  Runtime
	ps       []*gp
	global   ring[*Proc] // the global run queue
	idle     []*gp       // idle Ps, a stack as the runtime's pidle list
	spinning int         // Ps woken and on their way to look for work
	steals   int64
	wakes    int64
	// queued counts the goroutines in every P's local queue, and nexts
	// the Ps whose runnext slot holds one: an idle P looking for work to
	// steal skips the scan of every P where there is none.
	queued, nexts int

	// sysmon ticks at sysmonPhase + k·sysmonPeriod (see preemptAt).
	sysmonPhase, sysmonPeriod time.Duration

	wallSteps bool // burns end on the clock (SetWallSteps)
}

// SetSysmonPhase sets when, in virtual time, the go policy's sysmon first
// ticks; it ticks again every 10 ms and the timer slack of its sleep
// (Costs.RunnextGrace's beyond the 3 µs asked). It must be called before
// the simulation runs, and does nothing under the fifo policy. A real
// program's sysmon started before the measured window, at no instant that
// a step boundary knows of: a phase drawn at random mirrors that, where
// ticks on the steps' own grid would preempt every goroutine exactly
// between two steps.
func (c *CPUs) SetSysmonPhase(d time.Duration) {
	if c.sched != nil {
		c.sched.sysmonPhase = d
	}
}

// preemptAt is when sysmon preempts a goroutine whose P started its time
// slice at start: sysmon notes the P's schedule count at its first tick at
// or after start, and preempts at the first tick 10 ms after that one
// (retake's schedwhen + forcePreemptNS), so a slice lasts between one and
// two of sysmon's periods.
func (g *goSched) preemptAt(start time.Duration) time.Duration {
	return g.sysmonTick(g.sysmonTick(start) + timeSlice)
}

// sysmonTick returns sysmon's first tick at or after t.
func (g *goSched) sysmonTick(t time.Duration) time.Duration {
	if t <= g.sysmonPhase {
		return g.sysmonPhase
	}
	k := (t - g.sysmonPhase + g.sysmonPeriod - 1) / g.sysmonPeriod
	return g.sysmonPhase + k*g.sysmonPeriod
}

// gp is one P: the goroutine it runs and those waiting for it.
type gp struct {
	id    int
	waker *Proc // carries this P in its wakeP events; never run
	// The runtime's time slice is the P's, not the goroutine's: it starts
	// when the P schedules a goroutine from anywhere but its runnext slot
	// (schedtick counts those), and a goroutine run from runnext inherits
	// what is left of it (runqget's inheritTime), so that goroutines
	// handing the P to each other through runnext cannot keep the rest of
	// the queue waiting for more than one slice. preemptAt is when sysmon
	// ends the slice (goSched.preemptAt).
	preemptAt time.Duration
	schedtick uint32
	idleSince time.Duration
	cur       *Proc // the goroutine holding this P, nil when none does
	runnext   *Proc
	runq      ring[*Proc]
	spinning  bool
	// grab is the goroutine this P waits to steal from victim's runnext
	// slot, nil when it waits for none; delay is what it will spend
	// before running it besides the wait.
	grab      *Proc
	victim    *gp
	grabDelay time.Duration
}

// run gives P pp to goroutine p, which resumes after delay. A goroutine
// from the runnext slot inherits the P's time slice; any other starts a
// new one.
func (g *goSched) run(pp *gp, p *Proc, delay time.Duration, inherit bool) {
	s := g.sim
	pp.cur, p.pp = p, pp
	if !inherit {
		pp.schedtick++
		pp.preemptAt = g.preemptAt(s.now + delay)
	} else if start := s.now + delay; pp.preemptAt < start {
		// The slice ran out while the P ran no goroutine that sysmon could
		// preempt: it preempts this one at its next tick.
		pp.preemptAt = g.sysmonTick(start)
	}
	g.cpus.wait += s.now - p.readyAt
	g.charge(delay)
	g.cpus.runtimeWork(pp.id, p, delay)
	s.schedule(p, s.now+delay)
}

// charge counts runtime work done holding a P as busy CPU time.
func (g *goSched) charge(d time.Duration) {
	g.cpus.busyDone += d
}

// spawn starts a new goroutine p: from a running goroutine it takes the
// runnext slot of its creator's P, as a go statement does; from outside the
// simulation's processes it waits in the global queue.
func (g *goSched) spawn(p *Proc, by *Proc) {
	g.ready(p, by)
}

// ready makes p runnable. A goroutine readied by a running one goes to the
// runnext slot of the readier's P, pushing any goroutine already there to
// the back of that P's queue; one readied by a timer goes to the global
// queue. Either way an idle P is woken to come and take it if none is on
// its way.
func (g *goSched) ready(p *Proc, by *Proc) {
	p.readyAt = g.sim.now
	if by != nil && by.pp != nil {
		pp := by.pp
		if old := pp.runnext; old != nil {
			pp.runq.push(old)
			g.queued++
		} else {
			g.nexts++
		}
		pp.runnext = p
	} else {
		g.global.push(p)
	}
	g.wakep()
}

// wakep wakes an idle P to look for work, unless one is already on its way.
func (g *goSched) wakep() {
	if g.spinning > 0 || len(g.idle) == 0 {
		return
	}
	pp := g.idle[len(g.idle)-1]
	g.idle = g.idle[:len(g.idle)-1]
	pp.spinning = true
	g.spinning++
	g.wakes++
	wake := g.costs.Wake
	if g.sim.now-pp.idleSince < g.costs.SpinWindow {
		wake = g.costs.SpinWake
	}
	g.sim.push(event{at: g.sim.now + wake, p: pp.waker, kind: wakePEvent})
}

// woke is an idle P arriving to look for work. If it finds some and more
// is waiting, it wakes another P in turn, as the runtime's spinning threads
// do.
func (g *goSched) woke(pp *gp) {
	pp.spinning = false
	g.spinning--
	if g.find(pp, 0) && g.waiting() {
		g.wakep()
	}
}

// release takes P from goroutine p, which blocks, sleeps or ends; the P
// runs the next goroutine it can find, or goes idle.
func (g *goSched) release(p *Proc) {
	pp := p.pp
	if pp == nil {
		panic("sim: a goroutine without a P blocked")
	}
	p.pp, pp.cur = nil, nil
	g.find(pp, g.costs.Switch)
}

// yield puts the running goroutine p at the back of its P's queue and lets
// the P run another: runtime.Gosched's local form, which a starving
// mutex's Unlock uses to let the waiter it handed the lock to run at once.
func (g *goSched) yield(p *Proc) {
	pp := p.pp
	p.pp, pp.cur = nil, nil
	p.readyAt = g.sim.now
	pp.runq.push(p)
	g.queued++
	g.find(pp, g.costs.Switch)
	p.park()
}

// preempt sends the running goroutine p, whose time slice is up, to the
// back of the global queue if anything else is waiting to run; otherwise
// it carries on with a new slice.
func (g *goSched) preempt(p *Proc) {
	pp := p.pp
	if pp == nil {
		return // unwinding
	}
	if pp.runnext == nil && pp.runq.len() == 0 && g.global.len() == 0 {
		// Rescheduled at once, from the global queue: a new slice.
		pp.schedtick++
		pp.preemptAt = g.preemptAt(g.sim.now)
		return
	}
	p.pp, pp.cur = nil, nil
	p.readyAt = g.sim.now
	g.global.push(p)
	// This tick is spent: a goroutine that inherits the slice from the
	// runnext slot runs until sysmon's next one.
	pp.preemptAt = g.sysmonTick(g.sim.now + 1)
	g.find(pp, g.costs.Switch)
	p.park()
}

// find looks for a goroutine for P pp as the runtime's findRunnable does —
// its own runnext, its own queue, the global queue, then other Ps' queues
// and runnext slots — and runs it after delay. With nothing to run, the P
// goes idle. It reports whether it found work.
func (g *goSched) find(pp *gp, delay time.Duration) bool {
	// schedule()'s fairness check: every 61st schedule of this P, one
	// goroutine from the global queue first.
	if pp.schedtick%61 == 0 && g.global.len() > 0 {
		g.run(pp, g.global.pop(), delay, false)
		return true
	}
	if p := pp.runnext; p != nil {
		pp.runnext = nil
		g.nexts--
		g.run(pp, p, delay, true)
		return true
	}
	if pp.runq.len() > 0 {
		g.queued--
		g.run(pp, pp.runq.pop(), delay, false)
		return true
	}
	if n := g.global.len(); n > 0 {
		// globrunqget: a fair share of the global queue moves to this P.
		take := min(n, n/len(g.ps)+1)
		p := g.global.pop()
		for range take - 1 {
			pp.runq.push(g.global.pop())
			g.queued++
		}
		g.run(pp, p, delay, false)
		return true
	}
	// Steal, starting from a random P as the runtime does; the seeded
	// source keeps the choice reproducible.
	n := len(g.ps)
	if n > 1 {
		start := g.sim.rng.IntN(n)
		for i := 0; i < n && g.queued > 0; i++ { // pp's own queue is empty: any queued are others'
			v := g.ps[(start+i)%n]
			if v == pp || v.runq.len() == 0 {
				continue
			}
			take := (v.runq.len() + 1) / 2
			p := v.runq.pop() // moves from v's queue to pp's, less the one run
			for range take - 1 {
				pp.runq.push(v.runq.pop())
			}
			g.queued--
			g.steals++
			g.run(pp, p, delay, false)
			return true
		}
		for i := 0; i < n && g.nexts > 0; i++ { // pp's own slot is empty too
			v := g.ps[(start+i)%n]
			if v == pp || v.runnext == nil {
				continue
			}
			// Wait first, as a spinning thread, and steal only if the
			// goroutine is still there then (grabbed).
			pp.grab, pp.victim, pp.grabDelay = v.runnext, v, delay
			g.spinning++
			g.sim.push(event{at: g.sim.now + g.costs.grace(), p: pp.waker, kind: grabEvent})
			return false
		}
	}
	pp.idleSince = g.sim.now
	g.idle = append(g.idle, pp)
	return false
}

// grabbed is P pp at the end of its wait to steal a runnext goroutine: it
// steals it if it is still there, and otherwise looks for work again. Having
// found work, it wakes another P if more is waiting, as a spinning thread
// does.
func (g *goSched) grabbed(pp *gp) {
	p, v := pp.grab, pp.victim
	pp.grab, pp.victim = nil, nil
	g.spinning--
	if v.runnext == p {
		v.runnext = nil
		g.nexts--
		g.steals++
		g.run(pp, p, pp.grabDelay, false)
	} else if !g.find(pp, 0) {
		return
	}
	if g.waiting() {
		g.wakep()
	}
}

// waiting reports whether any goroutine is runnable without a P.
func (g *goSched) waiting() bool {
	if g.global.len() > 0 {
		return true
	}
	for _, pp := range g.ps {
		if pp.runnext != nil || pp.runq.len() > 0 {
			return true
		}
	}
	return false
}

// canSpin reports whether p, running, may spin for a sync.Mutex, as the
// runtime's sync_runtime_canSpin decides: spinning is cheap to lose only
// while another P runs a goroutine that may release the mutex, no P is
// idle or looking for work, and p's own P has nothing else to run.
func (g *goSched) canSpin(p *Proc) bool {
	pp := p.pp
	return g.costs.MutexSpin > 0 && pp != nil && len(g.ps) > len(g.idle)+g.spinning+1 &&
		pp.runq.len() == 0 && pp.runnext == nil
}

// spend has the running goroutine p spend d of runtime work holding its P,
// such as the cost of a handoff.
func (g *goSched) spend(p *Proc, d time.Duration) {
	if d <= 0 || g.sim.stopping {
		return
	}
	g.charge(d)
	if p.pp != nil {
		g.cpus.runtimeWork(p.pp.id, p, d)
	}
	g.sim.schedule(p, g.sim.now+d)
	p.park()
}
