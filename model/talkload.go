package model

import (
	"time"

	"github.com/brewput/brewput/model/sim"
)

// This file mirrors harness/talk.go: a generator, workers, an aggregator.

// talkSample is a call's cycle's start, its start and end.
type talkSample struct {
	cycle, began, done time.Duration
}

// startTalk starts the talk harness's processes in the order the
// harness's talk loop starts its goroutines.
func (l load) startTalk(s *sim.Sim, op func(*sim.Proc), rec *record) {
	w := window{start: l.Warmup, end: l.Warmup + l.Dur}
	if l.Drain {
		w = window{start: -1, end: l.Dur}
	}
	requests := sim.NewChan[struct{}](s, 0)
	durations := sim.NewChan[talkSample](s, 0)
	s.Go(func(p *sim.Proc) { generate(p, w, requests, rec) })
	for i := range l.Par {
		l.goWorker(s, i, func(p *sim.Proc) { talkWorker(p, w, op, requests, durations) })
	}
	s.Go(func(p *sim.Proc) { aggregate(p, w, l.Drain, durations, rec) })
}

// generate hands out requests until the window is over, counting them.
func generate(p *sim.Proc, w window, requests *sim.Chan[struct{}], rec *record) {
	for p.Now() < w.end {
		requests.Send(p, struct{}{})
		rec.Issued++
	}
}

// talkWorker takes a request, times the call, and hands it on.
func talkWorker(p *sim.Proc, w window, op func(*sim.Proc), requests *sim.Chan[struct{}], durations *sim.Chan[talkSample]) {
	last := p.Now()
	for {
		requests.Recv(p)
		began := p.Now()
		op(p)
		done := p.Now()
		durations.Send(p, talkSample{cycle: last, began: began, done: done})
		last = done
	}
}

// aggregate records the calls that ended in the window (draining, all).
func aggregate(p *sim.Proc, w window, drain bool, durations *sim.Chan[talkSample], rec *record) {
	for {
		d := durations.Recv(p)
		if drain || w.in(d.done) {
			rec.Latency = append(rec.Latency, d.done-d.began)
			rec.Cycles += d.done - d.cycle
			rec.Last = p.Now()
		}
	}
}
