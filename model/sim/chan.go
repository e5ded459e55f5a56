package sim

import "math/bits"

// Chan is a virtual Go channel of T. As in Go, an unbuffered send blocks
// until a receiver takes the value, and waiters are served first come,
// first served. A handoff costs time only under the go policy.
type Chan[T any] struct {
	sim   *Sim
	cap   int
	buf   ring[T]
	recvq ring[*chanWaiter[T]]
	sendq ring[*chanWaiter[T]]
	free  []*chanWaiter[T] // reused waiters: blocking allocates nothing
	lock  *RuntimeMutex    // the go policy's: every operation takes it
	state *Line            // the go policy's: its count and indexes, which every operation writes under lock
	// slots are the go policy's lines of the buffer, slotsPerLine values
	// each, which a send writes a value into and a receive copies it out
	// of and clears, under lock; sendx and recvx are the next of each.
	slots        []*Line
	sendx, recvx int
}

// slotsPerLine is how many values of a buffer share a cache line: 8-byte
// values (an int, a pointer) of a 64-byte line.
const slotsPerLine = 8

// chanWaiter is a blocked sender with its value, or a blocked receiver
// with the slot a sender fills.
type chanWaiter[T any] struct {
	p *Proc
	v T
}

// NewChan returns a channel with a buffer of capacity values (0:
// unbuffered).
func NewChan[T any](s *Sim, capacity int) *Chan[T] {
	if capacity < 0 {
		panic("sim: NewChan with a negative capacity")
	}
	c := &Chan[T]{sim: s, cap: capacity}
	if capacity > 0 {
		c.buf.buf = make([]T, 1<<bits.Len(uint(capacity-1))) // a power of two
	}
	return c
}

func (c *Chan[T]) Len() int { return c.buf.len() }

func (c *Chan[T]) Cap() int { return c.cap }

// Send sends v: to a waiting receiver, else into the buffer, else waiting
// until a receiver takes it; under the go policy holding the channel's
// lock ([RuntimeMutex]) for Costs.RuntimeLock.
func (c *Chan[T]) Send(p *Proc, v T) {
	locks := c.sim.sched != nil
	if locks {
		c.locked(p)
	}
	if c.recvq.len() > 0 {
		w := c.recvq.pop()
		w.v = v
		c.unlock(p, locks)
		c.handoff(p, w.p)
		return
	}
	if c.buf.len() < c.cap {
		c.buf.push(v)
		if locks {
			c.slot(p, &c.sendx)
		}
		c.unlock(p, locks)
		return
	}
	w := c.waiter(p)
	w.v = v
	if locks {
		c.lock.unlock(p, func() { c.sendq.push(w) })
	} else {
		c.sendq.push(w)
	}
	p.block() // resumes once a receiver has taken v
	c.release(w)
}

// Recv receives a value: from the buffer, else from a waiting sender,
// else waiting until one is sent; under the go policy, holding the
// channel's lock as Send does.
func (c *Chan[T]) Recv(p *Proc) T {
	locks := c.sim.sched != nil
	if locks {
		c.locked(p)
	}
	if c.buf.len() > 0 {
		v := c.buf.pop()
		if locks {
			c.slot(p, &c.recvx)
		}
		if c.sendq.len() > 0 { // room now: the first waiting sender's value goes in
			w := c.sendq.pop()
			c.buf.push(w.v)
			c.sendx = c.recvx // the runtime's recv: the slot just emptied takes it
			c.unlock(p, locks)
			c.handoff(p, w.p)
			return v
		}
		c.unlock(p, locks)
		return v
	}
	if c.sendq.len() > 0 {
		w := c.sendq.pop()
		v := w.v // before the handoff: paying its cost may let the sender run, and release w
		c.unlock(p, locks)
		c.handoff(p, w.p)
		return v
	}
	w := c.waiter(p)
	if locks {
		c.lock.unlock(p, func() { c.recvq.push(w) })
	} else {
		c.recvq.push(w)
	}
	p.block() // resumes once a sender has filled w.v
	v := w.v
	c.release(w)
	return v
}

func (c *Chan[T]) waiter(p *Proc) *chanWaiter[T] {
	if n := len(c.free); n > 0 {
		w := c.free[n-1]
		c.free = c.free[:n-1]
		w.p = p
		return w
	}
	return &chanWaiter[T]{p: p}
}

func (c *Chan[T]) release(w *chanWaiter[T]) {
	*w = chanWaiter[T]{}
	c.free = append(c.free, w)
}

// handoff wakes the waiting process w on behalf of p, who pays the go
// policy's cost.
func (c *Chan[T]) handoff(p, w *Proc) {
	s := c.sim
	s.wake(w)
	if s.sched == nil {
		return
	}
	cost := s.sched.costs.ChanHandoff
	if c.cap > 0 {
		cost = s.sched.costs.BufChanHandoff
	}
	s.sched.spend(p, cost)
}

// locked takes the channel's lock for p and holds it for the operation's
// work, which writes hchan's qcount, sendx and recvx: a line of their own.
func (c *Chan[T]) locked(p *Proc) {
	if c.lock == nil {
		c.lock = NewRuntimeMutex(c.sim, "chan")
	}
	c.lock.Lock(p)
	if c.state == nil {
		c.state = NewLine(c.sim)
	}
	c.state.Write(p)
	c.sim.sched.spend(p, c.sim.sched.costs.RuntimeLock)
}

// unlock lets the channel's lock go, where the go policy took it.
func (c *Chan[T]) unlock(p *Proc, locked bool) {
	if locked {
		c.lock.Unlock(p)
	}
}

// slot writes, for p under the channel's lock, the buffer's line of the
// value at *x, and moves *x on to the next value.
func (c *Chan[T]) slot(p *Proc, x *int) {
	if c.slots == nil {
		c.slots = make([]*Line, (c.cap+slotsPerLine-1)/slotsPerLine)
	}
	l := c.slots[*x/slotsPerLine]
	if l == nil { // made as first used: a large buffer's lines are many
		l = NewLine(c.sim)
		c.slots[*x/slotsPerLine] = l
	}
	l.Write(p)
	if *x++; *x == c.cap {
		*x = 0
	}
}
