package curves

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Options say what Measure measures; zero takes the defaults.
type Options struct {
	Cells   []Cell        // Grid's where nil
	CPUs    []int         // Counts(runtime.NumCPU())'s where nil
	Repeats int           // 3
	Dur     time.Duration // of each repeat of a cell on a count: 20 ms
}

// warmup is how long a cell runs before it is counted: its goroutines
// started, the lock's waiters queued as they will stay.
const warmup = 3 * time.Millisecond

// Measure runs every cell on every count, each Repeats times (round all of
// them, to spread a disturbance), under GOMAXPROCS of the count. It
// returns what it measured when ctx ends, and ctx's error.
func Measure(ctx context.Context, opt Options) (*Curves, error) {
	if opt.Cells == nil {
		opt.Cells = Grid()
	}
	if opt.CPUs == nil {
		opt.CPUs = Counts(runtime.NumCPU())
	}
	if opt.Repeats == 0 {
		opt.Repeats = 3
	}
	if opt.Dur == 0 {
		opt.Dur = 20 * time.Millisecond
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	c := &Curves{NsPerIter: NsPerIter(), Dur: opt.Dur}
	for _, cell := range opt.Cells {
		for _, n := range opt.CPUs {
			c.Points = append(c.Points, Point{Cell: cell, CPUs: n})
		}
	}
	for range opt.Repeats {
		for i := range c.Points {
			if err := ctx.Err(); err != nil {
				return c, err
			}
			p := &c.Points[i]
			p.Rates = append(p.Rates, rate(p.Cell, p.CPUs, c.NsPerIter, opt.Dur))
		}
	}
	return c, nil
}

// Work runs n rounds of the published lock benchmarks' local work (foo
// *= 2; foo /= 2, which the compiler cannot fold), which shares nothing.
//
//go:noinline
func Work(n int, x uint64) uint64 {
	foo := int64(x)
	for range n {
		foo *= 2
		foo /= 2
	}
	return uint64(foo)
}

// NsPerIter times Work alone: the least of a few runs, lest a
// disturbance count.
func NsPerIter() float64 {
	const rounds = 200_000
	best := time.Duration(1 << 62)
	var sink uint64
	for range 7 {
		start := time.Now()
		sink += Work(rounds, sink)
		best = min(best, time.Since(start))
	}
	if sink == 1 { // keep the loop's result live
		best++
	}
	return float64(best) / rounds
}

// count is a goroutine's operations so far, on a line of its own.
type count struct {
	n atomic.Uint64
	_ [120]byte
}

// guarded is a lock and the data it guards: a word on the lock's line, as
// a struct's fields beside its mutex are, and one on a line of its own.
type guarded struct {
	mu   sync.Mutex
	rw   sync.RWMutex
	near uint64
	_    [128]byte
	far  uint64
	_    [120]byte
}

// write is a hold of its lock: hold rounds of work, then a write to
// what it guards.
func (g *guarded) write(hold int, x uint64) uint64 {
	x = Work(hold, x)
	g.near += x
	g.far += x
	return x
}

// rig is what a cell's goroutines share: each one's count, the lock
// and the data it guards, the shards, the channel.
type rig struct {
	counts []count
	// The flag every goroutine reads and the word the Word and CAS shapes
	// write lie on lines of their own, apart from each other.
	lines struct {
		_    [64]byte
		stop atomic.Bool
		_    [127]byte
		word atomic.Uint64
		_    [120]byte
	}
	g                  guarded
	shards             []guarded
	ch                 chan uint64
	senders, receivers sync.WaitGroup
}

// rate runs cell on n CPUs for warmup, then dur, and returns its
// operations a second over dur.
func rate(cell Cell, n int, nsPerIter float64, dur time.Duration) float64 {
	iters := func(ns int) int { return int(float64(ns)/nsPerIter + 0.5) }
	hold, out := iters(cell.Hold), iters(cell.Outside)
	runtime.GOMAXPROCS(n)
	r := &rig{counts: make([]count, n), ch: make(chan uint64, cell.Cap), shards: make([]guarded, max(1, cell.Shards))}
	for i := range n {
		r.start(cell, i, hold, out)
	}
	sum := func() uint64 {
		var s uint64
		for i := range r.counts {
			s += r.counts[i].n.Load()
		}
		return s
	}
	time.Sleep(warmup)
	c0, t0 := sum(), time.Now()
	time.Sleep(dur)
	c1, t1 := sum(), time.Now()
	r.lines.stop.Store(true)
	r.senders.Wait()
	close(r.ch)
	r.receivers.Wait()
	if r.g.near == 1 && r.g.far == 1 && r.shards[0].near == 1 { // keep the guarded writes live
		c1++
	}
	return float64(c1-c0) / t1.Sub(t0).Seconds()
}

// start starts goroutine i of cell, its holds and work outside hold and
// out rounds of Work.
func (r *rig) start(cell Cell, i, hold, out int) {
	stop, word, g, shards, ch := &r.lines.stop, &r.lines.word, &r.g, r.shards, r.ch
	c := &r.counts[i]
	// Each goroutine's x is its own local: captured from here, the
	// goroutines' would be words on one line, written every operation.
	seed := uint64(i + 1)
	switch cell.Shape {
	case Mutex:
		r.senders.Go(func() {
			x := seed
			for k := uint64(1); !stop.Load(); k++ {
				g.mu.Lock()
				x = g.write(hold, x)
				g.mu.Unlock()
				x = Work(out, x)
				c.n.Store(k)
			}
		})
	case RWMutex:
		every := uint64(cell.WriteEvery)
		r.senders.Go(func() {
			x := seed
			for k := uint64(1); !stop.Load(); k++ {
				if every > 0 && (k+uint64(i))%every == 0 {
					g.rw.Lock()
					x = g.write(hold, x)
					g.rw.Unlock()
				} else {
					g.rw.RLock()
					x = Work(hold, x^g.near^g.far)
					g.rw.RUnlock()
				}
				x = Work(out, x)
				c.n.Store(k)
			}
		})
	case Word:
		r.senders.Go(func() {
			x := seed
			for k := uint64(1); !stop.Load(); k++ {
				word.Add(1)
				x = Work(out, x)
				c.n.Store(k)
			}
		})
	case CAS:
		r.senders.Go(func() {
			x := seed
			for k := uint64(1); !stop.Load(); k++ {
				for old := word.Load(); !word.CompareAndSwap(old, old+1); old = word.Load() {
				}
				x = Work(out, x)
				c.n.Store(k)
			}
		})
	case Sharded:
		r.senders.Go(func() {
			x := seed
			pick := seed * 0x9E3779B97F4A7C15
			for k := uint64(1); !stop.Load(); k++ {
				pick = pick*6364136223846793005 + 1442695040888963407
				s := &shards[(pick>>33)%uint64(len(shards))]
				s.mu.Lock()
				x = s.write(hold, x)
				s.mu.Unlock()
				x = Work(out, x)
				c.n.Store(k)
			}
		})
	case Chan:
		r.senders.Go(func() {
			x := seed
			for k := uint64(1); !stop.Load(); k++ {
				ch <- x
				c.n.Store(k)
			}
		})
		r.receivers.Go(func() {
			x := seed
			for v := range ch {
				x = Work(out, x^v)
			}
			word.Add(x & 1)
		})
	case Alloc:
		r.senders.Go(func() {
			x := seed
			var kept [64][]byte
			for k := uint64(1); !stop.Load(); k++ {
				if b := make([]byte, cell.Bytes); len(b) > 0 {
					b[0] = byte(x)
					kept[k%64] = b
				}
				x = Work(out, x)
				c.n.Store(k)
			}
			word.Add(uint64(len(kept[0])))
		})
	}
}
