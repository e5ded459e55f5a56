package model

import (
	"time"

	"github.com/brewput/brewput/model/sim"
)

// This file mirrors harness/talk.go: the talk's own harness, a generator
// process handing requests over an unbuffered channel to the workers, each
// of which times its call and hands the duration over a second unbuffered
// channel to one aggregator process.

// talkSample is what a talk worker hands the aggregator: when its call
// began and ended, and when its previous call ended (the start of its
// cycle: the wait for a request is in the cycle, not in the latency).
type talkSample struct {
	cycle, began, done time.Duration
}

// startTalk starts the talk harness's processes on op in s: the generator,
// l.Workers workers and the aggregator, in that order, as the harness's
// talk loop starts its goroutines.
func (l Load) startTalk(s *sim.Sim, op brewer, rec *Record) {
	w := window{start: l.Warmup, end: l.Warmup + l.Duration}
	if l.Drain {
		w = window{start: -1, end: l.Duration}
	}
	requests := sim.NewChan[struct{}](s, 0)
	durations := sim.NewChan[talkSample](s, 0)
	s.Go(func(p *sim.Proc) { generate(p, w, requests, rec) })
	for i := range l.Workers {
		after := l.startAfter(i)
		s.Go(func(p *sim.Proc) {
			if after > 0 {
				p.Sleep(after)
			}
			talkWorker(p, w, op, requests, durations)
		})
	}
	s.Go(func(p *sim.Proc) { aggregate(p, w, l.Drain, durations, rec) })
}

// generate hands out requests as fast as the workers take them, until the
// window is over, counting them.
func generate(p *sim.Proc, w window, requests *sim.Chan[struct{}], rec *Record) {
	for p.Now() < w.end {
		requests.Send(p, struct{}{})
		rec.Issued++
	}
}

// talkWorker takes a request, times the call from when it starts running
// it, and hands the duration to the aggregator.
func talkWorker(p *sim.Proc, w window, op brewer, requests *sim.Chan[struct{}], durations *sim.Chan[talkSample]) {
	last := p.Now()
	for {
		requests.Recv(p)
		began := p.Now()
		op.brew(p)
		done := p.Now()
		durations.Send(p, talkSample{cycle: last, began: began, done: done})
		last = done
	}
}

// aggregate records the durations of the calls that ended in the window
// or, draining, of every call, and when the last one ended.
func aggregate(p *sim.Proc, w window, drain bool, durations *sim.Chan[talkSample], rec *Record) {
	for {
		d := durations.Recv(p)
		if drain || w.in(d.done) {
			rec.Latency = append(rec.Latency, d.done-d.began)
			rec.Cycles += d.done - d.cycle
			rec.Last = p.Now()
		}
	}
}
