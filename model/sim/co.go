package sim

import "iter"

// co is one goroutine of a simulation: a coroutine that runs processes (one
// after another), or the host, which calls RunUntil and Stop.
//
// iter.Pull's next and yield switch symmetrically: the caller parks in the
// coroutine and the one parked there runs. So a blocking process switches
// straight to the next event's, taking its place: one switch per event, not
// two through an engine goroutine. in tracks where each is parked.
type co struct {
	sim *Sim
	p   *Proc // the process it runs; nil when idle, and for the host

	next  func() (struct{}, bool)
	yield func(struct{}) bool
	stop  func()
	// pending mirrors iter.Pull's state: next was called last, so the next
	// switch through this coroutine must be a yield.
	pending bool

	in *co // the coroutine it is parked in; stale while it runs

	started, exited bool
}

func (s *Sim) newCo() *co {
	c := &co{sim: s}
	c.next, c.stop = iter.Pull(c.body)
	c.in = c
	s.cos = append(s.cos, c)
	return c
}

// transfer parks the running goroutine r where the parked t is and runs t.
// It returns when r runs again.
func (s *Sim) transfer(r, t *co) {
	c := t.in
	r.in = c
	c.enter()
	if s.stopping {
		s.relay(r)
	}
}

// relay is goroutine r running again while Stop unwinds: unless r is the
// host or the one unwound, the unwound one exited into it, and r goes
// back to the host, parked where the unwound one was.
func (s *Sim) relay(r *co) {
	for r != &s.host && r != s.unwinding {
		h := &s.host
		c := h.in
		r.in = c
		c.enter()
	}
}

// enter switches through c's coroutine, flipping pending.
func (c *co) enter() {
	c.pending = !c.pending
	c.resume()
}

// resume switches through c's coroutine, by next or yield as pending (set
// for this switch) says.
func (c *co) resume() {
	if c.pending {
		c.next()
	} else {
		c.yield(struct{}{})
	}
}

// body runs the coroutine's processes until Stop. On exit it resumes
// whoever is parked in its coroutine (see relay).
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
