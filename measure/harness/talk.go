package harness

import (
	"context"
	"sync"
	"time"

	"github.com/brewput/brewput/results"
)

// runTalk runs a closed loop through the talk's own harness: a generator
// hands requests to the workers over an unbuffered channel, and each hands
// its call's duration to one aggregator. A worker blocks on channels
// between calls, which changes how the scheduler hands CPUs around.
func runTalk(ctx context.Context, l results.Load, workers int, op Op, onWindow func(Edge)) (Result, error) {
	c := newClock(l)
	requests := make(chan struct{})
	durations := make(chan talkSample)
	agg := &worker{latency: NewHistogram()}

	var ws, rest sync.WaitGroup
	rest.Go(func() { generate(c, requests) })
	for range workers {
		ws.Go(func() { talkWorker(c, op, requests, durations) })
	}
	rest.Go(func() { agg.aggregate(c, durations) })

	res, err := watch(ctx, c, onWindow)
	ws.Wait() // the generator stops and closes requests
	close(durations)
	rest.Wait()
	if err != nil {
		return Result{}, err
	}
	res.Ops, res.Errors, res.Latency = agg.ops, agg.errors, agg.latency
	return res, nil
}

type talkSample struct {
	began, done time.Duration
	err         error
}

// generate hands out requests until the run stops.
func generate(c *clock, requests chan<- struct{}) {
	defer close(requests)
	for !c.stopped.Load() {
		requests <- struct{}{}
	}
}

// talkWorker takes a request, times the call and hands the outcome on.
func talkWorker(c *clock, op Op, requests <-chan struct{}, durations chan<- talkSample) {
	for range requests {
		began := c.now()
		err := op()
		durations <- talkSample{began: began, done: c.now(), err: err}
	}
}

// aggregate records the calls that completed inside the window.
func (w *worker) aggregate(c *clock, durations <-chan talkSample) {
	for d := range durations {
		if c.inWindow(d.done) {
			record(w.latency, d.done-d.began)
			w.count(d.err)
		}
	}
}
