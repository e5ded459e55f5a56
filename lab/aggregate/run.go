package aggregate

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/measure/burn"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/results"
)

const Unit = "events/s"

// Run measures, at each CPU count, every combination of c's producer
// counts and buffer sizes both ways, in turns; a point is the median run,
// Latency from an event's making to the end of its call.
func Run(ctx context.Context, c Config, cpus []int, progress func(results.LabEvent)) ([]results.Point, error) {
	return lab.Sweep(ctx, c, cpus, progress, func(n int, add lab.Add) error {
		for _, p := range c.Producers {
			for _, s := range c.Buffers {
				pair, speedup, err := measurePair(ctx, c, n, p, s)
				if err != nil {
					return err
				}
				add(pair[0], results.LabPoint{})
				add(pair[1], results.LabPoint{Vs: results.Interval(speedup)})
			}
		}
		return nil
	})
}

// measurePair measures one combination both ways on n CPUs: the single
// point, the grouped one, and grouped's speedup.
func measurePair(ctx context.Context, c Config, n, producers, buffer int) ([2]results.Point, lab.Interval, error) {
	strategies := [2]string{Single, Grouped}
	var outs [2][]outcome // by strategy
	err := lab.Turns(ctx, c.Reps, 2, func(rep, k int) error {
		i := (k + rep) % 2 // take turns at going first
		out, err := pipeline(ctx, c, i == 1, producers, buffer)
		if err != nil {
			return err
		}
		if err := out.check(i == 1); err != nil {
			return fmt.Errorf("%s %s cpus=%d: %w", Name, Variant(strategies[i], producers, buffer), n, err)
		}
		outs[i] = append(outs[i], out)
		return nil
	})
	if err != nil {
		return [2]results.Point{}, lab.Interval{}, err
	}
	var pair [2]results.Point
	for i := range pair {
		med, w, _ := lab.Median(outs[i], func(o outcome) sweep.Window { return o.window }, outcome.rate)
		p, err := point(c, strategies[i], med, w, n, producers, buffer)
		if err != nil {
			return pair, lab.Interval{}, err
		}
		pair[i] = p
	}
	var ratios []float64
	for k := range min(len(outs[0]), len(outs[1])) {
		if single, grouped := outs[0][k], outs[1][k]; single.events > 0 && grouped.window.Wall > 0 {
			ratios = append(ratios, grouped.rate()/single.rate())
		}
	}
	speedup := lab.IntervalOf(ratios)
	speedup.Set(&pair[1], MetricSpeedup)
	return pair, speedup, nil
}

func point(c Config, strategy string, out outcome, w sweep.Window, n, producers, buffer int) (results.Point, error) {
	t := lab.Timing{Window: w, Par: producers, Ops: out.events, Hist: out.latency}
	return t.Point(Name, Variant(strategy, producers, buffer), n, Unit, map[results.Metric]float64{
		MetricProducers:       float64(producers),
		MetricBuffer:          float64(buffer),
		MetricEvents:          float64(out.events),
		MetricCalls:           float64(out.calls),
		MetricEventsPerCall:   float64(out.events) / float64(out.calls),
		MetricStreamRunLength: float64(out.events) / float64(out.streamRuns),
		MetricLost:            float64(out.lost()),
		MetricRunLength:       c.RunLength,
		MetricHandleCostUs:    float64(c.HandleCost) / float64(time.Microsecond),
	})
}

type outcome struct {
	produced, handled         [types]int64 // by type
	events, calls, streamRuns int64        // as the consumer counts them
	window                    sweep.Window // from starting the producers to the consumer's return
	latency                   *hdrhistogram.Histogram
}

func (o outcome) rate() float64 { return float64(o.events) / o.window.Wall.Seconds() }

func (o outcome) lost() int64 {
	var n int64
	for t := range types {
		n += o.produced[t] - o.handled[t]
	}
	return n
}

// check fails unless every type's events were handled as many times as
// produced and received and, grouped, each run as received made one call.
func (o outcome) check(grouped bool) error {
	var total int64
	var diff []string // the error's parts
	for t := range types {
		total += o.produced[t]
		if o.produced[t] != o.handled[t] {
			diff = append(diff, fmt.Errorf("%v: %d handled of %d", Type(t), o.handled[t], o.produced[t]).Error())
		}
	}
	if total != o.events {
		diff = append(diff, fmt.Errorf("%d received", o.events).Error())
	}
	if grouped && diff == nil && o.calls != o.streamRuns {
		return fmt.Errorf("%d runs of one type received, grouped into %d calls", o.streamRuns, o.calls)
	}
	if diff != nil {
		return fmt.Errorf("%d events produced, %d lost (%s)", total, o.lost(), strings.Join(diff, ", "))
	}
	return nil
}

// pipeline runs producers goroutines that share c.Events events on a
// channel of buffer, and one consumer that handles them.
func pipeline(ctx context.Context, c Config, grouped bool, producers, buffer int) (outcome, error) {
	out := outcome{latency: lab.NewHist(time.Hour)}
	ch := make(chan Event, buffer)
	cons := &consumer{
		handle: func(t Type, count int) {
			burn.Wall.Burn(c.HandleCost)
			out.handled[t] += int64(count)
		},
		latency: out.latency,
	}
	sent := make([][types]int64, producers)
	streams := make([]*stream, producers)
	for i := range streams {
		streams[i] = newStream(c.Seed, i, c.RunLength)
	}

	var pwg, cwg sync.WaitGroup
	sw := sweep.StartStopwatch()
	cons.base = sw.Start()
	cwg.Go(func() { cons.consume(ch, grouped) })
	for i := range producers {
		pwg.Go(func() { sent[i] = produce(ctx, ch, streams[i], lab.Share(c.Events, producers, i), sw.Start()) })
	}
	pwg.Wait()
	close(ch)
	cwg.Wait()
	out.window = sw.Stop()
	var total int64
	for _, s := range sent {
		for t := range types {
			out.produced[t] += s[t]
			total += s[t]
		}
	}
	if total < int64(c.Events) {
		return outcome{}, ctx.Err() // a producer stopped early: only ctx makes one
	}
	out.events, out.calls, out.streamRuns = cons.events, cons.calls, cons.streamRuns
	return out, nil
}

// Timing every event would add two clock reads to what costs a channel
// operation, and a look at the context is not free beside a send.
const (
	sampleEvery = 16
	ctxEvery    = 1024
)

// stream makes one producer's events: runs of geometric length of mean
// runLength, each of another type than the one before.
type stream struct {
	rng  *rand.Rand
	stay float64 // probability that the next event continues the run
	cur  Type
	n    int
}

func newStream(seed uint64, id int, runLength float64) *stream {
	return &stream{
		rng:  rand.New(rand.NewPCG(seed, uint64(id)^0x9e3779b97f4a7c15)),
		stay: 1 - 1/runLength,
	}
}

func (s *stream) next() Type {
	switch {
	case s.n == 0:
		s.cur = Type(s.rng.IntN(types))
	case s.rng.Float64() >= s.stay:
		s.cur = (s.cur + 1 + Type(s.rng.IntN(types-1))) % types
	}
	s.n++
	return s.cur
}

// produce sends n events of s on ch (fewer once ctx is done), each
// sampleEvery-th stamped with its birth, and counts them by type.
func produce(ctx context.Context, ch chan<- Event, s *stream, n int, base time.Time) (sent [types]int64) {
	for i := range n {
		if i%ctxEvery == ctxEvery-1 && ctx.Err() != nil {
			return sent
		}
		e := Event{Type: s.next()}
		if i%sampleEvery == 0 {
			e.born = max(int64(time.Since(base)), 1)
		}
		ch <- e
		sent[e.Type]++
	}
	return sent
}
