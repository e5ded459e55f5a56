package calibrate

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// paddedWord is a word alone on its cache line.
type paddedWord struct {
	_ [64]byte
	v atomic.Int64
	_ [64]byte
}

// roundTrips is how many times a sample of transfers bounces the line,
// at most: one whose partner thread was preempted ends at sampleLimit.
const (
	roundTrips  = 2000
	sampleLimit = 20 * time.Millisecond
)

// transfers times a cache line's move from one core to another: two
// goroutines, each on a thread of its own pinned to a CPU of its own
// (where the system lets it), take turns writing one word, each waiting
// to see the other's write; a sample is the time of a round trip's half.
func transfers(ctx context.Context, n int) []time.Duration {
	cpus := twoCPUs()
	var w paddedWord
	var wg sync.WaitGroup
	start := make(chan struct{})
	done := make(chan struct{})
	// The other side echoes every odd value as the next even one, until
	// it reads -1, which a compare-and-swap cannot overwrite.
	wg.Go(func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		pinThread(cpus[1])
		for range start {
			for {
				v := w.v.Load()
				if v == -1 {
					break
				}
				if v&1 == 1 {
					w.v.CompareAndSwap(v, v+1)
				}
			}
			done <- struct{}{}
		}
	})
	defer wg.Wait()
	defer close(start)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	pinThread(cpus[0])
	defer unpinThread()
	return samples(ctx, n, func(int) time.Duration {
		w.v.Store(0)
		start <- struct{}{}
		t0 := time.Now()
		trips := int64(0)
		for ; trips < roundTrips; trips++ {
			if trips%64 == 63 && time.Since(t0) > sampleLimit {
				break
			}
			w.v.Store(2*trips + 1)
			for w.v.Load() != 2*trips+2 {
			}
		}
		d := time.Since(t0)
		w.v.Store(-1)
		<-done
		return d / time.Duration(2*trips)
	})
}

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
