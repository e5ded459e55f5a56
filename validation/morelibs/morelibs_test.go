package morelibs

import (
	"bytes"
	"context"
	"io"
	"log"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/VictoriaMetrics/fastcache"
	"github.com/allegro/bigcache/v3"
	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/jackc/puddle/v2"
	"github.com/panjf2000/ants/v2"
	gocache "github.com/patrickmn/go-cache"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"
	"github.com/sony/gobreaker/v2"
	"go.uber.org/ratelimit"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"golang.org/x/sync/singleflight"
)

// work spins n rounds of a multiply-add chain, as a task that computes,
// and returns the result so that the compiler keeps the loop.
func work(n int, x uint64) uint64 {
	for range n {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

// keys are the 1024 keys the caches are filled with and asked for.
func keys() []string {
	ks := make([]string, 1024)
	for i := range ks {
		ks[i] = "key" + strconv.Itoa(i)
	}
	return ks
}

// start gives each of RunParallel's goroutines its own place in the keys.
func start(seed *atomic.Uint64) int { return int(seed.Add(7919)) }

// BenchmarkLRU: Get (three in four) and Add of a key already there on a
// hashicorp/golang-lru/v2 Cache of 1024 entries. Both hold c.lock, a
// sync.RWMutex, with Lock (lru.go, v2.0.7): a Get moves the entry to the
// front of the recency list, so no Get is a reader. Shared, one lock for
// every goroutine; per goroutine, each its own cache.
func BenchmarkLRU(b *testing.B) {
	ks := keys()
	fill := func() *lru.Cache[string, int] {
		c, err := lru.New[string, int](len(ks))
		if err != nil {
			b.Fatal(err)
		}
		for i, k := range ks {
			c.Add(k, i)
		}
		return c
	}
	body := func(c *lru.Cache[string, int], i int, pb *testing.PB) {
		for pb.Next() {
			i++
			if i&3 == 0 {
				c.Add(ks[i&1023], i)
			} else {
				c.Get(ks[i&1023])
			}
		}
	}
	b.Run("cache=shared", func(b *testing.B) {
		c := fill()
		var seed atomic.Uint64
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) { body(c, start(&seed), pb) })
	})
	b.Run("cache=pergoroutine", func(b *testing.B) {
		var seed atomic.Uint64
		b.RunParallel(func(pb *testing.PB) { body(fill(), start(&seed), pb) })
	})
}

// BenchmarkGoCache: Get, and one in eight a Set, on one patrickmn/go-cache
// Cache of 1024 items. Get holds c.mu, a sync.RWMutex, as a reader; Set as
// a writer (cache.go, v2.1.0). Made with a cleanup interval, the cache
// runs a janitor goroutine that takes the write lock every second, and
// stops it only when the cache is collected.
func BenchmarkGoCache(b *testing.B) {
	ks := keys()
	for _, writes := range []int{0, 8} {
		name := "writes=none"
		if writes > 0 {
			name = "writes=1in" + strconv.Itoa(writes)
		}
		b.Run(name, func(b *testing.B) {
			c := gocache.New(time.Minute, time.Second)
			for i, k := range ks {
				c.SetDefault(k, i)
			}
			var seed atomic.Uint64
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				i := start(&seed)
				for pb.Next() {
					i++
					if writes > 0 && i%writes == 0 {
						c.SetDefault(ks[i&1023], i)
					} else {
						c.Get(ks[i&1023])
					}
				}
			})
		})
	}
}

// BenchmarkAnts: Submit of a task of about half a microsecond to one
// panjf2000/ants/v2 Pool of 1000 workers, the submitters waiting for all
// tasks at the end. Submit takes a worker under the pool's lock, the
// library's own spin lock (pkg/sync/spinlock.go: CAS, then Gosched with
// backoff), and hands it the task on the worker's channel (one slot where
// GOMAXPROCS was above 1 when the package started); the worker puts
// itself back under the same lock (ants.go, v2.12.1).
func BenchmarkAnts(b *testing.B) {
	p, err := ants.NewPool(1000)
	if err != nil {
		b.Fatal(err)
	}
	defer p.Release()
	var wg sync.WaitGroup
	var sink atomic.Uint64
	task := func() {
		sink.Store(work(150, 1))
		wg.Done()
	}
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			wg.Add(1)
			if err := p.Submit(task); err != nil {
				wg.Done()
				b.Error(err)
				return
			}
		}
	})
	wg.Wait()
}

// BenchmarkSingleflight: Do on one golang.org/x/sync/singleflight Group,
// the function computing for about a microsecond. Do holds g.mu, a
// sync.Mutex, to find or add the key's call and again to delete it; a
// caller whose key is in flight waits on the call's WaitGroup and shares
// its result (singleflight.go). keys=shared: every goroutine asks for one
// key, so calls coalesce; keys=pergoroutine: each its own key, so each
// call runs its function.
func BenchmarkSingleflight(b *testing.B) {
	for _, shared := range []bool{true, false} {
		name := "keys=pergoroutine"
		if shared {
			name = "keys=shared"
		}
		b.Run(name, func(b *testing.B) {
			var g singleflight.Group
			var seed atomic.Uint64
			b.RunParallel(func(pb *testing.PB) {
				key := "k"
				if !shared {
					key = "k" + strconv.Itoa(start(&seed))
				}
				fn := func() (any, error) { return work(300, 1), nil }
				for pb.Next() {
					g.Do(key, fn)
				}
			})
		})
	}
}

// BenchmarkPuddle: Acquire and Release on one jackc/puddle/v2 Pool.
// Acquire takes a token of the pool's x/sync/semaphore Weighted (its own
// sync.Mutex, and a channel for each waiter when none is left) and then
// p.mux, a sync.Mutex, to pop an idle resource; Release takes p.mux again
// and gives the token back (pool.go, v2.2.3). size=64: no goroutine ever
// waits for a resource; size=4: with more than four goroutines, they wait
// on the semaphore's channels.
func BenchmarkPuddle(b *testing.B) {
	for _, size := range []int32{64, 4} {
		b.Run("size="+strconv.Itoa(int(size)), func(b *testing.B) {
			var made atomic.Int64
			p, err := puddle.NewPool(&puddle.Config[int64]{
				Constructor: func(context.Context) (int64, error) { return made.Add(1), nil },
				Destructor:  func(int64) {},
				MaxSize:     size,
			})
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close()
			ctx := context.Background()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					r, err := p.Acquire(ctx)
					if err != nil {
						b.Error(err)
						return
					}
					r.Release()
				}
			})
		})
	}
}

// BenchmarkPromCounter: Inc on a prometheus/client_golang Counter, an
// atomic add to the counter's one word (counter.go, v1.25.0). Shared, every
// core adds to the same word; per goroutine, each to its own counter.
func BenchmarkPromCounter(b *testing.B) {
	newCounter := func() prometheus.Counter {
		return prometheus.NewCounter(prometheus.CounterOpts{Name: "orders_total", Help: "Orders."})
	}
	b.Run("counter=shared", func(b *testing.B) {
		c := newCounter()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				c.Inc()
			}
		})
	})
	b.Run("counter=pergoroutine", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			c := newCounter()
			for pb.Next() {
				c.Inc()
			}
		})
	})
}

// BenchmarkPromHistogram: Observe on one shared prometheus Histogram of
// the default buckets, values spread over them. Observe takes no lock: an
// atomic add to the shared count word, then to the bucket's count, a
// compare-and-swap loop on the sum and an add to the hot count
// (histogram.go): several words every core writes.
func BenchmarkPromHistogram(b *testing.B) {
	h := prometheus.NewHistogram(prometheus.HistogramOpts{Name: "latency_seconds", Help: "Latency."})
	var seed atomic.Uint64
	b.RunParallel(func(pb *testing.PB) {
		i := start(&seed)
		for pb.Next() {
			i++
			h.Observe(float64(i&1023) / 100)
		}
	})
}

// BenchmarkPromSummary: Observe on one shared prometheus Summary with
// quantile objectives. Observe holds s.bufMtx, a sync.Mutex, to read the
// clock and append to the hot buffer, which it hands to a flush every 500
// values (summary.go): one lock every goroutine takes, held briefly.
func BenchmarkPromSummary(b *testing.B) {
	s := prometheus.NewSummary(prometheus.SummaryOpts{
		Name: "latency_quantiles", Help: "Latency.",
		Objectives: map[float64]float64{0.5: 0.05, 0.9: 0.01, 0.99: 0.001},
	})
	var seed atomic.Uint64
	b.RunParallel(func(pb *testing.PB) {
		i := start(&seed)
		for pb.Next() {
			i++
			s.Observe(float64(i & 1023))
		}
	})
}

// slowWriter computes for about a microsecond a write, as a writer that
// formats or compresses would.
type slowWriter struct{ sink atomic.Uint64 }

func (w *slowWriter) Write(p []byte) (int, error) {
	w.sink.Add(work(300, uint64(len(p))) & 1)
	return len(p), nil
}

// BenchmarkZap: Info with one field on one shared go.uber.org/zap Logger
// of a JSON encoder, its output wrapped in zapcore.Lock: the entry is
// encoded outside any lock into a pooled buffer, then written holding the
// locked syncer's sync.Mutex (write_syncer.go, v1.28.0). out=slow writes
// for about a microsecond under it; out=discard writes nothing.
func BenchmarkZap(b *testing.B) {
	outs := []struct {
		name string
		w    func() io.Writer
	}{
		{"slow", func() io.Writer { return &slowWriter{} }},
		{"discard", func() io.Writer { return io.Discard }},
	}
	for _, out := range outs {
		b.Run("out="+out.name, func(b *testing.B) {
			enc := zapcore.NewJSONEncoder(zap.NewProductionEncoderConfig())
			log := zap.New(zapcore.NewCore(enc, zapcore.Lock(zapcore.AddSync(out.w())), zapcore.InfoLevel))
			var seed atomic.Uint64
			b.RunParallel(func(pb *testing.PB) {
				i := start(&seed)
				for pb.Next() {
					i++
					log.Info("order served", zap.Int("order", i))
				}
			})
		})
	}
}

// BenchmarkZerolog: Info with one field on one shared rs/zerolog Logger
// writing to io.Discard. No lock: each event comes from a sync.Pool and
// is written straight to the writer (event.go, v1.35.1).
func BenchmarkZerolog(b *testing.B) {
	log := zerolog.New(io.Discard)
	var seed atomic.Uint64
	b.RunParallel(func(pb *testing.PB) {
		i := start(&seed)
		for pb.Next() {
			i++
			log.Info().Int("order", i).Msg("order served")
		}
	})
}

// BenchmarkBigcache: Get (three in four) and Set on one allegro/bigcache
// of the default 1024 shards, over 1024 keys. Each shard is a
// sync.RWMutex around its index and byte queue: Get holds it as a reader,
// Set as a writer (shard.go, v3.1.0); the default clean window runs a
// goroutine that locks every shard each second.
func BenchmarkBigcache(b *testing.B) {
	ks := keys()
	c, err := bigcache.New(context.Background(), bigcache.DefaultConfig(10*time.Minute))
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	val := bytes.Repeat([]byte("v"), 64)
	for _, k := range ks {
		if err := c.Set(k, val); err != nil {
			b.Fatal(err)
		}
	}
	var seed atomic.Uint64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := start(&seed)
		for pb.Next() {
			i++
			if i&3 == 0 {
				c.Set(ks[i&1023], val)
			} else {
				c.Get(ks[i&1023])
			}
		}
	})
}

// BenchmarkFastcache: Get (three in four) and Set on one
// VictoriaMetrics/fastcache Cache over 1024 keys. The key's hash picks one
// of 512 buckets, each a sync.RWMutex: Get holds it as a reader and adds
// to the bucket's call counter, Set as a writer (fastcache.go, v1.13.2).
func BenchmarkFastcache(b *testing.B) {
	ks := make([][]byte, 1024)
	for i := range ks {
		ks[i] = []byte("key" + strconv.Itoa(i))
	}
	c := fastcache.New(32 << 20)
	defer c.Reset()
	val := bytes.Repeat([]byte("v"), 64)
	for _, k := range ks {
		c.Set(k, val)
	}
	var seed atomic.Uint64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := start(&seed)
		dst := make([]byte, 0, 128)
		for pb.Next() {
			i++
			if i&3 == 0 {
				c.Set(ks[i&1023], val)
			} else {
				dst = c.Get(dst[:0], ks[i&1023])
			}
		}
	})
}

// BenchmarkBreaker: Execute of a request that succeeds at once on a
// sony/gobreaker/v2 CircuitBreaker. Execute holds cb.mutex, a sync.Mutex,
// before the request and again after it, each time reading the clock to
// check the state's generation (gobreaker.go, v2.4.0). Shared, one breaker
// for every goroutine; per goroutine, each its own.
func BenchmarkBreaker(b *testing.B) {
	newBreaker := func() *gobreaker.CircuitBreaker[int] {
		return gobreaker.NewCircuitBreaker[int](gobreaker.Settings{Name: "orders"})
	}
	req := func() (int, error) { return 1, nil }
	b.Run("breaker=shared", func(b *testing.B) {
		cb := newBreaker()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				cb.Execute(req)
			}
		})
	})
	b.Run("breaker=pergoroutine", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			cb := newBreaker()
			for pb.Next() {
				cb.Execute(req)
			}
		})
	})
}

// BenchmarkUberRate: Take on a go.uber.org/ratelimit Limiter of a billion
// a second, which no Take here outruns, so none sleeps. Take reads the
// clock and advances the limiter's one int64 state with a
// compare-and-swap, again until it wins (limiter_atomic_int64.go, v0.3.1):
// no lock, one word every core writes. Shared, one limiter; per
// goroutine, each its own.
func BenchmarkUberRate(b *testing.B) {
	const perSecond = 1_000_000_000
	b.Run("limiter=shared", func(b *testing.B) {
		rl := ratelimit.New(perSecond)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				rl.Take()
			}
		})
	})
	b.Run("limiter=pergoroutine", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			rl := ratelimit.New(perSecond)
			for pb.Next() {
				rl.Take()
			}
		})
	})
}

// BenchmarkStdPool: Get, a write of 64 bytes and Put of a *bytes.Buffer
// through one sync.Pool, which keeps a private slot and a shard of
// objects per P and takes no lock unless a P's shard is empty
// (sync/pool.go).
func BenchmarkStdPool(b *testing.B) {
	pool := sync.Pool{New: func() any { return new(bytes.Buffer) }}
	line := bytes.Repeat([]byte("x"), 64)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			buf := pool.Get().(*bytes.Buffer)
			buf.Reset()
			buf.Write(line)
			pool.Put(buf)
		}
	})
}

// discardWriter drops what it is given; unlike io.Discard, the log
// package cannot tell, so it formats and writes every line.
type discardWriter struct{}

func (discardWriter) Write(p []byte) (int, error) { return len(p), nil }

// BenchmarkStdLog: Printf on one shared log.Logger with the standard
// flags. It formats the line into a pooled buffer without a lock, then
// holds the logger's outMu, a sync.Mutex, around the write (log/log.go).
func BenchmarkStdLog(b *testing.B) {
	l := log.New(discardWriter{}, "", log.LstdFlags)
	var seed atomic.Uint64
	b.RunParallel(func(pb *testing.PB) {
		i := start(&seed)
		for pb.Next() {
			i++
			l.Printf("order %d served", i)
		}
	})
}
