package reallibs

import (
	"io"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	cmap "github.com/orcaman/concurrent-map/v2"
	metrics "github.com/rcrowley/go-metrics"
	"github.com/sirupsen/logrus"
	"golang.org/x/time/rate"
)

// BenchmarkRate: Allow on a golang.org/x/time/rate Limiter. reserveN
// holds lim.mu around advancing the bucket (rate.go, v0.16.0). Shared, one
// limiter is one lock for every goroutine; per goroutine, each goroutine's
// limiter is its own, never contended.
func BenchmarkRate(b *testing.B) {
	newLimiter := func() *rate.Limiter { return rate.NewLimiter(rate.Limit(1e12), 1<<30) }
	b.Run("limiter=shared", func(b *testing.B) {
		lim := newLimiter()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				lim.Allow()
			}
		})
	})
	b.Run("limiter=pergoroutine", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			lim := newLimiter()
			for pb.Next() {
				lim.Allow()
			}
		})
	})
}

// BenchmarkMetrics: Update on a go-metrics Histogram over a uniform
// sample, whose Update holds the sample's mutex (sample.go).
func BenchmarkMetrics(b *testing.B) {
	newHist := func() metrics.Histogram { return metrics.NewHistogram(metrics.NewUniformSample(1028)) }
	b.Run("hist=shared", func(b *testing.B) {
		h := newHist()
		b.RunParallel(func(pb *testing.PB) {
			var v int64
			for pb.Next() {
				v++
				h.Update(v)
			}
		})
	})
	b.Run("hist=pergoroutine", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			h := newHist()
			var v int64
			for pb.Next() {
				v++
				h.Update(v)
			}
		})
	})
}

// BenchmarkCmap: Set and Get (one in four a Set) on orcaman/concurrent-map
// over 1024 keys. Each of its SHARD_COUNT shards is a sync.RWMutex around
// a map (concurrent_map.go): Set takes the shard's write lock, Get its read
// lock. shards=1 is one RWMutex for everything; shards=32 is the library's
// default.
func BenchmarkCmap(b *testing.B) {
	keys := make([]string, 1024)
	for i := range keys {
		keys[i] = "key" + strconv.Itoa(i)
	}
	for _, shards := range []int{1, 32} {
		b.Run("shards="+strconv.Itoa(shards), func(b *testing.B) {
			m := newCmap(b, shards)
			for _, k := range keys {
				m.Set(k, 0)
			}
			var seed atomic.Uint64
			b.RunParallel(func(pb *testing.PB) {
				i := int(seed.Add(7919))
				for pb.Next() {
					i++
					k := keys[i&1023]
					if i&3 == 0 {
						m.Set(k, i)
					} else {
						m.Get(k)
					}
				}
			})
		})
	}
}

// newCmap makes a map of n shards: the library reads its exported
// SHARD_COUNT whenever it picks a shard, so it is set for the benchmark
// and put back after.
func newCmap(b *testing.B, n int) cmap.ConcurrentMap[string, int] {
	old := cmap.SHARD_COUNT
	b.Cleanup(func() { cmap.SHARD_COUNT = old })
	cmap.SHARD_COUNT = n
	return cmap.New[int]()
}

// slowWriter takes about a microsecond of CPU a write, as a writer that
// formats or compresses would.
type slowWriter struct{ sink atomic.Uint64 }

func (w *slowWriter) Write(p []byte) (int, error) {
	x := uint64(len(p))
	for i := 0; i < 300; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	w.sink.Add(x & 1)
	return len(p), nil
}

// BenchmarkLogrus: Info on one shared logrus Logger. The logger takes its
// mutex (through mutexWrap, logger.go) to fetch and return an entry's
// buffer and around the write to its Out (entry.go), four short holds per
// Info; SetNoLock makes mutexWrap do nothing. out=slow writes under the
// lock for about a microsecond; out=discard writes nothing.
func BenchmarkLogrus(b *testing.B) {
	outs := []struct {
		name string
		w    func() io.Writer
	}{
		{"slow", func() io.Writer { return &slowWriter{} }},
		{"discard", func() io.Writer { return io.Discard }},
	}
	for _, out := range outs {
		for _, lock := range []string{"shared", "none"} {
			b.Run("out="+out.name+"/lock="+lock, func(b *testing.B) {
				log := logrus.New()
				log.Out = out.w()
				log.Formatter = &logrus.TextFormatter{DisableTimestamp: true, DisableColors: true}
				if lock == "none" {
					log.SetNoLock()
				}
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						log.Info("order served")
					}
				})
			})
		}
	}
}

// BenchmarkSyncMap: Load (and one in eight a Store) on a warm sync.Map of
// 1024 int keys. Loads of keys already promoted read the map lock-free;
// Stores of existing keys swap the entry's pointer without the map's mutex.
func BenchmarkSyncMap(b *testing.B) {
	for _, writes := range []int{0, 8} {
		name := "writes=none"
		if writes > 0 {
			name = "writes=1in" + strconv.Itoa(writes)
		}
		b.Run(name, func(b *testing.B) {
			var m sync.Map
			for i := range 1024 {
				m.Store(i, i)
			}
			for i := range 1024 { // promote every key to the read-only map
				m.Load(i)
			}
			var seed atomic.Uint64
			b.RunParallel(func(pb *testing.PB) {
				i := int(seed.Add(7919))
				for pb.Next() {
					i++
					if writes > 0 && i%writes == 0 {
						m.Store(i&1023, i)
					} else {
						m.Load(i & 1023)
					}
				}
			})
		})
	}
}
