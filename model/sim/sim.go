package sim

import (
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"time"
)

// Sim is one simulation: a virtual clock, the pending events and the
// processes. Make one with [New], add processes with [Sim.Go] and run it
// with [Sim.Run].
type Sim struct {
	now    time.Duration
	seq    uint64
	events []event       // a binary min-heap ordered by (at, seq)
	nowQ   ring[event]   // events scheduled for the very instant they were scheduled at, in order: no heap needed
	later  ring[event]   // events scheduled in order of time, no earlier than the one before (see push)
	last   time.Duration // the time of the event last put in later: no later than now once later is empty
	limit  time.Duration
	rng    *rand.Rand

	live     []*Proc // processes started and not finished, for Stop
	nextID   int
	running  *Proc // the process whose code runs, nil in the engine
	stopping bool
	stopped  bool
	failure  *ProcessPanic // the first process panic, raised by Stop
	resumed  uint64

	// The goroutines taking part (see co): host stands for the one that
	// calls RunUntil and Stop; cos are those not yet exited, idle those
	// whose process finished, kept to run the next process started;
	// unwinding is the one Stop is unwinding.
	host      co
	cos       []*co
	idle      []*co
	unwinding *co

	sched *goSched // the go policy's scheduler; nil under fifo

	cancel    <-chan struct{} // see SetCancel
	cancelled bool
	polls     int // events since the last look at cancel
}

// cancelEvery is how many events RunUntil runs between two looks at its
// cancel channel: a few milliseconds of work.
const cancelEvery = 1 << 14

// SetCancel makes RunUntil stop early, within some thousands of events,
// once done is closed (a context's Done, say): it then returns with the
// clock where it stopped, and Cancelled reports it. Run no further; Stop
// unwinds the processes as always.
func (s *Sim) SetCancel(done <-chan struct{}) { s.cancel = done }

// Cancelled reports whether RunUntil stopped early because the channel
// given to SetCancel was closed.
func (s *Sim) Cancelled() bool { return s.cancelled }

// event wakes process p at virtual time at. seq orders events of equal
// time first come, first served. For a wakeP event, p is the P's waker,
// a Proc that is never run, whose pp is the P that wakes: it keeps the
// event at 32 bytes, which the heap moves often.
type event struct {
	at   time.Duration
	seq  uint64
	p    *Proc
	kind eventKind
}

// eventKind says what an event does when its time comes.
type eventKind uint8

const (
	resumeEvent eventKind = iota // resume p where it parked
	readyEvent                   // p's timer fired: make p runnable (go policy)
	wakePEvent                   // an idle P has woken to look for work (go policy)
	grabEvent                    // a P's wait to steal a runnext goroutine is over (go policy)
)

// New returns an empty simulation at virtual time zero whose random source
// ([Sim.Rand]) is seeded with seed: the same model and seed give the same run.
func New(seed uint64) *Sim {
	s := &Sim{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	s.host.sim = s
	return s
}

// Now returns the virtual time since the simulation started.
func (s *Sim) Now() time.Duration { return s.now }

// Rand returns the simulation's seeded random source, for random step
// durations. Draw from it only inside the simulation (in processes or
// before Run), so that the draws happen in the same order on every run.
func (s *Sim) Rand() *rand.Rand { return s.rng }

// NextID returns the ID the next process started ([Sim.Go]) will have:
// a model that starts its processes in order can tell them apart by it.
func (s *Sim) NextID() int { return s.nextID }

// Events returns how many times a process has been resumed so far: the
// number of events the engine has processed, a measure of its work.
func (s *Sim) Events() uint64 { return s.resumed }

// Go starts a process running fn at the current virtual time. It may be
// called before Run or from a running process; the new process first runs
// after the events already scheduled for the current time. fn must not call
// runtime.Goexit (t.FailNow, t.Fatal): a process reports with t.Error.
func (s *Sim) Go(fn func(p *Proc)) {
	if s.stopped || s.stopping {
		panic("sim: Go after the simulation was stopped")
	}
	p := &Proc{sim: s, id: s.nextID, cpu: -1, fn: fn}
	s.nextID++
	var c *co
	if n := len(s.idle); n > 0 {
		c = s.idle[n-1]
		s.idle[n-1] = nil
		s.idle = s.idle[:n-1]
	} else {
		c = s.newCo()
	}
	c.p, p.co = p, c
	p.live = len(s.live)
	s.live = append(s.live, p)
	if s.sched != nil {
		s.sched.spawn(p, s.running)
		return
	}
	s.schedule(p, s.now)
}

// RunUntil runs every event up to and including virtual time until, then
// sets the clock to until and returns, leaving the processes where they are:
// a later RunUntil goes on from there. A simulation must end with
// [Sim.Stop] (or be run with [Sim.Run], which does both), or its blocked
// processes' coroutines stay behind.
func (s *Sim) RunUntil(until time.Duration) {
	switch {
	case s.running != nil:
		panic("sim: RunUntil called from a process")
	case s.stopped:
		panic("sim: RunUntil after Stop")
	case until < s.now:
		panic(fmt.Sprintf("sim: RunUntil(%v) is before now (%v)", until, s.now))
	}
	s.limit = until
	if s.cancelledNow() {
		return
	}
	s.dispatch(&s.host) // returns once no event is due by until
	if s.failure != nil {
		s.Stop() // unwinds the others, then panics with the failure
	}
	if s.cancelled {
		return
	}
	s.now = until
}

// cancelledNow looks at the cancel channel, and records it if it is closed.
func (s *Sim) cancelledNow() bool {
	s.polls = 0
	if s.cancel == nil {
		return false
	}
	select {
	case <-s.cancel:
		s.cancelled = true
		return true
	default:
		return false
	}
}

// handoff is the engine, run by whichever goroutine has nothing to do
// until an event of its own: self, the goroutine of process p that has
// just blocked (p is nil for a goroutine with no process running: the
// host in RunUntil, or a coroutine whose process has finished). It
// handles the events that resume no process itself, in order, and finds
// the goroutine to run next: the process of the first resume event, or
// the host once no event is due by the limit (or the run is cancelled).
// If that is self, it returns nil: self carries on with no switch.
// Otherwise it makes the switch — the goroutine to run takes self's
// place, self goes where it was parked — and returns the coroutine to
// switch through, which the caller enters right away: by next if
// handoff has just set its pending, by yield if it has just cleared it.
// When the switch comes back to self, back follows (see Proc.park).
//
// A blocking call that is hot spells park out, so that its own frame is
// the one that switches: after a switch, every return up to the process's
// code mispredicts (the CPU predicts the returns of the goroutine that
// switched away), so the fewer frames the better.
func (s *Sim) handoff(self *co, p *Proc) *co {
	if s.stopping {
		panic(unwinding{})
	}
	if s.running != p {
		panic("sim: a blocking call on a Proc from outside its own process")
	}
	s.running = nil
	t := &s.host
	for {
		if s.polls++; s.polls >= cancelEvery && s.cancelledNow() {
			break
		}
		// The next event: the earliest in (at, seq) of the fronts of nowQ,
		// later and the heap (see push).
		var e *event
		from := 0 // 1 nowQ, 2 later, 3 heap
		if s.nowQ.n > 0 {
			e, from = &s.nowQ.buf[s.nowQ.head], 1
		}
		if s.later.n > 0 {
			if f := &s.later.buf[s.later.head]; from == 0 || f.before(*e) {
				e, from = f, 2
			}
		}
		if len(s.events) > 0 {
			if f := &s.events[0]; from == 0 || f.before(*e) {
				e, from = f, 3
			}
		}
		if from == 0 || e.at > s.limit {
			break
		}
		at, ep, kind := e.at, e.p, e.kind
		switch from {
		case 1:
			s.nowQ.drop()
		case 2:
			s.later.drop()
		default:
			s.pop()
		}
		s.now = at
		if kind == resumeEvent {
			s.resumed++
			t = ep.co
			break
		}
		switch kind {
		case readyEvent:
			s.sched.ready(ep, nil)
		case wakePEvent:
			s.sched.woke(ep.pp)
		default:
			s.sched.grabbed(ep.pp)
		}
	}
	if t == self {
		return nil
	}
	c := t.in
	self.in = c
	c.pending = !c.pending
	return c
}

// dispatch runs the engine from goroutine self, which runs no process
// (see handoff), and returns when self's turn comes.
func (s *Sim) dispatch(self *co) {
	if c := s.handoff(self, nil); c != nil {
		if c.pending {
			c.next()
		} else {
			c.yield(struct{}{})
		}
		if s.stopping {
			s.relay(self)
		}
	}
}

// Run runs every event up to and including virtual time until, then stops
// the simulation ([Sim.Stop]). It is the usual way to run a model once.
func (s *Sim) Run(until time.Duration) {
	s.RunUntil(until)
	s.Stop()
}

// Stop ends the simulation: it unwinds every process that has not finished,
// running its deferred calls (a blocking call inside them returns at once
// by unwinding too), and drops the pending events. The simulation cannot
// run again. If a process panicked while unwinding, Stop panics with a
// [*ProcessPanic] after every process is unwound.
func (s *Sim) Stop() {
	if s.running != nil {
		panic("sim: Stop called from a process")
	}
	if s.stopped {
		return
	}
	s.stopping = true
	for len(s.live) > 0 {
		p := s.live[len(s.live)-1]
		s.unwind(p.co, p)
		s.forget(p)
		if p.failure != nil && s.failure == nil {
			s.failure = p.failure
		}
	}
	for _, c := range s.cos {
		s.unwind(c, nil)
	}
	s.cos, s.idle = nil, nil
	s.events = s.events[:0]
	for s.nowQ.len() > 0 {
		s.nowQ.drop()
	}
	for s.later.len() > 0 {
		s.later.drop()
	}
	s.stopped = true
	if s.failure != nil {
		panic(s.failure)
	}
}

// unwind ends goroutine c, from the host, while stopping: a process
// blocked in it unwinds (running its deferred calls as process p), and an
// idle one returns.
func (s *Sim) unwind(c *co, p *Proc) {
	if c.exited {
		return
	}
	if !c.started {
		c.exited = true
		c.stop() // its coroutine returns before running anything
		return
	}
	s.running, s.unwinding = p, c
	s.transfer(&s.host, c)
	s.running, s.unwinding = nil, nil
}

// finish is the engine's work when process p has returned (or panicked)
// during the run: a finished goroutine gives its P back, and a panic
// stops the simulation.
func (s *Sim) finish(p *Proc) {
	if s.sched != nil && p.pp != nil {
		s.sched.release(p)
	}
	s.forget(p)
	if p.failure != nil && s.failure == nil {
		s.failure = p.failure
	}
}

// forget removes a finished process from the live set.
func (s *Sim) forget(p *Proc) {
	if p.live < 0 {
		return
	}
	last := s.live[len(s.live)-1]
	s.live[p.live] = last
	last.live = p.live
	s.live[len(s.live)-1] = nil
	s.live = s.live[:len(s.live)-1]
	p.live = -1
}

// schedule makes p resume at virtual time at.
func (s *Sim) schedule(p *Proc, at time.Duration) {
	s.push(event{at: at, p: p, kind: resumeEvent})
}

// push adds e to the pending events, stamping it with its place in the
// order of scheduling. Two queues keep most events in order without the
// heap's work. An event for the current instant goes to nowQ: it is the
// latest scheduled for this instant, so everything already in nowQ comes
// before it. An event no earlier than the last put in the later queue
// goes there, after it (s.last spares reading the queue's back, and once
// the queue is empty every event not in the past qualifies): a model whose
// steps all take the same time schedules nothing else. The rest go to the
// heap. handoff takes the earliest of the three fronts, so the order is
// (at, seq) whichever queue holds an event.
func (s *Sim) push(e event) {
	s.seq++
	e.seq = s.seq
	if e.at == s.now {
		s.nowQ.push(e)
		return
	}
	if e.at >= s.last {
		s.later.push(e)
		s.last = e.at
		return
	}
	s.pushHeap(e)
}

// pushHeap adds e to the heap. It stays out of line: push's common cases
// are the queues.
//
//go:noinline
func (s *Sim) pushHeap(e event) {
	// sift up, from a new last slot
	h := append(s.events, event{})
	i := len(h) - 1
	for i > 0 {
		parent := (i - 1) / 2
		if !e.before(h[parent]) {
			break
		}
		h[i] = h[parent]
		i = parent
	}
	h[i] = e
	s.events = h
}

// pop removes and returns the earliest event.
func (s *Sim) pop() event {
	h := s.events
	top := h[0]
	n := len(h) - 1
	e := h[n]
	h[n] = event{}
	h = h[:n]
	s.events = h
	if n == 0 {
		return top
	}
	// sift down
	i := 0
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if r := c + 1; r < n && h[r].before(h[c]) {
			c = r
		}
		if !h[c].before(e) {
			break
		}
		h[i] = h[c]
		i = c
	}
	h[i] = e
	return top
}

func (e event) before(o event) bool {
	return e.at < o.at || (e.at == o.at && e.seq < o.seq)
}

// Proc is one simulated process, the counterpart of a goroutine. Its
// function receives it and passes it to every blocking operation. A Proc
// must only be used by its own process.
type Proc struct {
	sim     *Sim
	id      int
	live    int // index in sim.live, -1 once finished
	fn      func(*Proc)
	co      *co // the goroutine that runs it
	failure *ProcessPanic

	// Under the go policy: the P the process holds while it runs, and
	// since when it has been runnable without one.
	pp      *gp
	readyAt time.Duration

	burned time.Duration // CPU time of the process's finished burns
	cpu    int           // the fifo CPU it last burned on, numbered only for a log (CPUs.Log); -1 before
}

// unwinding is the sentinel a blocked process panics with when the
// simulation stops, to unwind its coroutine; the coroutine wrapper recovers
// it.
type unwinding struct{}

// Now returns the virtual time since the simulation started.
func (p *Proc) Now() time.Duration { return p.sim.now }

// Sim returns the simulation the process belongs to.
func (p *Proc) Sim() *Sim { return p.sim }

// Burned returns the CPU time the process's burns ([CPUs.Burn]) have
// taken so far: its own work, without the time it waited for a CPU and
// without the runtime's costs charged under the go policy. What it grows
// by while the process holds a resource is the time the resource was
// really working.
func (p *Proc) Burned() time.Duration { return p.burned }

// ID returns the process's number: 0 for the first started, then 1, 2, …
func (p *Proc) ID() int { return p.id }

// Sleep waits for d of virtual time without holding a CPU, like a timer.
// Sleep(0) lets the other events of the current time run first.
func (p *Proc) Sleep(d time.Duration) {
	s := p.sim
	if s.sched != nil && !s.stopping {
		// A sleeping goroutine gives up its P; its timer makes it
		// runnable again, and it runs once a P takes it.
		s.push(event{at: s.now + max(d, 0), p: p, kind: readyEvent})
		s.sched.release(p)
		p.park()
		return
	}
	s.schedule(p, s.now+max(d, 0))
	p.park()
}

// block parks a process that waits for another one (a lock, a channel):
// under the go policy it gives up its P first, and whoever wakes it makes
// it runnable.
func (p *Proc) block() {
	if s := p.sim; s.sched != nil && !s.stopping {
		s.sched.release(p)
	}
	p.park()
}

// park blocks the process until the event it has scheduled, or that a
// primitive will schedule for it, resumes it.
func (p *Proc) park() {
	if c := p.sim.handoff(p.co, p); c != nil {
		if c.pending { // see handoff
			c.next()
		} else {
			c.yield(struct{}{})
		}
	}
	p.back()
}

// back is the second half of park, once p runs again.
func (p *Proc) back() {
	if p.sim.stopping {
		p.unwound()
	}
	p.sim.running = p
}

// unwound is a process that runs again while Stop unwinds: once it is
// the one unwound (see relay), it unwinds. It stays out of line, so that
// back inlines.
//
//go:noinline
func (p *Proc) unwound() {
	s := p.sim
	s.relay(p.co)
	s.running = p
	panic(unwinding{})
}

// run runs the process's function, recording a panic.
func (p *Proc) run() {
	defer p.recover()
	p.fn(p)
}

// wake makes a blocked process resume at the current time, after the
// events already scheduled for it; under the go policy it makes the process
// runnable, on the P of the process that woke it.
func (s *Sim) wake(p *Proc) {
	if s.sched != nil {
		s.sched.ready(p, s.running)
		return
	}
	s.schedule(p, s.now)
}

// recover is deferred by the coroutine wrapper: it ends an unwinding
// quietly and records a real panic for the engine to raise.
func (p *Proc) recover() {
	r := recover()
	if r == nil {
		return
	}
	if _, ok := r.(unwinding); ok {
		return
	}
	p.failure = &ProcessPanic{Process: p.id, At: p.sim.now, Value: r, Stack: debug.Stack()}
}

// ProcessPanic is what Run (or Stop) panics with when a process function
// panicked: which process, at what virtual time, the value it panicked with
// and its stack.
type ProcessPanic struct {
	Process int
	At      time.Duration
	Value   any
	Stack   []byte
}

// Error says which process panicked, when, with what, and where.
func (e *ProcessPanic) Error() string {
	return fmt.Sprintf("sim: process %d panicked at virtual time %v: %v\n\n%s", e.Process, e.At, e.Value, e.Stack)
}

// Unwrap returns the panic value if it is an error.
func (e *ProcessPanic) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}
