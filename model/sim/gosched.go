package sim

import "time"

// Costs are the go policy's prices for the runtime's own work, measured by
// brewput calibrate's microbenchmarks (never fitted to a model's results).
type Costs struct {
	// Switch is a P parking one goroutine and starting the next queued.
	Switch time.Duration `json:"switch_ns"`
	// Wake is from a goroutine readied while a P is idle to that P running
	// it: waking a sleeping thread, which steals it from the readier's P.
	Wake time.Duration `json:"wake_ns"`
	// SpinWake is Wake for a P idle under SpinWindow, still spinning.
	SpinWake   time.Duration `json:"spin_wake_ns"`
	SpinWindow time.Duration `json:"spin_window_ns"`
	// What readying a waiter costs an Unlock, an unbuffered and a buffered
	// channel operation.
	MutexHandoff   time.Duration `json:"mutex_handoff_ns"`
	ChanHandoff    time.Duration `json:"chan_handoff_ns"`
	BufChanHandoff time.Duration `json:"buf_chan_handoff_ns"`
	// RunnextGrace is how long a P waits before stealing another P's
	// runnext goroutine: runqgrab's usleep(3), stretched by the OS's timer
	// slack. Zero means the 3 µs asked for.
	RunnextGrace time.Duration `json:"runnext_grace_ns,omitempty"`
	// MutexSpin is one spin of a Lock that finds its sync.Mutex held
	// (procyield(30)). Zero means no spinning.
	MutexSpin time.Duration `json:"mutex_spin_ns,omitempty"`
	// RuntimeLock is how long the runtime holds one of its own locks
	// ([RuntimeMutex]) for a queue's work.
	RuntimeLock time.Duration `json:"runtime_lock_ns,omitempty"`
	// Transfer is what moving a cache line between cores costs ([Line]).
	Transfer Transfer `json:"transfer,omitzero"`
	// AllCore is how fast a core runs, against one running alone, while
	// every P's core runs (turbo budgets, shared caches); a core runs
	// between 1 and AllCore by how many others run; 0 means 1.
	AllCore float64 `json:"all_core_speed,omitempty"`
	// AllCoreFirst makes a core run at AllCore as soon as one other core
	// burns, as a laptop's turbo does.
	AllCoreFirst bool `json:"all_core_first,omitempty"`
}

// grace is how long the runnext wait lasts.
func (c Costs) grace() time.Duration {
	if c.RunnextGrace == 0 {
		return runnextAsked
	}
	return c.RunnextGrace
}

// The Go runtime's own constants (runtime/proc.go): its code, not measured.
const (
	// timeSlice is how long a goroutine may run before sysmon preempts it
	// (forcePreemptNS), noticed at sysmon's ticks (see goSched.preemptAt).
	timeSlice = 10 * time.Millisecond
	// sysmonSleep is sysmon's sleep between ticks in a busy program: its
	// delay doubles from 20 µs up to this.
	sysmonSleep = 10 * time.Millisecond
	// runnextAsked is runqgrab's usleep(3) (see Costs.RunnextGrace).
	runnextAsked = 3 * time.Microsecond
	// starvation is how long a sync.Mutex waiter waits before the mutex
	// hands itself over in order (starvationThresholdNs).
	starvation = time.Millisecond
	// spins is how many times Lock spins before it sleeps (active_spin).
	spins = 4
)

// Quirks make the go policy follow an older Go runtime where its code
// differed from today's, for validation against runs made under one; the
// zero Quirks are today's.
type Quirks struct {
	NoRunnext      bool // a readied goroutine goes to the global queue (before Go 1.5)
	NoSpin         bool // a Lock that finds its mutex held sleeps at once, and it never starves (before Go 1.5)
	StarvingKeepsP bool // a starving Unlock hands over without yielding its P (Go 1.9: golang.org/issue/33747)
	AllSpin        bool // every thread waiting for a runtime lock spins (before Go 1.24)
}

// SetQuirks makes the go policy follow an older runtime's code; call it
// before the run. fifo ignores it.
func (c *CPUs) SetQuirks(q Quirks) {
	if c.sched != nil {
		c.sched.quirks = q
	}
}

// NewGoCPUs returns n virtual CPUs under the go policy, the runtime's Ps
// (one set per simulation), following the runtime's scheduler: runnext,
// local and global queues, stealing, sysmon's preemption, each handoff
// and switch at its Costs.
func NewGoCPUs(s *Sim, n int, c Costs) *CPUs {
	if s.sched != nil {
		panic("sim: NewGoCPUs called twice on one simulation")
	}
	cpus := NewCPUs(s, n)
	g := &goSched{sim: s, cpus: cpus, costs: c}
	// sysmon's usleep is stretched by the same timer slack as runqgrab's.
	g.sysmonPeriod = sysmonSleep + max(0, c.grace()-runnextAsked)
	for i := range n {
		pp := &gp{id: i, sibling: -1}
		pp.waker = &Proc{sim: s, id: -1, live: -1, pp: pp}
		g.ps = append(g.ps, pp)
	}
	// Ps start idle, highest number on top, so that the first woken is P0.
	for i := n - 1; i >= 0; i-- {
		g.idle = append(g.idle, g.ps[i])
	}
	if !c.Transfer.IsZero() {
		g.dist = distances(Machine{}, c.Transfer, n)
	}
	cpus.sched = g
	s.sched = g
	return cpus
}

// SetSteadyStart starts each goroutine started before the run on an idle
// P of its own at once, as in a program long under way, rather than as a
// program starting does. Call it before the run; fifo ignores it.
func (c *CPUs) SetSteadyStart(on bool) {
	if c.sched != nil {
		c.sched.steadyStart = on
	}
}

// SetMachine sets the hardware the Ps run on ([Costs.Transfer]); call it
// before the run. fifo ignores it.
func (c *CPUs) SetMachine(m Machine) {
	g := c.sched
	if g == nil {
		return
	}
	if !g.costs.Transfer.IsZero() {
		g.dist = distances(m, g.costs.Transfer, len(g.ps))
	}
	for i, s := range siblings(m, len(g.ps)) {
		g.ps[i].sibling = s
	}
	g.threads = m.Threads()
}

// goSched is the go policy's scheduler: the runtime's Ps and queues.
type goSched struct {
	sim      *Sim
	cpus     *CPUs
	costs    Costs
	quirks   Quirks
	ps       []*gp
	global   ring[*Proc] // the global run queue
	idle     []*gp       // idle Ps, a stack as the runtime's pidle list
	spinning int         // Ps woken and on their way to look for work
	// The goroutines in all local queues and the Ps with a runnext one,
	// so that a P looking to steal skips the scan where there is none.
	queued, nexts int

	// sysmon ticks at sysmonPhase + k·sysmonPeriod (see preemptAt).
	sysmonPhase, sysmonPeriod time.Duration

	wallSteps bool // burns end on the clock (SetWallSteps)
	workSteps bool // burns are work, slower on a shared core (SetWorkSteps)
	// steadyStart starts each goroutine started before the run on an
	// idle P of its own (SetSteadyStart).
	steadyStart bool

	// dist is what moving a line from one P to another costs, by their
	// numbers; nil where it costs nothing. threads is the machine's
	// hardware threads, 0 for as many as Ps.
	dist    [][]time.Duration
	threads int
}

// SetSysmonPhase sets sysmon's first tick (a real one knows nothing of the
// steps). Call it before the run; fifo ignores it.
func (c *CPUs) SetSysmonPhase(d time.Duration) {
	if c.sched != nil {
		c.sched.sysmonPhase = d
	}
}

// preemptAt is when sysmon preempts a slice started at start: its first
// tick 10 ms after the first that saw it (retake's schedwhen).
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
	id int
	// sibling is the P on the other hardware thread of this P's core, -1
	// for none; burning says a burn runs on this P now.
	sibling int
	burning bool
	waker   *Proc // carries this P in its events; never run
	// The time slice is the P's: one from runnext inherits the rest
	// (runqget's inheritTime); schedtick counts the others.
	preemptAt time.Duration
	schedtick uint32
	idleSince time.Duration
	runnext   *Proc
	runq      ring[*Proc]
	// grab is the goroutine this P waits to steal from victim's runnext,
	// then running it after grabDelay.
	grab      *Proc
	victim    *gp
	grabDelay time.Duration
}

// run gives P pp to goroutine p, which resumes after delay, inheriting
// the P's slice or starting a new one.
func (g *goSched) run(pp *gp, p *Proc, delay time.Duration, inherit bool) {
	s := g.sim
	p.pp = pp
	if !inherit {
		pp.schedtick++
		pp.preemptAt = g.preemptAt(s.now + delay)
	} else if start := s.now + delay; pp.preemptAt < start {
		// The slice ran out with nothing to preempt: this one goes at
		// sysmon's next tick.
		pp.preemptAt = g.sysmonTick(start)
	}
	g.cpus.busyDone += delay
	g.cpus.runtimeWork(pp.id, p, delay)
	s.schedule(p, s.now+delay)
}

// ready makes p runnable in the runnext slot of its readier's P (the one
// there goes to the queue), or, readied by none, in the global queue.
func (g *goSched) ready(p *Proc, by *Proc) {
	if by != nil && by.pp != nil && !g.quirks.NoRunnext {
		pp := by.pp
		if old := pp.runnext; old != nil {
			pp.runq.push(old)
			g.queued++
		} else {
			g.nexts++
		}
		pp.runnext = p
	} else if g.steadyStart && g.sim.now == 0 && g.sim.running == nil {
		// Started before the run: as a program long under way has its
		// goroutines spread over the Ps, on an idle P of its own at once,
		// or, none idle, in the shortest local queue.
		if len(g.idle) > 0 {
			pp := g.idle[len(g.idle)-1]
			g.idle = g.idle[:len(g.idle)-1]
			g.run(pp, p, 0, false)
			return
		}
		shortest := g.ps[0]
		for _, pp := range g.ps[1:] {
			if pp.runq.len() < shortest.runq.len() {
				shortest = pp
			}
		}
		shortest.runq.push(p)
		g.queued++
		return
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
	g.spinning++
	wake := g.costs.Wake
	if g.sim.now-pp.idleSince < g.costs.SpinWindow {
		wake = g.costs.SpinWake
	}
	g.sim.push(event{at: g.sim.now + wake, p: pp.waker, kind: wakePEvent})
}

// woke is an idle P arriving to look for work; finding some, it wakes
// another if more waits, as spinning threads do.
func (g *goSched) woke(pp *gp) {
	g.spinning--
	if g.find(pp, 0) && g.waiting() {
		g.wakep()
	}
}

// release takes the P from goroutine p, which blocks, sleeps or ends, and
// has it find another.
func (g *goSched) release(p *Proc) {
	pp := p.pp
	if pp == nil {
		panic("sim: a goroutine without a P blocked")
	}
	p.pp = nil
	g.find(pp, g.costs.Switch)
}

// yield puts the running goroutine p at the back of its P's queue, as a
// starving mutex's Unlock does so that the waiter handed the lock runs.
func (g *goSched) yield(p *Proc) {
	pp := p.pp
	p.pp = nil
	pp.runq.push(p)
	g.queued++
	g.find(pp, g.costs.Switch)
	p.park()
}

// preempt sends the running goroutine p, its slice up, to the back of the
// global queue if anything else waits; otherwise it gets a new slice.
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
	p.pp = nil
	g.global.push(p)
	// This tick is spent: a runnext goroutine inheriting the slice runs
	// until the next.
	pp.preemptAt = g.sysmonTick(g.sim.now + 1)
	g.find(pp, g.costs.Switch)
	p.park()
}

// find runs a goroutine on P pp after delay, found in findRunnable's
// order, or idles the P; it reports whether it found work.
func (g *goSched) find(pp *gp, delay time.Duration) bool {
	// schedule()'s fairness: every 61st schedule takes from the global queue.
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
		// globrunqget: a fair share of the global queue.
		take := min(n, n/len(g.ps)+1)
		p := g.global.pop()
		for range take - 1 {
			pp.runq.push(g.global.pop())
			g.queued++
		}
		g.run(pp, p, delay, false)
		return true
	}
	// Steal, starting from a random P as the runtime does.
	n := len(g.ps)
	if n > 1 {
		start := int(g.sim.below(int64(n)))
		for i := 0; i < n && g.queued > 0; i++ { // pp's own queue is empty: any queued are others'
			v := g.ps[wrap(start+i, n)]
			if v == pp || v.runq.len() == 0 {
				continue
			}
			take := (v.runq.len() + 1) / 2
			p := v.runq.pop() // moves from v's queue to pp's, less the one run
			for range take - 1 {
				pp.runq.push(v.runq.pop())
			}
			g.queued--
			g.run(pp, p, delay, false)
			return true
		}
		for i := 0; i < n && g.nexts > 0; i++ { // pp's own slot is empty too
			v := g.ps[wrap(start+i, n)]
			if v == pp || v.runnext == nil {
				continue
			}
			// Wait first, spinning, then steal if it is still there.
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

// wrap is i mod n for 0 <= i < 2n, without a division.
func wrap(i, n int) int {
	if i >= n {
		return i - n
	}
	return i
}

// grabbed ends P pp's wait to steal a runnext goroutine: it steals it if
// still there, else looks again.
func (g *goSched) grabbed(pp *gp) {
	p, v := pp.grab, pp.victim
	pp.grab, pp.victim = nil, nil
	g.spinning--
	if v.runnext == p {
		v.runnext = nil
		g.nexts--
		g.run(pp, p, pp.grabDelay, false)
	} else if !g.find(pp, 0) {
		return
	}
	if g.waiting() {
		g.wakep()
	}
}

// States returns, under the go policy, how many Ps run a goroutine now,
// how many goroutines wait for a P, and how many Ps look for work (all 0
// under fifo).
func (c *CPUs) States() (running, runnable, looking int) {
	if g := c.sched; g != nil {
		return len(g.ps) - len(g.idle) - g.spinning, g.global.len() + g.queued + g.nexts, g.spinning
	}
	return 0, 0, 0
}

func (g *goSched) waiting() bool { return g.global.len() > 0 || g.queued > 0 || g.nexts > 0 }

// canSpin is sync_runtime_canSpin: p may spin while another P runs (and
// may unlock), no P is idle or spinning, and p's P has nothing else to run.
func (g *goSched) canSpin(p *Proc) bool {
	pp := p.pp
	return g.costs.MutexSpin > 0 && pp != nil && len(g.ps) > len(g.idle)+g.spinning+1 &&
		pp.runq.len() == 0 && pp.runnext == nil
}

// spend has the running goroutine p spend d of runtime work on its P,
// such as a handoff's cost.
func (g *goSched) spend(p *Proc, d time.Duration) {
	s := g.sim
	if d <= 0 || s.stopping {
		return
	}
	g.cpus.busyDone += d
	if p.pp != nil {
		g.cpus.runtimeWork(p.pp.id, p, d)
	}
	// p.waitUntil(s.now + d), spelled out: most spends skip
	if at := s.now + d; !s.skip(p, at) {
		s.schedule(p, at)
		if c := s.handoff(p.co, p); c != nil {
			if c.pending {
				c.next()
			} else {
				c.yield(struct{}{})
			}
		}
		p.back()
	}
}
