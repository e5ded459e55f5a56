package model

import (
	"math/rand/v2"
	"time"

	"github.com/brewput/brewput/model/sim"
)

// This file mirrors harness/run.go: the load a real point is measured
// under, closed loop or open loop, with the same schedule, queue, drops and
// latencies.

// Load is the load a simulated point runs under, as a results.Load
// describes a real one: Workers closed-loop customers, or, when Rate is
// positive, Rate arrivals per second into a queue of at most MaxQ, taken by
// Workers servers. Arrivals are evenly spaced, as the harness spaces them,
// unless Poisson asks for exponential gaps (for user models). What
// completes in the window after Warmup, Duration long, is counted.
type Load struct {
	Workers          int
	Rate             float64
	MaxQ             int
	Poisson          bool
	Warmup, Duration time.Duration
	// Seed seeds the Poisson arrivals' own source, apart from the draws
	// of the steps, so that simulations that differ in their steps alone
	// (a causal profile's reliefs) meet the same arrivals.
	Seed uint64
	// Talk, in a closed loop, puts the talk's own harness in place of
	// brewput's: a generator hands requests to the workers over a channel,
	// and each worker hands its call's duration to an aggregator over
	// another (see talkload.go).
	Talk bool
	// Drain, with Talk, is the talk's own protocol instead of a window in
	// the steady state: no warm-up, requests handed out for Duration from
	// the start, then every one served and counted (Record.Issued,
	// Record.Last); the run's throughput is the calls over the time until
	// the last one ended, as the talk's "thru" is ops over wall time.
	Drain bool
	// Starts, in a closed loop, delays each worker's start (see
	// Config.Phase); nil or short starts the rest at once.
	Starts []time.Duration
}

// startAfter is how long worker i waits before its first operation.
func (l Load) startAfter(i int) time.Duration {
	if i < len(l.Starts) {
		return l.Starts[i]
	}
	return 0
}

// Record is what a Load measured in its window, as the harness workers'
// records merged: only one process runs at a time, so they all write to
// one.
type Record struct {
	Latency []time.Duration // per counted operation: the call, or intended arrival to completion
	Service []time.Duration // open loop: start of service to completion
	Drops   int             // open loop: arrivals inside the window turned away
	// Arrived, in an open loop, counts the arrivals inside the window,
	// those dropped included; InSystem is the requests queued or in
	// service now.
	Arrived  int
	InSystem int
	// Cycles is the sum, over the counted operations of a closed loop, of
	// the time from the end of the worker's previous operation to the end
	// of this one: the latency itself in brewput's harness, the latency and
	// the wait for a request in the talk's. Little's law holds for it.
	Cycles time.Duration
	// Issued and Last, for the talk's protocol (Load.Drain): the requests
	// handed out, and when the aggregator received the last duration.
	Issued int
	Last   time.Duration
}

// window mirrors the harness's clock: the measured window's edges, as
// offsets from the start of the run (the harness's epoch, the model's
// virtual time zero).
type window struct {
	start, end time.Duration
}

// in reports whether an operation completing at t is counted. The harness
// counts start <= t < end; in virtual time events often fall exactly on an
// edge, and the readings at an edge (meters, CPU time) are taken after
// every event of that instant, so the model counts start < t <= end, which
// keeps operations, drops and meters on the same side of each edge. The
// window's length is the same.
func (w window) in(t time.Duration) bool { return t > w.start && t <= w.end }

// Start starts l's processes on op in s, as harness.Run starts its
// goroutines — a dispatcher and the servers in an open loop, the customers
// in a closed one — recording into rec.
func (l Load) Start(s *sim.Sim, op func(*sim.Proc), rec *Record) {
	l.start(s, opFunc(op), rec)
}

// brewer is what a load's processes run once per operation: a shop, or
// the op given to Start. A shop is called through this interface, not a
// method value, whose wrapper would be a frame more to return from, with a
// mispredicted return, after the operation's last switch of coroutines.
type brewer interface{ brew(p *sim.Proc) }

// opFunc is an op given to Start, as a brewer.
type opFunc func(*sim.Proc)

func (op opFunc) brew(p *sim.Proc) { op(p) }

// start is Start with a brewer.
func (l Load) start(s *sim.Sim, op brewer, rec *Record) {
	w := window{start: l.Warmup, end: l.Warmup + l.Duration}
	if l.Rate > 0 {
		queue := newArrivals(s, l.MaxQ)
		s.Go(func(p *sim.Proc) { dispatch(p, w, l, queue, rec) })
		for range l.Workers {
			s.Go(func(p *sim.Proc) { serve(p, w, op, queue, rec) })
		}
		return
	}
	if l.Talk {
		l.startTalk(s, op, rec)
		return
	}
	for i := range l.Workers {
		after := l.startAfter(i)
		s.Go(func(p *sim.Proc) {
			if after > 0 {
				p.Sleep(after)
			}
			loop(p, w, op, rec)
		})
	}
}

// loop is a closed-loop customer: order, wait, order again. One
// operation's end is the next one's start.
func loop(p *sim.Proc, w window, op brewer, rec *Record) {
	began := p.Now()
	for {
		op.brew(p)
		done := p.Now()
		if done > w.end {
			return
		}
		if w.in(done) {
			rec.Latency = append(rec.Latency, done-began)
			rec.Cycles += done - began
		}
		began = done
	}
}

// serve is an open-loop server: it takes arrivals off the queue and, after
// the window, only drains it.
func serve(p *sim.Proc, w window, op brewer, queue *arrivals, rec *Record) {
	for {
		arrived := queue.recv(p)
		began := p.Now()
		if began > w.end {
			rec.InSystem--
			continue
		}
		op.brew(p)
		done := p.Now()
		rec.InSystem--
		if w.in(done) {
			rec.Latency = append(rec.Latency, done-arrived)
			rec.Service = append(rec.Service, done-began)
		}
	}
}

// dispatch puts arrivals on the queue at their intended times until the
// window ends, and counts the arrivals inside the window it drops. When it
// falls behind (a late wake-up under the go policy) it catches up at once
// instead of shifting the schedule, so late arrivals still carry their
// intended time (no coordinated omission).
func dispatch(p *sim.Proc, w window, l Load, queue *arrivals, rec *Record) {
	p.Sleep(0) // the harness's first <-timer.C of a zero timer: the servers get going first
	gaps := rand.New(rand.NewPCG(l.Seed, arrivalStream))
	var next time.Duration
	for i := 0; ; i++ {
		at := time.Duration(float64(i) * float64(time.Second) / l.Rate) // from i: no drift
		if l.Poisson {
			next += time.Duration(gaps.ExpFloat64() * float64(time.Second) / l.Rate)
			at = next
		}
		if at > w.end {
			return
		}
		if wait := at - p.Now(); wait > 0 {
			p.Sleep(wait)
		}
		sent := queue.trySend(p, at)
		if sent {
			rec.InSystem++
		}
		if w.in(at) {
			rec.Arrived++
			if !sent {
				rec.Drops++
			}
		}
	}
}

// arrivalStream tells the arrivals' source apart from others seeded
// with the same seed.
const arrivalStream = 0xa221

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
