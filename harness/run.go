package harness

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Run applies the load cfg describes to op and returns what it measured.
// It returns early with ctx's error, and no result, if ctx is cancelled
// first; a run cut short has no honest numbers to give.
func Run(ctx context.Context, cfg Config, op Op) (Result, error) {
	if err := cfg.Validate(); err != nil {
		return Result{}, err
	}
	if op == nil {
		return Result{}, ErrNoOp
	}
	// All times are offsets on the monotonic clock from one epoch, read with
	// time.Since, which costs a single clock read.
	c := clock{epoch: time.Now(), start: cfg.Warmup, end: cfg.Warmup + cfg.Duration}

	workers := make([]*worker, cfg.Workers)
	for i := range workers {
		workers[i] = &worker{latency: NewHistogram()}
		if cfg.Rate > 0 {
			workers[i].service = NewHistogram()
		}
	}

	var wg sync.WaitGroup
	var drops int64
	if cfg.Rate > 0 {
		queue := make(chan time.Duration, cfg.MaxQueue)
		wg.Go(func() { drops = dispatch(ctx, &c, cfg.Rate, queue) })
		for _, w := range workers {
			wg.Go(func() { w.serve(&c, op, queue) })
		}
	} else {
		for _, w := range workers {
			wg.Go(func() { w.loop(&c, op) })
		}
	}

	res, err := watch(ctx, &c, cfg.OnWindow)
	wg.Wait()
	if err != nil {
		return Result{}, err
	}
	res.Drops = drops
	res.Latency = NewHistogram()
	if cfg.Rate > 0 {
		res.Service = NewHistogram()
	}
	for _, w := range workers {
		res.Ops += w.ops
		res.Errors += w.errors
		res.Latency.Merge(w.latency)
		if res.Service != nil {
			res.Service.Merge(w.service)
		}
	}
	return res, nil
}

// clock holds the run's schedule, as offsets from epoch, and the flag that
// stops every goroutine early.
type clock struct {
	epoch      time.Time
	start, end time.Duration
	stopped    atomic.Bool
}

func (c *clock) now() time.Duration { return time.Since(c.epoch) }

// inWindow reports whether an operation completing at t is counted.
func (c *clock) inWindow(t time.Duration) bool { return t >= c.start && t < c.end }

// worker is one goroutine's private record, merged after the run so the hot
// path shares no memory with other workers.
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

// loop is a closed-loop customer: order, wait, order again. One operation's
// end is the next one's start, so each costs a single clock read; all that
// falls between two operations is the recording, a few nanoseconds.
func (w *worker) loop(c *clock, op Op) {
	began := c.now()
	for !c.stopped.Load() {
		err := op()
		done := c.now()
		if done >= c.end {
			return
		}
		if done >= c.start {
			record(w.latency, done-began)
			w.count(err)
		}
		began = done
	}
}

// serve is an open-loop server: it takes arrivals off the queue until the
// dispatcher closes it, and after the window only drains it.
func (w *worker) serve(c *clock, op Op, queue <-chan time.Duration) {
	for arrived := range queue {
		began := c.now()
		if began >= c.end || c.stopped.Load() {
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

// dispatch puts arrivals on the queue at their intended times until the
// window ends and returns how many arrivals inside the window it dropped.
// When it falls behind (a busy CPU delays its timer) it catches up at once
// instead of shifting the schedule, so late arrivals still carry their
// intended time.
func dispatch(ctx context.Context, c *clock, rate float64, queue chan<- time.Duration) (drops int64) {
	defer close(queue)
	timer := time.NewTimer(0)
	defer timer.Stop()
	<-timer.C
	for i := 0; ; i++ {
		at := time.Duration(float64(i) * float64(time.Second) / rate)
		if at >= c.end || c.stopped.Load() {
			return drops
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

// watch waits out the warm-up and the window, reading the process's CPU time
// and calling onWindow at each edge, then stops the workers.
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
	cpu0, wall0 := ProcessCPU(), c.now()

	timer.Reset(c.end - c.now())
	select {
	case <-timer.C:
	case <-ctx.Done():
		return Result{}, ctx.Err()
	}
	cpu1, wall1 := ProcessCPU(), c.now()
	if onWindow != nil {
		onWindow(WindowEnd)
	}
	return Result{
		Window:  c.end - c.start,
		CPU:     cpu1 - cpu0,
		CPUWall: wall1 - wall0,
	}, nil
}
