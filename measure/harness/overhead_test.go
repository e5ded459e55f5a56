package harness

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/brewput/brewput/results"
)

// talkHarness measures op the way the talk's simulator does: a generator
// goroutine sends each request over a channel to the workers, and each
// worker sends every measured duration over a second channel to a single
// aggregator, which records it in the same kind of histogram. buffer is the
// capacity of both channels. It returns the operations per second it
// completed over dur.
func talkHarness(workers, buffer int, dur time.Duration, op Op) float64 {
	requests := make(chan struct{}, buffer)
	durations := make(chan time.Duration, buffer)
	done := make(chan struct{})
	go func() { // generator
		defer close(requests)
		for {
			select {
			case requests <- struct{}{}:
			case <-done:
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for range requests {
				start := time.Now()
				op()
				durations <- time.Since(start)
			}
		})
	}
	var ops int64
	aggregated := make(chan struct{})
	go func() { // aggregator
		h := NewHistogram()
		for d := range durations {
			record(h, d)
		}
		ops = h.TotalCount()
		close(aggregated)
	}()
	start := time.Now()
	time.Sleep(dur)
	close(done)
	wg.Wait()
	elapsed := time.Since(start)
	close(durations)
	<-aggregated
	return float64(ops) / elapsed.Seconds()
}

// BenchmarkOverhead compares, side by side in one run, how many no-op
// operations per second two customers get through brewput's harness and
// through a harness built the talk's way (with unbuffered and with buffered
// channels), with every operation's latency recorded in both. Each b.N
// iteration measures all three for the same duration, alternating, so that
// noise on the machine falls on all of them.
//
//	go test ./harness -run '^$' -bench Overhead -benchtime 3x
func BenchmarkOverhead(b *testing.B) {
	const workers, dur = 2, 300 * time.Millisecond
	noop := func() error { return nil }
	var ours, talk0, talk100 []float64
	for b.Loop() {
		res, err := Run(context.Background(), results.Load{Par: workers, Dur: dur}, noop, nil)
		if err != nil {
			b.Fatal(err)
		}
		ours = append(ours, res.Throughput())
		talk0 = append(talk0, talkHarness(workers, 0, dur, noop))
		talk100 = append(talk100, talkHarness(workers, 100, dur, noop))
	}
	o, t0, t100 := median(ours), median(talk0), median(talk100)
	b.ReportMetric(o, "brewput-ops/s")
	b.ReportMetric(t0, "talk-unbuf-ops/s")
	b.ReportMetric(t100, "talk-buf100-ops/s")
	b.ReportMetric(o/max(t0, t100), "x-best-talk")
	b.ReportMetric(float64(time.Second)/o*workers, "ns/op-per-worker")
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	for i := range s { // insertion sort: a handful of values
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

// BenchmarkClosedLoopOp is the per-operation cost of brewput's closed loop
// with one worker and a no-op: what the harness adds to every operation.
func BenchmarkClosedLoopOp(b *testing.B) {
	var total float64
	for b.Loop() {
		res, err := Run(context.Background(), results.Load{Par: 1, Dur: 300 * time.Millisecond}, func() error { return nil }, nil)
		if err != nil {
			b.Fatal(err)
		}
		total += float64(time.Second) / res.Throughput()
	}
	b.ReportMetric(total/float64(b.N), "ns/harness-op")
}
