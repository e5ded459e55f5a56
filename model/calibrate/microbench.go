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
	out := make([]time.Duration, n)
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
	for i := range out {
		if ctx.Err() != nil { // the caller drops what there is
			break
		}
		start := time.Now()
		for range batch {
			runtime.Gosched()
		}
		// Each of this goroutine's calls runs the other once: two switches.
		out[i] = time.Since(start) / (2 * batch)
	}
	close(stop)
	wg.Wait()
	return out
}

// settle is how long a measurement waits for a goroutine it has made wait
// to be parked for real, its thread asleep.
const settle = 300 * time.Microsecond

// mutexHandoffs times an Unlock that wakes a goroutine asleep in Lock.
func mutexHandoffs(ctx context.Context, n int) []time.Duration {
	out := make([]time.Duration, n)
	var mu sync.Mutex
	got := make(chan struct{})
	for i := range out {
		if ctx.Err() != nil { // the caller drops what there is
			break
		}
		mu.Lock()
		go func() {
			mu.Lock()
			mu.Unlock()
			got <- struct{}{}
		}()
		time.Sleep(settle)
		start := time.Now()
		mu.Unlock()
		out[i] = time.Since(start)
		<-got
	}
	return out
}

// spinsPerSample is how many of Lock's spins a sample of mutexSpins
// times: one lasts from tens of nanoseconds to about a microsecond
// (a PAUSE takes 10 to 140 cycles, by CPU), too near the clock's
// resolution to time alone.
const spinsPerSample = 100

// mutexSpins times one spin of a Lock that finds its sync.Mutex held:
// the runtime's procyield(30), spelled out in this package's assembly.
func mutexSpins(ctx context.Context, n int) []time.Duration {
	out := make([]time.Duration, 0, n)
	for range n {
		if ctx.Err() != nil {
			break
		}
		start := time.Now()
		for range spinsPerSample {
			procyield30()
		}
		out = append(out, time.Since(start)/spinsPerSample)
	}
	return out
}

// chanHandoffs times a send to a goroutine asleep in a receive, on a
// channel of the given capacity.
func chanHandoffs(ctx context.Context, n, capacity int) []time.Duration {
	out := make([]time.Duration, n)
	ch := make(chan int, capacity)
	got := make(chan struct{})
	for i := range out {
		if ctx.Err() != nil { // the caller drops what there is
			break
		}
		go func() {
			<-ch
			got <- struct{}{}
		}()
		time.Sleep(settle)
		start := time.Now()
		ch <- i
		out[i] = time.Since(start)
		<-got
	}
	return out
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

// wakes times how long a goroutine readied by a send takes to start running
// while its readier keeps its P busy: the readied one waits in the
// readier's runnext slot until the other P, idle for the given time, comes
// and steals it — sooner if its thread is still spinning, after a wake-up
// if it has gone to sleep. The readier busy-waits through the idle time so
// that only the other P is idle.
//
// The idle time counts from the receiver about to block in its receive,
// which it runs on the other P: counted from its go statement instead, a
// short idle time would end before the goroutine, itself waiting for the
// other P to wake, had reached its receive, and the send would find no
// receiver, block, and hand over on the readier's own P — a cheap
// "wake-up" that woke nothing.
func wakes(ctx context.Context, n int, idle time.Duration) []time.Duration {
	out := make([]time.Duration, n)
	ch := make(chan time.Time)
	got := make(chan time.Duration)
	var blocking atomic.Bool
	for i := range out {
		if ctx.Err() != nil { // the caller drops what there is
			break
		}
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
		out[i] = <-got
	}
	return out
}

// graces times what a 3 µs sleep of a thread lasts, as the runtime's
// usleep(3) before stealing a runnext goroutine does: the operating
// system's timer slack stretches it.
func graces(ctx context.Context, n int) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		if ctx.Err() != nil { // the caller drops what there is
			break
		}
		start := time.Now()
		threadSleep(3 * time.Microsecond)
		out[i] = time.Since(start)
	}
	return out
}

// spin busy-waits for d.
func spin(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}

// spinWindow finds how long an idle P's thread keeps spinning, by
// bisection of the idle time between spinIdle (spinning for sure) and deepIdle
// (asleep for sure): a readied goroutine taken nearer the spinning cost
// than the sleeping one means the thread was still spinning after that
// idle time. It returns the interval the bisection ended with, about 4 µs
// wide.
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
