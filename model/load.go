package model

import (
	"math/rand/v2"
	"time"

	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
)

// load mirrors harness/run.go: Par closed-loop customers (Starts delay
// them), or Rate arrivals a second, even unless Poisson, into a queue of
// MaxQ for Par servers. Drain is the talk's protocol.
type load struct {
	results.Load
	Poisson bool
	Seed    uint64
	Drain   bool
	Starts  []time.Duration
}

// goWorker starts closed-loop worker i, after its start delay.
func (l load) goWorker(s *sim.Sim, i int, work func(*sim.Proc)) {
	s.Go(func(p *sim.Proc) {
		if i < len(l.Starts) && l.Starts[i] > 0 {
			p.Sleep(l.Starts[i])
		}
		work(p)
	})
}

// record is what a load measured, its workers' records merged.
type record struct {
	Latency  []time.Duration // per counted operation: the call, or intended arrival to completion
	Service  []time.Duration // open loop: start of service to completion
	Drops    int             // open loop: arrivals inside the window turned away
	Arrived  int             // an open loop's arrivals in the window
	InSystem int             // requests queued or in service now
	Cycles   time.Duration   // a closed loop's counted cycles, summed, as Little's law counts
	Issued   int             // the talk protocol's requests
	Last     time.Duration   // and its last call
	Done     []int           // each closed-loop customer's operations in the window
}

// window is the measured window's edges, as offsets from the start.
type window struct {
	start, end time.Duration
}

// in reports whether an operation completing at t is counted: (start,
// end], for readings at an edge come after its instant's events.
func (w window) in(t time.Duration) bool { return t > w.start && t <= w.end }

// start starts l's processes on op, as harness.Run does; a closed loop's
// customers run as steps where order, not nil, makes each one's Order.
func (l load) start(s *sim.Sim, op func(*sim.Proc), order func() *blueprint.Order, rec *record) {
	w := window{start: l.Warmup, end: l.Warmup + l.Dur}
	if l.Rate > 0 {
		queue := &arrivals{ch: sim.NewChan[time.Duration](s, l.MaxQ)}
		s.Go(func(p *sim.Proc) { dispatch(p, w, l, queue, rec) })
		for range l.Par {
			s.Go(func(p *sim.Proc) { serve(p, w, op, queue, rec) })
		}
		return
	}
	if l.Harness == "talk" {
		l.startTalk(s, op, rec)
		return
	}
	rec.Done = make([]int, l.Par)
	for i := range l.Par {
		if order != nil {
			l.goSteps(s, i, w, order(), rec)
			continue
		}
		l.goWorker(s, i, func(p *sim.Proc) { loop(p, w, op, rec, i) })
	}
}

// loop is closed-loop customer i: order, wait, order again.
func loop(p *sim.Proc, w window, op func(*sim.Proc), rec *record, i int) {
	began := p.Now()
	for {
		op(p)
		done := p.Now()
		if done > w.end {
			return
		}
		rec.ordered(w, i, began, done)
		began = done
	}
}

// goSteps is goWorker starting loop, as a process that runs as steps: o
// makes its orders.
func (l load) goSteps(s *sim.Sim, i int, w window, o *blueprint.Order, rec *record) {
	delayed := i < len(l.Starts) && l.Starts[i] > 0
	started := false
	var began time.Duration
	s.GoSteps(func(p *sim.Proc) {
		if !started {
			if delayed {
				delayed = false
				p.After(l.Starts[i])
				return
			}
			started, began = true, p.Now()
		}
		for o.Run(p) {
			done := p.Now()
			if done > w.end {
				return
			}
			rec.ordered(w, i, began, done)
			began = done
		}
	})
}

// ordered counts customer i's operation from began to done, if in w.
func (rec *record) ordered(w window, i int, began, done time.Duration) {
	if w.in(done) {
		rec.Latency = append(rec.Latency, done-began)
		rec.Cycles += done - began
		rec.Done[i]++
	}
}

// serve is an open-loop server; after the window it only drains.
func serve(p *sim.Proc, w window, op func(*sim.Proc), queue *arrivals, rec *record) {
	for {
		arrived := queue.recv(p)
		began := p.Now()
		if began > w.end {
			rec.InSystem--
			continue
		}
		op(p)
		done := p.Now()
		rec.InSystem--
		if w.in(done) {
			rec.Latency = append(rec.Latency, done-arrived)
			rec.Service = append(rec.Service, done-began)
		}
	}
}

// dispatch puts arrivals on the queue at their intended times (catching
// up late), counting those it drops.
func dispatch(p *sim.Proc, w window, l load, queue *arrivals, rec *record) {
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

// arrivalStream sets the arrivals' source apart from the steps'.
const arrivalStream = 0xa221

// arrivals mirrors the harness's queue and its non-blocking send.
type arrivals struct {
	ch      *sim.Chan[time.Duration]
	waiting int // servers blocked in recv on an empty queue
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
