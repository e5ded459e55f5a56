package sim

import "iter"

// co is one goroutine of a simulation: a coroutine that runs processes, or
// the host, which stands for the goroutine calling RunUntil and Stop.
//
// Each coroutine is an iter.Pull, whose next and yield both switch, through
// the runtime's coroutine, between the goroutine calling them and the one
// parked in that coroutine, which then takes its place: the switch is
// symmetric. The engine uses it so: when a process blocks and the next
// event is another process's, it switches straight to that process through
// the coroutine where it is parked, and takes its place there — one switch
// per event, where going back to an engine goroutine and on to the next
// process would take two. Which goroutine is parked in which coroutine thus
// changes as the run goes: in tells where each is. A goroutine that exits
// resumes the one parked in its own coroutine, whoever that is by then;
// goroutines exit only when Stop unwinds them, and one resumed so goes
// back to the host (see relay).
//
// A coroutine whose process has finished stays, idle, to run the next
// process started: finished processes leave no goroutine behind, and
// starting one mostly reuses a coroutine.
type co struct {
	sim *Sim
	p   *Proc // the process it runs; nil when idle, and for the host

	next  func() (struct{}, bool)
	yield func(struct{}) bool
	stop  func()
	// pending mirrors iter.Pull's own state: next was called last, so the
	// next switch through this coroutine must be a yield.
	pending bool

	in *co // the coroutine it is parked in; stale while it runs

	started, exited bool
}

// newCo returns a new coroutine, not started, parked in itself.
func (s *Sim) newCo() *co {
	c := &co{sim: s}
	c.next, c.stop = iter.Pull(c.body)
	c.in = c
	s.cos = append(s.cos, c)
	return c
}

// transfer parks the running goroutine r and runs t, which must be
// parked: through the coroutine t is parked in, where r takes its place.
// It returns when another goroutine transfers back to r, or exits into it.
func (s *Sim) transfer(r, t *co) {
	c := t.in
	r.in = c
	c.enter()
	if s.stopping {
		s.relay(r)
	}
}

// relay is what goroutine r does when it runs again while Stop unwinds
// another goroutine: if that is not r, r runs only because the other
// exited into it, and it goes back to the host, which is parked where the
// unwound one was.
func (s *Sim) relay(r *co) {
	for r != &s.host && r != s.unwinding {
		h := &s.host
		c := h.in
		r.in = c
		c.enter()
	}
}

// enter switches through c's coroutine, by next or yield, whichever
// iter.Pull expects.
func (c *co) enter() {
	if c.pending {
		c.pending = false
		c.yield(struct{}{})
		return
	}
	c.pending = true
	c.next()
}

// body is what the coroutine runs: the process given to it, then, idle,
// the next one started, until Stop. It then exits into the goroutine
// parked in its own coroutine.
func (c *co) body(yield func(struct{}) bool) {
	c.yield, c.started = yield, true
	s := c.sim
	done := false
	defer func() {
		if !done { // not a panic (run recovers those) but runtime.Goexit
			if r := recover(); r != nil {
				panic(r)
			}
			panic("sim: a process called runtime.Goexit (t.FailNow or t.Fatal?); report from a process with t.Error")
		}
	}()
	for !s.stopping {
		p := c.p
		s.running = p
		p.run()
		s.running = nil
		p.fn = nil
		if s.stopping {
			break
		}
		s.finish(p)
		c.p = nil
		s.idle = append(s.idle, c)
		if s.failure != nil {
			s.transfer(c, &s.host) // RunUntil stops the simulation
		} else {
			s.dispatch(c)
		}
	}
	c.exited = true
	done = true
}
