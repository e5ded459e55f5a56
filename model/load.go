package model

import (
	"time"

	"github.com/brewput/brewput/sim"
)

// This file mirrors harness/run.go: the load a real point is measured
// under, closed loop or open loop, with the same schedule, queue, drops and
// latencies.

// clock mirrors the harness's clock: the measured window's edges, as
// offsets from the start of the run (the harness's epoch, the model's
// virtual time zero).
type clock struct {
	start, end time.Duration
}

// inWindow reports whether an operation completing at t is counted. The
// harness counts start <= t < end; in virtual time events often fall
// exactly on an edge, and the readings at an edge (meters, CPU time) are
// taken after every event of that instant, so the model counts
// start < t <= end, which keeps operations, drops and meters on the same
// side of each edge. The window's length is the same.
func (c clock) inWindow(t time.Duration) bool { return t > c.start && t <= c.end }

// record mirrors the harness workers' records, merged as Run merges them:
// only one process runs at a time, so they all write to one.
type record struct {
	latency latencies // per counted operation: the call, or intended arrival to completion
	service latencies // open loop: start of service to completion
	drops   int       // open loop: arrivals inside the window turned away
}

// startLoad starts the load cfg describes on brew, as harness.Run starts
// its goroutines: a dispatcher and cfg's servers in an open loop, cfg's
// customers in a closed one.
func startLoad(s *sim.Sim, cfg Config, brew func(*sim.Proc), rec *record) {
	c := clock{start: cfg.Warmup, end: cfg.Warmup + cfg.Duration}
	if cfg.Rate > 0 {
		queue := newArrivals(s, cfg.MaxQ)
		s.Go(func(p *sim.Proc) { dispatch(p, c, cfg.Rate, queue, rec) })
		for range cfg.customers() {
			s.Go(func(p *sim.Proc) { serve(p, c, brew, queue, rec) })
		}
		return
	}
	for range cfg.customers() {
		s.Go(func(p *sim.Proc) { loop(p, c, brew, rec) })
	}
}

// loop is a closed-loop customer: order, wait, order again. One
// operation's end is the next one's start.
func loop(p *sim.Proc, c clock, brew func(*sim.Proc), rec *record) {
	began := p.Now()
	for {
		brew(p)
		done := p.Now()
		if done > c.end {
			return
		}
		if c.inWindow(done) {
			rec.latency = append(rec.latency, done-began)
		}
		began = done
	}
}

// serve is an open-loop server: it takes arrivals off the queue and, after
// the window, only drains it.
func serve(p *sim.Proc, c clock, brew func(*sim.Proc), queue *arrivals, rec *record) {
	for {
		arrived := queue.recv(p)
		began := p.Now()
		if began > c.end {
			continue
		}
		brew(p)
		done := p.Now()
		if c.inWindow(done) {
			rec.latency = append(rec.latency, done-arrived)
			rec.service = append(rec.service, done-began)
		}
	}
}

// dispatch puts arrivals on the queue at their intended times, evenly
// spaced, until the window ends, and counts the arrivals inside the window
// it drops. When it falls behind (a late wake-up under the go policy) it
// catches up at once instead of shifting the schedule, so late arrivals
// still carry their intended time.
func dispatch(p *sim.Proc, c clock, rate float64, queue *arrivals, rec *record) {
	p.Sleep(0) // the harness's first <-timer.C of a zero timer: the servers get going first
	for i := 0; ; i++ {
		at := time.Duration(float64(i) * float64(time.Second) / rate)
		if at > c.end {
			return
		}
		if wait := at - p.Now(); wait > 0 {
			p.Sleep(wait)
		}
		if !queue.trySend(p, at) && c.inWindow(at) {
			rec.drops++
		}
	}
}

// arrivals mirrors the harness's queue, a channel of intended arrival
// times with a buffer of MaxQueue, and the dispatcher's send in a select
// with a default, which sim.Chan lacks: trySend sends only what would not
// block. A send does not block when a server is waiting to receive (the
// buffer is then empty) or when the buffer has room, so arrivals counts the
// servers blocked in recv.
type arrivals struct {
	ch      *sim.Chan[time.Duration]
	waiting int // servers blocked in recv on an empty queue
}

func newArrivals(s *sim.Sim, maxQueue int) *arrivals {
	return &arrivals{ch: sim.NewChan[time.Duration](s, maxQueue)}
}

// trySend sends at if that does not block, and reports whether it did.
func (a *arrivals) trySend(p *sim.Proc, at time.Duration) bool {
	switch {
	case a.waiting > 0: // the send hands at to the first waiting server
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
