package calibrate

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// switches times runtime.Gosched between two goroutines on one P: each
// call parks one goroutine and runs the other.
func switches(ctx context.Context, n int) []time.Duration {
	const batch = 1000
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
				runtime.Gosched()
			}
		}
	})
	defer wg.Wait()
	defer close(stop)
	return samples(ctx, n, func(int) time.Duration {
		start := time.Now()
		for range batch {
			runtime.Gosched()
		}
		// Each of this goroutine's calls runs the other once: two switches.
		return time.Since(start) / (2 * batch)
	})
}

// settle is how long a measurement waits for a goroutine it has made wait
// to be parked for real, its thread asleep.
const settle = 300 * time.Microsecond

// samples is n samples of one, fewer where ctx ends first (the caller
// then drops what there is).
func samples(ctx context.Context, n int, one func(i int) time.Duration) []time.Duration {
	out := make([]time.Duration, 0, n)
	for i := range n {
		if ctx.Err() != nil {
			break
		}
		out = append(out, one(i))
	}
	return out
}

// mutexHandoffs times an Unlock that wakes a goroutine asleep in Lock.
func mutexHandoffs(ctx context.Context, n int) []time.Duration {
	var mu sync.Mutex
	got := make(chan struct{})
	return samples(ctx, n, func(int) time.Duration {
		mu.Lock()
		go func() {
			mu.Lock()
			mu.Unlock()
			got <- struct{}{}
		}()
		time.Sleep(settle)
		start := time.Now()
		mu.Unlock()
		d := time.Since(start)
		<-got
		return d
	})
}

// spinsPerSample is the spins a sample of mutexSpins times: one (a PAUSE
// takes 10 to 140 cycles, by CPU) is too near the clock's resolution.
const spinsPerSample = 100

// mutexSpins times one spin of a Lock that finds its sync.Mutex held:
// the runtime's procyield(30), spelled out in this package's assembly.
func mutexSpins(ctx context.Context, n int) []time.Duration {
	return samples(ctx, n, func(int) time.Duration {
		start := time.Now()
		for range spinsPerSample {
			procyield30()
		}
		return time.Since(start) / spinsPerSample
	})
}

// chanHandoffs times a send to a goroutine asleep in a receive, on a
// channel of the given capacity.
func chanHandoffs(ctx context.Context, n, capacity int) []time.Duration {
	ch := make(chan int, capacity)
	got := make(chan struct{})
	return samples(ctx, n, func(i int) time.Duration {
		go func() {
			<-ch
			got <- struct{}{}
		}()
		time.Sleep(settle)
		start := time.Now()
		ch <- i
		d := time.Since(start)
		<-got
		return d
	})
}

// wakeBurn is how long the readier keeps its P after readying: a wake-up
// that reads as long as this never happened (the readied goroutine ran
// only when its readier blocked).
const wakeBurn = time.Millisecond

// deepIdle is long enough idle for a P's thread to have stopped spinning
// and gone to sleep.
const deepIdle = 500 * time.Microsecond

// spinIdle is the least idle time a spinning wake-up is measured after: a
// receive that has marked itself about to block is parked by then.
const spinIdle = 10 * time.Microsecond

// wakes times how long a goroutine readied by a send takes to run while
// its readier keeps its P busy, stolen by the other P, idle for idle. The
// idle time counts from the receiver about to block: else the send could
// hand over on the readier's own P, waking nothing.
func wakes(ctx context.Context, n int, idle time.Duration) []time.Duration {
	ch := make(chan time.Time)
	got := make(chan time.Duration)
	var blocking atomic.Bool
	return samples(ctx, n, func(int) time.Duration {
		blocking.Store(false)
		go func() {
			blocking.Store(true)
			sent := <-ch
			got <- time.Since(sent)
		}()
		for !blocking.Load() {
		}
		spin(idle)
		ch <- time.Now()
		spin(wakeBurn)
		return <-got
	})
}

// graces times what a 3 µs sleep of a thread lasts, as the runtime's
// usleep(3) before stealing a runnext goroutine does: the operating
// system's timer slack stretches it.
func graces(ctx context.Context, n int) []time.Duration {
	return samples(ctx, n, func(int) time.Duration {
		start := time.Now()
		threadSleep(3 * time.Microsecond)
		return time.Since(start)
	})
}

// spin busy-waits for d.
func spin(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}

// spinWindow finds how long an idle P's thread keeps spinning, bisecting
// the idle time from spinIdle to deepIdle (a wake-up nearer spinning's
// cost than sleeping's: still spinning), to an interval about 4 µs wide.
func spinWindow(ctx context.Context, samples int, spinning, sleeping time.Duration) (lo, hi time.Duration) {
	mid := (spinning + sleeping) / 2
	lo, hi = spinIdle, deepIdle
	for hi-lo > 5*time.Microsecond && ctx.Err() == nil {
		idle := (lo + hi) / 2
		if median(wakes(ctx, samples, idle)) < mid {
			lo = idle
		} else {
			hi = idle
		}
	}
	return lo, hi
}
