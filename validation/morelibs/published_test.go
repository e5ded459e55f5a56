package morelibs

import (
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/puzpuzpuz/xsync/v4"
)

// The shapes of xsync's published many-core tables (testdata/published:
// 64 Graviton2 cores, 32 Haswell vCPUs) that xsync v4.5.0's own
// benchmarks, which validation/pubtables measures beside these, no
// longer hold: the runtime's producer/consumer channel benchmark as
// xsync ran it, RWMutex and RBMutex read-locked around nothing, and a map
// of a million string keys. Each is written from the table's
// description, not copied.

// pubWork is n rounds of the tables' local work (foo *= 2; foo /= 2).
//
//go:noinline
func pubWork(n, foo int) int {
	for range n {
		foo *= 2
		foo /= 2
	}
	return foo
}

// BenchmarkPubChanProdCons: GOMAXPROCS/2 producers and as many consumers
// on one channel of 1000 slots, each side doing work rounds an item:
// every send and receive takes the channel's runtime lock.
func BenchmarkPubChanProdCons(b *testing.B) {
	for _, work := range []int{0, 100} {
		b.Run("work="+strconv.Itoa(work), func(b *testing.B) {
			const batch = 1000 // items a producer claims at once
			pairs := max(1, runtime.GOMAXPROCS(0)/2)
			batches := atomic.Int64{}
			batches.Store(int64((b.N + batch - 1) / batch))
			ch := make(chan int, 1000)
			var wg sync.WaitGroup
			sink := make([]int, 2*pairs)
			for p := range pairs {
				wg.Go(func() {
					foo := p + 1
					for batches.Add(-1) >= 0 {
						for range batch {
							foo = pubWork(work, foo)
							ch <- 1
						}
					}
					ch <- 0
					sink[2*p] = foo
				})
				wg.Go(func() {
					foo := p + 1
					for v := range ch {
						if v == 0 {
							break
						}
						foo = pubWork(work, foo+v)
					}
					sink[2*p+1] = foo
				})
			}
			wg.Wait()
		})
	}
}

// BenchmarkPubRWMutexReadOnly: sync.RWMutex read-locked around nothing
// by every P: each RLock and RUnlock adds to its readers' count, one
// word every core writes.
func BenchmarkPubRWMutexReadOnly(b *testing.B) {
	var mu sync.RWMutex
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			mu.RLock()
			mu.RUnlock()
		}
	})
}

// BenchmarkPubRBMutexReadOnly: xsync's RBMutex read-locked around
// nothing: a reader marks a slot of its own.
func BenchmarkPubRBMutexReadOnly(b *testing.B) {
	mu := xsync.NewRBMutex()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			mu.RUnlock(mu.RLock())
		}
	})
}

// BenchmarkPubRWMutexWrite10000: sync.RWMutex around nothing, write-locked
// one operation in 10000 of each goroutine, read-locked otherwise.
func BenchmarkPubRWMutexWrite10000(b *testing.B) {
	var mu sync.RWMutex
	b.RunParallel(func(pb *testing.PB) {
		for i := 1; pb.Next(); i++ {
			if i%10000 == 0 {
				mu.Lock()
				mu.Unlock()
			} else {
				mu.RLock()
				mu.RUnlock()
			}
		}
	})
}

// BenchmarkPubMapStrings: an xsync Map (CLHT-like: a bucket's lock taken
// to write, reads without one) of a million string keys, filled first;
// each operation a load, or a store or a delete (half each) of the
// others, of a key drawn at random.
func BenchmarkPubMapStrings(b *testing.B) {
	const entries = 1_000_000
	keys := make([]string, entries)
	for i := range keys {
		keys[i] = "a_key_as_long_as_a_request_path_" + strconv.Itoa(i)
	}
	for _, reads := range []int{99, 90, 75} {
		b.Run("reads="+strconv.Itoa(reads)+"%", func(b *testing.B) {
			m := xsync.NewMap[string, int](xsync.WithPresize(entries))
			for i, k := range keys {
				m.Store(k, i)
			}
			var seed atomic.Uint64
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				r := rand.New(rand.NewPCG(seed.Add(1), 7))
				for pb.Next() {
					op, i := r.IntN(200), r.IntN(entries)
					switch {
					case op < 2*reads:
						m.Load(keys[i])
					case op%2 == 0:
						m.Store(keys[i], i)
					default:
						m.Delete(keys[i])
					}
				}
			})
		})
	}
}
