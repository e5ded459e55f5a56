package sim

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"runtime/debug"
	"time"
)

// Sim is one simulation: a virtual clock, the pending events and the
// processes.
type Sim struct {
	now    time.Duration
	seq    uint64
	events []event       // a binary min-heap ordered by (at, seq)
	nowQ   ring[event]   // events for the instant they were scheduled at (see push)
	later  ring[event]   // events no earlier than the one before (see push)
	last   time.Duration // the time of the event last put in later
	limit  time.Duration
	rng    *rand.Rand
	src    *rand.PCG // rng's source, which below draws from directly

	live     []*Proc // processes started and not finished, for Stop
	nextID   int
	running  *Proc // the process whose code runs, nil in the engine
	stopping bool
	stopped  bool
	failure  *ProcessPanic // the first process panic, raised by Stop
	resumed  uint64

	host      co    // the goroutine calling RunUntil and Stop
	cos       []*co // coroutines not yet exited
	idle      []*co // coroutines free to run the next process
	unwinding *co   // the one Stop is unwinding

	sched *goSched // the go policy's scheduler; nil under fifo

	cancel    <-chan struct{} // see SetCancel
	cancelled bool
	polls     int // events since the last look at cancel
}

// cancelEvery is the events between looks at the cancel channel.
const cancelEvery = 1 << 14

// SetCancel makes RunUntil return early, the clock where it stopped, once
// done is closed (a context's Done, say). Run no further; Stop as always.
func (s *Sim) SetCancel(done <-chan struct{}) { s.cancel = done }

// Cancelled reports whether RunUntil stopped early (SetCancel).
func (s *Sim) Cancelled() bool { return s.cancelled }

// event wakes process p at virtual time at; seq orders equal times. A P's
// events carry its waker, keeping events at 32 bytes for the heap.
type event struct {
	at   time.Duration
	seq  uint64
	p    *Proc
	kind eventKind
}

type eventKind uint8

const (
	resumeEvent eventKind = iota // resume p where it parked
	readyEvent                   // p's timer fired: make p runnable (go policy)
	wakePEvent                   // an idle P has woken to look for work (go policy)
	grabEvent                    // a P's wait to steal a runnext goroutine is over (go policy)
)

// New returns an empty simulation at virtual time zero whose random source
// ([Sim.Rand]) is seeded with seed.
func New(seed uint64) *Sim {
	src := rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)
	s := &Sim{rng: rand.New(src), src: src}
	s.host.sim = s
	return s
}

func (s *Sim) Now() time.Duration { return s.now }

// Rand returns the seeded random source; draw from it only in processes
// or before Run, so that every run draws in the same order.
func (s *Sim) Rand() *rand.Rand { return s.rng }

// below draws from [0, n), n > 0, what s.Rand().Int64N(n) would, from
// the same source without its interface call: the engine's hot paths
// draw with it.
func (s *Sim) below(n int64) int64 {
	if math.MaxUint == math.MaxUint32 {
		return s.rng.Int64N(n) // math/rand/v2 draws otherwise on 32 bits
	}
	u := uint64(n)
	if u&(u-1) == 0 {
		return int64(s.src.Uint64() & (u - 1))
	}
	// Lemire's multiply and reject, as math/rand/v2 does it.
	hi, lo := bits.Mul64(s.src.Uint64(), u)
	if lo < u {
		for floor := -u % u; lo < floor; {
			hi, lo = bits.Mul64(s.src.Uint64(), u)
		}
	}
	return int64(hi)
}

// NextID returns the ID the next process started ([Sim.Go]) will have.
func (s *Sim) NextID() int { return s.nextID }

// Events returns how many times a process has been resumed: the engine's
// work.
func (s *Sim) Events() uint64 { return s.resumed }

// Go starts a process running fn now, after the events already due; call
// it before Run or from a process. fn must not call runtime.Goexit
// (t.Fatal): report with t.Error.
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
	s.wake(p) // under the go policy, in its creator's runnext
}

// RunUntil runs every event up to and including virtual time until and
// sets the clock there; a later call goes on. End with [Sim.Stop].
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
	if !s.cancelled {
		s.now = until
	}
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

// handoff is the engine, run by goroutine self, whose process p (nil for
// the host or an idle coroutine) has just blocked. It runs the events that
// resume no process, up to the first resume event (or the host, past the
// limit), and returns nil if that is self's, else the coroutine for self to
// switch through at once (see co.resume). Hot blocking calls switch in
// their own frame: after a switch every return mispredicts.
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
		// The earliest of the fronts of nowQ, later and the heap.
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
			if ep.step == nil {
				t = ep.co
				break
			}
			if s.runStep(ep); s.failure != nil {
				break // RunUntil stops the simulation
			}
			continue
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

// dispatch runs the engine from goroutine self, which runs no process,
// and returns when self's turn comes.
func (s *Sim) dispatch(self *co) {
	if c := s.handoff(self, nil); c != nil {
		c.resume()
		if s.stopping {
			s.relay(self)
		}
	}
}

// Run runs every event up to and including virtual time until, then
// stops the simulation ([Sim.Stop]).
func (s *Sim) Run(until time.Duration) {
	s.RunUntil(until)
	s.Stop()
}

// Stop ends the simulation for good, unwinding every unfinished process
// (running its deferred calls) and dropping the pending events. If a
// process panicked, Stop then panics with its [*ProcessPanic].
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
	}
	for _, c := range s.cos {
		s.unwind(c, nil)
	}
	s.cos, s.idle = nil, nil
	s.events = s.events[:0]
	s.nowQ, s.later = ring[event]{}, ring[event]{}
	s.stopped = true
	if s.failure != nil {
		panic(s.failure)
	}
}

// unwind ends goroutine c from the host while stopping: its blocked
// process p unwinds, or an idle coroutine returns.
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
// during the run: its P goes back, and a panic stops the simulation.
func (s *Sim) finish(p *Proc) {
	if s.sched != nil && p.pp != nil {
		s.sched.release(p)
	}
	s.forget(p)
}

// forget removes a finished process from the live set, keeping the first
// panic for RunUntil and Stop to raise.
func (s *Sim) forget(p *Proc) {
	if p.failure != nil && s.failure == nil {
		s.failure = p.failure
	}
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

func (s *Sim) schedule(p *Proc, at time.Duration) {
	s.push(event{at: at, p: p, kind: resumeEvent})
}

// waitUntil blocks the running process p until virtual time at, as
// schedule and park do, switching in its own frame (see handoff); where
// its resume would be the next event it does not wait (skip).
func (p *Proc) waitUntil(at time.Duration) {
	s := p.sim
	if s.skip(p, at) {
		return
	}
	s.schedule(p, at)
	// p.park(), spelled out
	if c := s.handoff(p.co, p); c != nil {
		if c.pending {
			c.next()
		} else {
			c.yield(struct{}{})
		}
	}
	p.back()
}

// skip moves the clock to at for the running process p where its resume
// would be the next event, before every pending one and the limit, and
// reports whether it did: the same events in the same order, without the
// queues or a switch (seq only orders events: the one not pushed needs no
// stamp).
func (s *Sim) skip(p *Proc, at time.Duration) bool {
	if !s.nextIs(p, at) {
		return false
	}
	s.polls++
	s.resumed++
	s.now = at
	return true
}

// nextIs reports whether p, running, resuming at at would be the next
// event: every pending one later, and at within the limit.
func (s *Sim) nextIs(p *Proc, at time.Duration) bool {
	return s.running == p && !s.stopping && at <= s.limit && s.polls+1 < cancelEvery && s.nowQ.n == 0 &&
		(s.later.n == 0 || s.later.buf[s.later.head].at > at) && (len(s.events) == 0 || s.events[0].at > at)
}

// push adds e to the pending events, stamped with its order. Two queues
// spare most events the heap: nowQ for the current instant, later for
// events no earlier than the last put there (all, if steps take equal
// times). handoff takes the earliest of the three fronts.
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

// pushHeap adds e to the heap, out of line: push's common cases are the
// queues.
//
//go:noinline
func (s *Sim) pushHeap(e event) {
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
	i := 0 // sift e down from the top
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

// Proc is one simulated process, the counterpart of a goroutine, passed to
// every blocking operation; only its own process may use it.
type Proc struct {
	sim     *Sim
	id      int
	live    int // index in sim.live, -1 once finished
	fn      func(*Proc)
	co      *co // the goroutine that runs it
	failure *ProcessPanic

	pp *gp // the go policy's P it holds while it runs

	step func(*Proc) // a process that runs as steps (GoSteps); nil for a coroutine's

	burned time.Duration // CPU time of the process's finished burns
	cpu    int           // the fifo CPU it last burned on, numbered for CPUs.Log; -1 before
}

// unwinding is what a blocked process panics with to unwind when the
// simulation stops; Proc.recover ends it.
type unwinding struct{}

func (p *Proc) Now() time.Duration { return p.sim.now }

func (p *Proc) Sim() *Sim { return p.sim }

// Burned returns the CPU time the process's burns have taken, without
// waits or runtime costs: its growth while holding a resource is that
// resource's working time.
func (p *Proc) Burned() time.Duration { return p.burned }

// ID returns the process's number: 0 for the first started, then 1, 2, …
func (p *Proc) ID() int { return p.id }

// CPU returns the number of the P the process runs on under the go
// policy; -1 under fifo, whose burns take any free CPU.
func (p *Proc) CPU() int {
	if p.pp != nil {
		return p.pp.id
	}
	return -1
}

// Sleep waits for d of virtual time without holding a CPU, like a timer.
// Sleep(0) lets the other events of the current time run first.
func (p *Proc) Sleep(d time.Duration) {
	s := p.sim
	at := s.now + max(d, 0)
	if s.sched != nil && !s.stopping {
		// The goroutine gives up its P; its timer makes it runnable.
		s.push(event{at: at, p: p, kind: readyEvent})
		s.sched.release(p)
		p.park()
	} else {
		p.waitUntil(at)
	}
}

// block parks a process that waits for another one (a lock, a channel),
// giving up its P under the go policy.
func (p *Proc) block() {
	s := p.sim
	if s.sched != nil && !s.stopping {
		s.sched.release(p)
	}
	// p.park(), spelled out (see handoff)
	if c := s.handoff(p.co, p); c != nil {
		if c.pending {
			c.next()
		} else {
			c.yield(struct{}{})
		}
	}
	p.back()
}

// park blocks the process until an event resumes it. It switches in its
// own frame, as resume would not inline (see handoff).
func (p *Proc) park() {
	if c := p.sim.handoff(p.co, p); c != nil {
		if c.pending {
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

// unwound is a process run while Stop unwinds: once it is the one
// unwound (see relay), it unwinds. Out of line, so that back inlines.
//
//go:noinline
func (p *Proc) unwound() {
	s := p.sim
	s.relay(p.co)
	s.running = p
	panic(unwinding{})
}

func (p *Proc) run() {
	defer p.recover()
	p.fn(p)
}

// wake makes a blocked process resume now, after the events already
// scheduled; under the go policy, runnable on the waker's P.
func (s *Sim) wake(p *Proc) {
	if s.sched != nil {
		s.sched.ready(p, s.running)
		return
	}
	s.schedule(p, s.now)
}

// recover ends an unwinding quietly and records a real panic for the
// engine to raise.
func (p *Proc) recover() {
	r := recover()
	if _, unwound := r.(unwinding); r == nil || unwound {
		return
	}
	p.failure = &ProcessPanic{Process: p.id, At: p.sim.now, Value: r, Stack: debug.Stack()}
}

// ProcessPanic is what Run (or Stop) panics with when a process function
// panicked.
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
