package calibrate

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// paddedWord is a word alone on its cache line (and its neighbour's, which
// a processor may fetch with it).
type paddedWord struct {
	_ [128]byte
	v atomic.Int64
	_ [128]byte
}

// roundTrips is how many times a sample of transfers bounces the line, at
// most: a sample whose threads were preempted ends at sampleLimit.
const (
	roundTrips  = 2000
	sampleLimit = 20 * time.Millisecond
)

// transfers times a cache line's move from one core to another: two
// pinned threads take turns writing one word; a sample is a round trip
// over movesPerRoundTrip.
func transfers(ctx context.Context, n int) []time.Duration {
	cpus := twoCPUs()
	var w, stop paddedWord
	var wg sync.WaitGroup
	start := make(chan struct{})
	done := make(chan struct{})
	// The other side echoes every odd value as the next even one.
	wg.Go(func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		defer pinThread(cpus[1])()
		for range start {
			for stop.v.Load() == 0 {
				if v := w.v.Load(); v&1 == 1 {
					w.v.Store(v + 1)
				}
			}
			done <- struct{}{}
		}
	})
	defer wg.Wait()
	defer close(start)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer pinThread(cpus[0])()
	return samples(ctx, n, func(int) time.Duration {
		w.v.Store(0)
		stop.v.Store(0)
		start <- struct{}{}
		// The sample is the quickest block of round trips: a block in
		// which either thread was descheduled reads long, and a busy
		// machine deschedules them often.
		best := time.Duration(1<<63 - 1)
		t0 := time.Now()
		for trip := int64(0); trip < roundTrips && time.Since(t0) < sampleLimit; trip += block {
			b0 := time.Now()
			for i := trip; i < trip+block; i++ {
				w.v.Store(2*i + 1)
				for w.v.Load() != 2*i+2 {
				}
			}
			best = min(best, time.Since(b0))
		}
		stop.v.Store(1)
		<-done
		return best / (movesPerRoundTrip * block)
	})
}

// movesPerRoundTrip is how many times a round trip of transfers moves the
// line in the model (sim.Line): each side's load that waits brings it, and
// that side's store takes back the copy the load left the other.
const movesPerRoundTrip = 4

// block is the round trips timed together in a sample of transfers.
const block = 64

// chanOps is how many sends and receives a sample of runtimeLocks times.
const chanOps = 1000

// runtimeLocks times an operation on a buffered channel no one else uses,
// a send or a receive: the channel's lock taken and let go around the
// operation's work, which the model charges as that lock's hold.
func runtimeLocks(ctx context.Context, n int) []time.Duration {
	ch := make(chan int, chanOps)
	return samples(ctx, n, func(int) time.Duration {
		t0 := time.Now()
		for i := range chanOps {
			ch <- i
		}
		for range chanOps {
			<-ch
		}
		return time.Since(t0) / (2 * chanOps)
	})
}
