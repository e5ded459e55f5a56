package manycore

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The benchmarks below are the published behaviours of
// validation/testdata/published measured again, each in the shape its
// source describes, on a machine brewput can describe whole (run.sh). A
// benchmark whose name ends in /P runs one goroutine per P, as the
// published ones with RunParallel or GOMAXPROCS goroutines did; its op is
// one of the published op.

// line pads a value to a cache line of its own and its neighbour's, which
// a processor may fetch with it.
type line[T any] struct {
	_ [128]byte
	v T
	_ [128]byte
}

// perP runs body on one goroutine per P, b.N shared between them.
func perP(b *testing.B, body func(g, n int)) {
	onEach(b, runtime.GOMAXPROCS(0), body)
}

// onEach runs body on g goroutines, timed from when all have started,
// each taking b.N's ops in grains from a shared count as testing's
// RunParallel does, so that one goroutine held up (by the hypervisor, a
// timer) does not hold up the rest: a split fixed in advance times the
// slowest goroutine. A grain is at most 10000 ops and a tenth of a
// goroutine's share, so that the count's own line is taken rarely.
func onEach(b *testing.B, goroutines int, body func(g, n int)) {
	var ready, done sync.WaitGroup
	var left atomic.Int64
	left.Store(int64(b.N))
	grain := int64(max(1, min(10000, b.N/goroutines/10)))
	start := make(chan struct{})
	ready.Add(goroutines)
	done.Add(goroutines)
	for g := range goroutines {
		go func() {
			defer done.Done()
			ready.Done()
			<-start
			for {
				n := min(grain, left.Add(-grain)+grain)
				if n <= 0 {
					return
				}
				body(g, int(n))
			}
		}()
	}
	ready.Wait()
	b.ResetTimer()
	close(start)
	done.Wait()
}

// work is the published benchmarks' local work: iterations of
// foo *= 2; foo /= 2 on a value the compiler cannot see through.
//
//go:noinline
func work(foo, iterations int) int {
	for range iterations {
		foo *= 2
		foo /= 2
	}
	return foo
}

var sink atomic.Int64

// BenchmarkMutex is dd2074c8's BenchmarkMutex: one sync.Mutex locked and
// unlocked around nothing by a goroutine per P, and BenchmarkMutexSlack's
// ten goroutines a P.
func BenchmarkMutex(b *testing.B) {
	for _, slack := range []int{1, 10} {
		b.Run(fmt.Sprintf("goroutines=%dP", slack), func(b *testing.B) {
			var mu line[sync.Mutex]
			onEach(b, slack*runtime.GOMAXPROCS(0), func(_, n int) {
				for range n {
					mu.v.Lock()
					mu.v.Unlock()
				}
			})
		})
	}
}

// BenchmarkMutexUncontended is a mutex per goroutine, each on its own line.
func BenchmarkMutexUncontended(b *testing.B) {
	mus := make([]line[sync.Mutex], runtime.GOMAXPROCS(0))
	perP(b, func(g, n int) {
		mu := &mus[g].v
		for range n {
			mu.Lock()
			mu.Unlock()
		}
	})
}

// BenchmarkMutexWork is dd2074c8's BenchmarkMutexWork: an empty critical
// section with 100 iterations of work outside it.
func BenchmarkMutexWork(b *testing.B) {
	var mu line[sync.Mutex]
	perP(b, func(g, n int) {
		foo := g + 1
		for range n {
			mu.v.Lock()
			mu.v.Unlock()
			foo = work(foo, 100)
		}
		sink.Add(int64(foo))
	})
}

// BenchmarkPrivateWork is 100 iterations of work by every P and nothing
// shared: how fast a core runs while the others run.
func BenchmarkPrivateWork(b *testing.B) {
	perP(b, func(g, n int) {
		foo := g + 1
		for range n {
			foo = work(foo, 100)
		}
		sink.Add(int64(foo))
	})
}

// BenchmarkMutexShortHold is a short critical section (20 iterations of
// work, about a rate.Limiter's reservation) with 20 outside it.
func BenchmarkMutexShortHold(b *testing.B) {
	var mu line[sync.Mutex]
	var shared line[int]
	perP(b, func(g, n int) {
		foo := g + 1
		for range n {
			mu.v.Lock()
			shared.v = work(shared.v+1, 20)
			mu.v.Unlock()
			foo = work(foo, 20)
		}
		sink.Add(int64(foo))
	})
}

// BenchmarkLock is golang/go#33747's BenchmarkLock on every P: workers
// loop over passes of a 1000-byte sum, a share of them (ratio) with one
// shared sync.Mutex held; one op is 1000 passes. The workers are the
// point's goroutines, all Ps available, as the issue ran them.
func BenchmarkLock(b *testing.B) {
	for _, ratio := range []float64{0.01, 0.1} {
		for _, workers := range []int{1, 2, 4, 8, 12, 16, 24, 32} {
			b.Run(fmt.Sprintf("ratio=%.2f/workers=%d", ratio, workers), func(b *testing.B) {
				if runtime.GOMAXPROCS(0) != runtime.NumCPU() {
					b.Skip("runs on every CPU: -cpu", runtime.NumCPU())
				}
				var mu line[sync.Mutex]
				const passes = 1000
				inside := int(ratio * passes)
				onEach(b, workers, func(g, n int) {
					var buf [1000]byte
					for i := range buf {
						buf[i] = byte(i + g)
					}
					var total int
					for range n {
						for p := range passes {
							if p < inside {
								mu.v.Lock()
								total += sum(&buf)
								mu.v.Unlock()
							} else {
								total += sum(&buf)
							}
						}
					}
					sink.Add(int64(total))
				})
			})
		}
	}
}

//go:noinline
func sum(buf *[1000]byte) int {
	var s int
	for _, v := range buf {
		s += int(v)
	}
	return s
}

// BenchmarkChanContended is the runtime's BenchmarkChanContended: every
// P's goroutine sends 100 values to one shared buffered channel and takes
// 100 back, over and over; one op is one send or one receive.
func BenchmarkChanContended(b *testing.B) {
	const calls = 100
	procs := runtime.GOMAXPROCS(0)
	c := make(chan int, procs*calls)
	perP(b, func(_, n int) {
		for i := 0; i < n; i += 2 * calls {
			for range calls {
				c <- 0
			}
			for range calls {
				<-c
			}
		}
	})
}

// BenchmarkChanProdCons is the runtime's ChanProdCons as xsync runs it:
// half the Ps produce and half consume on one channel of capacity 1000,
// with 0 or 100 iterations of work on each side of every item; one op is
// one item.
func BenchmarkChanProdCons(b *testing.B) {
	for _, iterations := range []int{0, 100} {
		b.Run(fmt.Sprintf("work=%d", iterations), func(b *testing.B) {
			pairs := max(1, runtime.GOMAXPROCS(0)/2)
			c := make(chan int, 1000)
			var consumers sync.WaitGroup
			for g := range pairs {
				consumers.Go(func() {
					foo := g + 1
					for v := range c {
						foo = work(foo+v, iterations)
					}
					sink.Add(int64(foo))
				})
			}
			onEach(b, pairs, func(g, n int) {
				foo := g + 1
				for range n {
					foo = work(foo, iterations)
					c <- foo & 1
				}
			})
			close(c)
			consumers.Wait()
		})
	}
}

// BenchmarkRWMutex is xsync's RWMutex benchmarks: read-locked around
// nothing or around 100 iterations of work by every P, write-locked once
// in writeEvery ops (never where 0).
func BenchmarkRWMutex(b *testing.B) {
	cases := []struct {
		name              string
		iterations, every int
	}{
		{"ReadOnly", 0, 0},
		{"WorkReadOnly", 100, 0},
		{"Write10000", 0, 10000},
		{"WorkWrite100000", 100, 100000},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var rw line[sync.RWMutex]
			ops := make([]line[int], runtime.GOMAXPROCS(0)) // each goroutine's, across its grains
			perP(b, func(g, n int) {
				foo := g + 1
				for range n {
					ops[g].v++
					if c.every > 0 && ops[g].v%c.every == 0 {
						rw.v.Lock()
						foo = work(foo, c.iterations)
						rw.v.Unlock()
						continue
					}
					rw.v.RLock()
					foo = work(foo, c.iterations)
					rw.v.RUnlock()
				}
				sink.Add(int64(foo))
			})
		})
	}
}

// BenchmarkCounter is one atomic int64 added to by every P against a
// striped counter: a stripe per P a line apart, each goroutine adding to
// its own (own) or to one drawn at random once (drawn, as xsync's v2
// counter draws a token), so that two may share one.
func BenchmarkCounter(b *testing.B) {
	b.Run("atomic", func(b *testing.B) {
		var c line[atomic.Int64]
		perP(b, func(_, n int) {
			for range n {
				c.v.Add(1)
			}
		})
	})
	for _, draw := range []string{"own", "drawn"} {
		b.Run("striped="+draw, func(b *testing.B) {
			procs := runtime.GOMAXPROCS(0)
			stripes := make([]line[atomic.Int64], procs)
			stripe := make([]int, procs) // each goroutine's, drawn once
			for g := range stripe {
				stripe[g] = g
				if draw == "drawn" {
					stripe[g] = rand.IntN(procs)
				}
			}
			perP(b, func(g, n int) {
				s := &stripes[stripe[g]].v
				for range n {
					s.Add(1)
				}
			})
		})
	}
}

// BenchmarkCounterVisits is one atomic int64 added to by every P, each add
// followed by gap iterations of work, and counts how many adds in a row a
// core makes while the line is at it: an add whose result is one more than
// the same goroutine's last came before any other core's, so the line had
// not left. Its ops/visit is the mean run of such adds, which says how long
// a core keeps a line other cores are asking for (the model's Line moves
// it on at once). /pair adds twice an op, as RLock and RUnlock do to an
// RWMutex's reader count; its pairs-kept-% is how often no other core's
// add came between the two.
func BenchmarkCounterVisits(b *testing.B) {
	for _, c := range []struct {
		name      string
		gap, adds int
	}{{"gap=0", 0, 1}, {"gap=20", 20, 1}, {"gap=100", 100, 1}, {"pair", 0, 2}} {
		b.Run(c.name, func(b *testing.B) {
			var counter line[atomic.Int64]
			procs := runtime.GOMAXPROCS(0)
			last := make([]line[int64], procs)
			var adds, follows, pairs, kept atomic.Int64
			perP(b, func(g, n int) {
				prev := last[g].v
				var a, f, p, k int64
				foo := g
				for range n {
					for i := range c.adds {
						v := counter.v.Add(1)
						a++
						if v == prev+1 {
							f++
							if i == 1 {
								k++
							}
						}
						if i == 1 {
							p++
						}
						prev = v
					}
					if c.gap > 0 {
						foo = work(foo, c.gap)
					}
				}
				last[g].v = prev
				adds.Add(a)
				follows.Add(f)
				pairs.Add(p)
				kept.Add(k)
				sink.Add(int64(foo & 1))
			})
			if procs == 1 {
				return // one core: one visit
			}
			if a := adds.Load(); a > 0 {
				b.ReportMetric(float64(a)/float64(max(1, a-follows.Load())), "ops/visit")
			}
			if p := pairs.Load(); p > 0 {
				b.ReportMetric(100*float64(kept.Load())/float64(p), "pairs-kept-%")
			}
		})
	}
}

// BenchmarkLineTake times one add to a counter by a goroutine that has
// done other work since its last, as the line comes to its core: /alone
// with no other core using the counter (the line stays, so the add and
// the clock's reads alone), /idle with another core adding once between
// long stretches of work (the line waits there, unused), /pressed with
// another core adding without pause. Its ns/take minus /alone's is what
// taking the line costs from an idle core and from a busy one, which the
// model charges alike (one move). Three more ask what a load does: /load
// times a load of the word where the other core adds as in /idle (a load
// that takes the line), /load-add the add right after such a load,
// untimed (whether the load took the line whole or left the other core a
// copy that the add must take back), and /shared-load a load where the
// other core only loads the word too (a copy each, nothing to take). Two
// goroutines, each on a thread of its own, whatever -cpu says (run.sh runs
// it with -cpu 2 alone); it needs two Ps.
func BenchmarkLineTake(b *testing.B) {
	for _, kind := range []string{"alone", "idle", "pressed", "load", "load-add", "shared-load"} {
		b.Run(kind, func(b *testing.B) {
			if runtime.GOMAXPROCS(0) < 2 && kind != "alone" {
				b.Skip("needs two Ps")
			}
			var counter line[atomic.Int64]
			var stop atomic.Bool
			var wg sync.WaitGroup
			if kind != "alone" {
				wg.Go(func() {
					runtime.LockOSThread()
					defer runtime.UnlockOSThread()
					foo := 1
					for !stop.Load() {
						if kind == "shared-load" {
							foo += int(counter.v.Load() & 1)
						} else {
							counter.v.Add(1)
						}
						if kind != "pressed" {
							foo = work(foo, 200)
						}
					}
					sink.Add(int64(foo & 1))
				})
			}
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			foo := 2
			var took time.Duration
			b.ResetTimer()
			for range b.N {
				foo = work(foo, 300)
				switch kind {
				case "load", "shared-load":
					t0 := time.Now()
					foo += int(counter.v.Load() & 1)
					took += time.Since(t0)
				case "load-add":
					foo += int(counter.v.Load() & 1)
					t0 := time.Now()
					counter.v.Add(1)
					took += time.Since(t0)
				default:
					t0 := time.Now()
					counter.v.Add(1)
					took += time.Since(t0)
				}
			}
			b.StopTimer()
			stop.Store(true)
			wg.Wait()
			sink.Add(int64(foo & 1))
			b.ReportMetric(float64(took.Nanoseconds())/float64(b.N), "ns/take")
		})
	}
}

// BenchmarkPool is f8e0057b's BenchmarkPool: 100 Put and Get pairs an op,
// on sync.Pool (per-P caches) and on a cache behind one mutex (the old
// design).
func BenchmarkPool(b *testing.B) {
	b.Run("syncpool", func(b *testing.B) {
		var p sync.Pool
		perP(b, func(_, n int) {
			for range n {
				for range 100 {
					p.Put(1)
					p.Get()
				}
			}
		})
	})
	b.Run("global", func(b *testing.B) {
		var mu line[sync.Mutex]
		var cache []any
		perP(b, func(_, n int) {
			for range n {
				for range 100 {
					mu.v.Lock()
					cache = append(cache, 1)
					mu.v.Unlock()
					mu.v.Lock()
					if len(cache) > 0 {
						cache = cache[:len(cache)-1]
					}
					mu.v.Unlock()
				}
			}
		})
	})
}

// BenchmarkSyncMapLoad is sync.Map with 1000 int keys, warm, every op a
// Load of a present key.
func BenchmarkSyncMapLoad(b *testing.B) {
	var m sync.Map
	for k := range 1000 {
		m.Store(k, k)
	}
	perP(b, func(g, n int) {
		k := g * 7
		for range n {
			m.Load(k % 1000)
			k++
		}
	})
}

// BenchmarkSprintfEmpty is fmt.Sprintf("") on every P (its printers come
// from a sync.Pool).
func BenchmarkSprintfEmpty(b *testing.B) {
	perP(b, func(_, n int) {
		for range n {
			_ = fmt.Sprintf("")
		}
	})
}
