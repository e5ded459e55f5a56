package blueprint

import (
	"time"

	"github.com/brewput/brewput/sim"
)

// This file applies a run's load as package model does (which mirrors
// brewput's harness), so that a blueprint of a coffee mode gives what the
// mode's model gives: the same window, queue, drops and latencies.

// window is the measured window's edges in virtual time. An order counts
// if it completes at t with start < t <= end: the readings at an edge are
// taken after every event of that instant, so this keeps orders, drops and
// meters on the same side of each edge.
type window struct{ start, end time.Duration }

func (w window) in(t time.Duration) bool { return t > w.start && t <= w.end }

// record collects what the load measured; only one process runs at a
// time, so all of them write to one.
type record struct {
	latency []time.Duration // per counted order: the call, or intended arrival to completion
	service []time.Duration // open loop: start of service to completion
	drops   int             // open loop: arrivals inside the window turned away
}

// startLoad starts l's processes on order: customers in a closed loop, a
// dispatcher and servers in an open one.
func startLoad(s *sim.Sim, l load, win window, order func(*sim.Proc), rec *record) {
	if l.Rate > 0 {
		q := &arrivals{ch: sim.NewChan[time.Duration](s, l.Queue)}
		s.Go(func(p *sim.Proc) { dispatch(p, l, win, q, rec) })
		for range l.workers {
			s.Go(func(p *sim.Proc) { serve(p, win, order, q, rec) })
		}
		return
	}
	for range l.workers {
		s.Go(func(p *sim.Proc) { customer(p, win, order, rec) })
	}
}

// customer orders, waits, and orders again; one order's end is the next
// one's start.
func customer(p *sim.Proc, win window, order func(*sim.Proc), rec *record) {
	began := p.Now()
	for {
		order(p)
		done := p.Now()
		if done > win.end {
			return
		}
		if win.in(done) {
			rec.latency = append(rec.latency, done-began)
		}
		began = done
	}
}

// serve takes arrivals off the queue and serves them; after the window it
// only drains the queue.
func serve(p *sim.Proc, win window, order func(*sim.Proc), q *arrivals, rec *record) {
	for {
		arrived := q.recv(p)
		began := p.Now()
		if began > win.end {
			continue
		}
		order(p)
		done := p.Now()
		if win.in(done) {
			rec.latency = append(rec.latency, done-arrived)
			rec.service = append(rec.service, done-began)
		}
	}
}

// dispatch puts arrivals on the queue at their intended times until the
// window ends, counting those inside the window it drops. Latency runs from
// the intended time, so an arrival the dispatcher puts on the queue late
// still counts the delay (no coordinated omission).
func dispatch(p *sim.Proc, l load, win window, q *arrivals, rec *record) {
	p.Sleep(0) // the harness's first tick: the servers get going first
	next := time.Duration(0)
	for i := 0; ; i++ {
		var at time.Duration
		if l.Arrivals == Poisson {
			next += time.Duration(p.Sim().Rand().ExpFloat64() * float64(time.Second) / l.Rate)
			at = next
		} else {
			// From i, not by adding up gaps, so rounding does not drift.
			at = time.Duration(float64(i) * float64(time.Second) / l.Rate)
		}
		if at > win.end {
			return
		}
		if wait := at - p.Now(); wait > 0 {
			p.Sleep(wait)
		}
		if !q.trySend(p, at) && win.in(at) {
			rec.drops++
		}
	}
}

// arrivals is the open loop's queue: a channel of intended arrival times
// with a buffer of the queue's length, and a send that never blocks
// (select with default, which sim.Chan lacks). A send would not block when
// a server waits in recv (the buffer is then empty) or the buffer has
// room, so arrivals counts the servers waiting.
type arrivals struct {
	ch      *sim.Chan[time.Duration]
	waiting int // servers blocked in recv on an empty queue
}

// trySend sends at if that does not block, and reports whether it did.
func (a *arrivals) trySend(p *sim.Proc, at time.Duration) bool {
	switch {
	case a.waiting > 0: // the send hands at to the longest-waiting server
		a.waiting--
	case a.ch.Len() == a.ch.Cap(): // full, or unbuffered with no server waiting
		return false
	}
	a.ch.Send(p, at)
	return true
}

// recv takes the next arrival, waiting for one if the queue is empty.
func (a *arrivals) recv(p *sim.Proc) time.Duration {
	if a.ch.Len() == 0 {
		a.waiting++ // until a trySend hands this server an arrival
	}
	return a.ch.Recv(p)
}
