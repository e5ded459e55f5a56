package harness

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/brewput/brewput/results"
)

// Op is the operation under measurement, e.g. ordering a latte and waiting
// for it. A returned error is counted, not fatal.
type Op func() error

// Edge is one end of the measured window.
type Edge int

const (
	WindowStart Edge = iota
	WindowEnd
)

// ErrNoOp is returned by Run when it is given a nil operation.
var ErrNoOp = errors.New("harness: nil Op")

// Run applies load l to op and returns what it measured: l.Par workers
// (GOMAXPROCS where 0), after l.Warmup, for l.Dur; through the talk's
// harness where l.Harness is "talk". onWindow, if set, runs at each edge,
// so a caller can snapshot its counters over exactly the window. A
// cancelled ctx ends Run with its error and no result.
func Run(ctx context.Context, l results.Load, op Op, onWindow func(Edge)) (Result, error) {
	if err := l.Validate(); err != nil {
		return Result{}, fmt.Errorf("harness: %w", err)
	}
	if op == nil {
		return Result{}, ErrNoOp
	}
	workers := l.Workers(runtime.GOMAXPROCS(0))
	if l.Harness == "talk" {
		return runTalk(ctx, l, workers, op, onWindow)
	}
	c := newClock(l)
	ws := make([]*worker, workers)
	for i := range ws {
		ws[i] = &worker{latency: NewHistogram()}
		if l.Open() {
			ws[i].service = NewHistogram()
		}
	}

	var wg sync.WaitGroup
	var drops int64
	if l.Open() {
		queue := make(chan time.Duration, l.MaxQ)
		wg.Go(func() { drops = dispatch(ctx, c, l.Rate, queue) })
		for _, w := range ws {
			wg.Go(func() { w.serve(c, op, queue) })
		}
	} else {
		for _, w := range ws {
			wg.Go(func() { w.loop(c, op) })
		}
	}

	res, err := watch(ctx, c, onWindow)
	wg.Wait()
	if err != nil {
		return Result{}, err
	}
	res.Drops = drops
	res.Latency = NewHistogram()
	if l.Open() {
		res.Service = NewHistogram()
	}
	for _, w := range ws {
		res.Ops += w.ops
		res.Errors += w.errors
		res.Latency.Merge(w.latency)
		if res.Service != nil {
			res.Service.Merge(w.service)
		}
	}
	return res, nil
}

// clock holds the run's schedule as monotonic offsets from epoch, the
// window's edges as they fell (maybe late on a busy machine), and the stop
// flag: operations count against the edges as they fell, so they, the
// caller's counters and the CPU time cover one interval.
type clock struct {
	epoch          time.Time
	start          time.Duration // the warm-up ends
	dur            time.Duration // the window's length
	opened, closed atomic.Int64  // the edges, at the end of time until watch sets them
	stopped        atomic.Bool
	usage          func() Usage // ReadUsage, or a test's
}

func newClock(l results.Load) *clock {
	c := &clock{epoch: time.Now(), start: l.Warmup, dur: l.Dur, usage: ReadUsage}
	c.opened.Store(math.MaxInt64)
	c.closed.Store(math.MaxInt64)
	return c
}

// An edge reads wall clock, CPU time and wall clock again, up to edgeTries
// times while the wall readings lie over edgeSlack apart: the reader was
// descheduled, and the CPU time would cover more than the window.
const (
	edgeSlack = 200 * time.Microsecond
	edgeTries = 20
)

// edge reads the wall clock and the process's usage at one instant, and
// how far apart the last try's wall readings lay.
func (c *clock) edge() (wall time.Duration, usage Usage, slack time.Duration) {
	for try := 1; ; try++ {
		w0 := c.now()
		usage = c.usage()
		w1 := c.now()
		if slack = w1 - w0; slack <= edgeSlack || try == edgeTries {
			return w1, usage, slack
		}
	}
}

func (c *clock) now() time.Duration { return time.Since(c.epoch) }

// inWindow reports whether an operation completing at t is counted.
func (c *clock) inWindow(t time.Duration) bool {
	return int64(t) >= c.opened.Load() && int64(t) < c.closed.Load()
}

func (c *clock) pastWindow(t time.Duration) bool { return int64(t) >= c.closed.Load() }

// worker is one goroutine's private record, merged after the run.
type worker struct {
	ops, errors int64
	latency     *hdrhistogram.Histogram
	service     *hdrhistogram.Histogram
}

func (w *worker) count(err error) {
	w.ops++
	if err != nil {
		w.errors++
	}
}

// loop is a closed-loop customer; one operation's end (one clock read) is
// the next one's start.
func (w *worker) loop(c *clock, op Op) {
	began := c.now()
	for !c.stopped.Load() {
		err := op()
		done := c.now()
		if c.pastWindow(done) {
			return
		}
		if c.inWindow(done) {
			record(w.latency, done-began)
			w.count(err)
		}
		began = done
	}
}

// serve is an open-loop server: it takes arrivals until the dispatcher
// closes the queue, after the window only draining it.
func (w *worker) serve(c *clock, op Op, queue <-chan time.Duration) {
	for arrived := range queue {
		began := c.now()
		if c.pastWindow(began) || c.stopped.Load() {
			continue
		}
		err := op()
		done := c.now()
		if c.inWindow(done) {
			record(w.latency, done-arrived)
			record(w.service, done-began)
			w.count(err)
		}
	}
}

// dispatch queues arrivals at their intended times until the window ends
// and returns how many in it were dropped: behind, it catches up at once,
// and those not reached before the window closed count as dropped.
func dispatch(ctx context.Context, c *clock, rate float64, queue chan<- time.Duration) (drops int64) {
	defer close(queue)
	timer := time.NewTimer(0)
	defer timer.Stop()
	<-timer.C
	for i := 0; ; i++ {
		at := arrival(i, rate)
		if c.pastWindow(at) {
			return drops
		}
		if c.stopped.Load() {
			return drops + missed(c, rate, i)
		}
		if wait := at - c.now(); wait > 0 {
			timer.Reset(wait)
			select {
			case <-timer.C:
			case <-ctx.Done():
				return drops
			}
		}
		select {
		case queue <- at:
		default:
			if c.inWindow(at) {
				drops++
			}
		}
	}
}

// arrival is the intended time of the i-th arrival at rate a second.
func arrival(i int, rate float64) time.Duration {
	return time.Duration(float64(i) * float64(time.Second) / rate)
}

// missed counts the arrivals from the i-th on due inside the closed window.
func missed(c *clock, rate float64, i int) int64 {
	opened, closed := time.Duration(c.opened.Load()), time.Duration(c.closed.Load())
	if closed == math.MaxInt64 {
		return 0 // stopped before the window closed: the run is abandoned
	}
	var n int64
	for ; ; i++ {
		at := arrival(i, rate)
		if at >= closed {
			return n
		}
		if at >= opened {
			n++
		}
	}
}

// watch waits out the warm-up and the window, then stops the workers.
// onWindow runs before the window opens and after it closes, so that a
// caller's counters hold every counted operation's use.
func watch(ctx context.Context, c *clock, onWindow func(Edge)) (Result, error) {
	defer c.stopped.Store(true)
	timer := time.NewTimer(c.start - c.now())
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-ctx.Done():
		return Result{}, ctx.Err()
	}
	if onWindow != nil {
		onWindow(WindowStart)
	}
	wall0, usage0, slack0 := c.edge()
	c.opened.Store(int64(wall0))
	timer.Reset(wall0 + c.dur - c.now()) // as long as asked, however late it opened
	select {
	case <-timer.C:
	case <-ctx.Done():
		return Result{}, ctx.Err()
	}
	wall1, usage1, slack1 := c.edge()
	c.closed.Store(int64(wall1))
	if onWindow != nil {
		onWindow(WindowEnd)
	}
	return Result{Window: wall1 - wall0, Usage: usage1.Sub(usage0), EdgeSlack: max(slack0, slack1)}, nil
}
