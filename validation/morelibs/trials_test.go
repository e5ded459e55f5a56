package morelibs

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"expvar"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/VictoriaMetrics/metrics"
	"github.com/alitto/pond/v2"
	"github.com/alphadose/haxmap"
	"github.com/bluele/gcache"
	"github.com/bwmarrin/snowflake"
	"github.com/coocood/freecache"
	"github.com/dgraph-io/ristretto/v2"
	"github.com/eapache/go-resiliency/breaker"
	chansem "github.com/eapache/go-resiliency/semaphore"
	"github.com/gammazero/workerpool"
	"github.com/go-chi/httprate"
	"github.com/go-kit/log"
	"github.com/golang/groupcache"
	"github.com/google/uuid"
	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-memdb"
	gometrics "github.com/hashicorp/go-metrics"
	arc "github.com/hashicorp/golang-lru/arc/v2"
	"github.com/hashicorp/golang-lru/v2/expirable"
	"github.com/jellydator/ttlcache/v3"
	"github.com/juju/ratelimit"
	"github.com/maypok86/otter/v2"
	"github.com/oxtoacart/bpool"
	"github.com/puzpuzpuz/xsync/v4"
	"github.com/segmentio/ksuid"
	"github.com/sethvargo/go-limiter/memorystore"
	"github.com/sony/sonyflake"
	"github.com/sourcegraph/conc/pool"
	"github.com/tidwall/btree"
	"github.com/tidwall/buntdb"
	"github.com/uber-go/tally"
	"github.com/valyala/bytebufferpool"
	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"
)

// The benchmarks of this file were tried with brewput predict, why and
// bench --locks on the 2-core VM on 2026-11-28, before any many-core
// machine measured them: kept as they were tried, for the next lending.

// nopWriter is a ResponseWriter whose headers each goroutine owns.
type nopWriter struct{ h http.Header }

func (w *nopWriter) Header() http.Header         { return w.h }
func (w *nopWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *nopWriter) WriteHeader(int)             {}

// xorshift is each goroutine's next pseudo-random number.
func xorshift(x uint64) uint64 {
	x ^= x << 13
	x ^= x >> 7
	return x ^ x<<17
}

// BenchmarkHTTPRate: every request asks a go-chi/httprate limiter (v0.16.1)
// whether its client may go on. OnLimit takes the limiter's sync.Mutex
// and, inside it, the local counter's RWMutex (RLock to read, Lock to
// count): one limiter for all, or one per goroutine.
func BenchmarkHTTPRate(b *testing.B) {
	for _, shared := range []bool{true, false} {
		name := "limiter=shared"
		if !shared {
			name = "limiter=pergoroutine"
		}
		b.Run(name, func(b *testing.B) {
			one := httprate.NewRateLimiter(1<<40, time.Minute)
			var ids atomic.Int64
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				l := one
				if !shared {
					l = httprate.NewRateLimiter(1<<40, time.Minute)
				}
				w := &nopWriter{h: http.Header{}}
				r := httptest.NewRequest("GET", "/", nil)
				key := "10.0.0." + strconv.Itoa(int(ids.Add(1)))
				for pb.Next() {
					if l.OnLimit(w, r, key) {
						b.Error("limited")
						return
					}
				}
			})
		})
	}
}

// BenchmarkVMCounter: VictoriaMetrics/metrics (v1.45.0) counting requests
// as its README does, GetOrCreateCounter(name).Inc() on every request:
// the set's sync.Mutex to find the counter, then an atomic add on its
// one word.
func BenchmarkVMCounter(b *testing.B) {
	set := metrics.NewSet()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			set.GetOrCreateCounter(`requests_total{path="/a"}`).Inc()
		}
	})
}

// BenchmarkVMHistogram: request durations into one VictoriaMetrics
// Histogram shared by all (Update takes its sync.Mutex) or one per
// goroutine.
func BenchmarkVMHistogram(b *testing.B) {
	for _, shared := range []bool{true, false} {
		name := "hist=shared"
		if !shared {
			name = "hist=pergoroutine"
		}
		b.Run(name, func(b *testing.B) {
			set := metrics.NewSet()
			var n atomic.Int64
			one := set.NewHistogram(fmt.Sprintf(`d_seconds{n="%d"}`, n.Add(1)))
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				h := one
				if !shared {
					h = set.NewHistogram(fmt.Sprintf(`d_seconds{n="%d"}`, n.Add(1)))
				}
				v := 0.001
				for pb.Next() {
					h.Update(v)
					if v *= 1.01; v > 10 {
						v = 0.001
					}
				}
			})
		})
	}
}

// BenchmarkRistretto: a dgraph-io/ristretto (v2.4.2) cache read by every
// goroutine (Get takes one of 256 shards' RWMutex to read and pushes the
// key to a sync.Pool stripe), with no writes or one Set in 8.
func BenchmarkRistretto(b *testing.B) {
	for _, writes := range []int{0, 8} {
		name := "writes=none"
		if writes > 0 {
			name = "writes=1in8"
		}
		b.Run(name, func(b *testing.B) {
			c, err := ristretto.NewCache(&ristretto.Config[int, int]{NumCounters: 1 << 16, MaxCost: 1 << 12, BufferItems: 64})
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			for k := range 1 << 12 {
				c.Set(k, k, 1)
			}
			c.Wait()
			var seeds atomic.Uint64
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				x := seeds.Add(0x9E3779B97F4A7C15)
				for i := 1; pb.Next(); i++ {
					x = xorshift(x)
					if k := int(x & (1<<12 - 1)); writes > 0 && i%writes == 0 {
						c.Set(k, k, 1)
					} else {
						c.Get(k)
					}
				}
			})
		})
	}
}

var groups atomic.Int64

// BenchmarkGroupcache: golang/groupcache's Group.Get on keys already
// cached, as a server answers its hot keys: every Get takes the main
// cache's sync.Mutex (its LRU reorders) and adds to the group's atomic
// stats words.
func BenchmarkGroupcache(b *testing.B) {
	g := groupcache.NewGroup(fmt.Sprintf("g%d", groups.Add(1)), 64<<20,
		groupcache.GetterFunc(func(_ context.Context, key string, dest groupcache.Sink) error {
			return dest.SetString("value of " + key)
		}))
	ks := keys()
	ctx := context.Background()
	for _, k := range ks {
		var s string
		if err := g.Get(ctx, k, groupcache.StringSink(&s)); err != nil {
			b.Fatal(err)
		}
	}
	var seeds atomic.Uint64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		x := seeds.Add(0x9E3779B97F4A7C15)
		var s string
		sink := groupcache.StringSink(&s)
		for pb.Next() {
			x = xorshift(x)
			if err := g.Get(ctx, ks[x&1023], sink); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkXsyncCount: requests counted by path in a puzpuzpuz/xsync
// (v4.5.0) Map with Compute, which takes the key's bucket sync.Mutex:
// every goroutine on one hot path (one bucket lock), or on paths spread
// over 4096 keys.
func BenchmarkXsyncCount(b *testing.B) {
	for _, keys := range []uint64{1, 4096} {
		b.Run("keys="+strconv.FormatUint(keys, 10), func(b *testing.B) {
			m := xsync.NewMap[uint64, int64]()
			inc := func(old int64, _ bool) (int64, xsync.ComputeOp) { return old + 1, xsync.UpdateOp }
			var seeds atomic.Uint64
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				x := seeds.Add(0x9E3779B97F4A7C15)
				for pb.Next() {
					x = xorshift(x)
					m.Compute(x%keys, inc)
				}
			})
		})
	}
}

// BenchmarkKsuid: segmentio/ksuid (v1.0.4) New holds one package-wide
// sync.Mutex (randMutex) while it reads 16 bytes of crypto/rand.
func BenchmarkKsuid(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			_ = ksuid.New()
		}
	})
}

// BenchmarkUUID: google/uuid (v1.6.0) New reads crypto/rand with no lock;
// with the random pool enabled, it copies from a pool under one
// package-wide sync.Mutex (poolMu), refilled every 16 calls.
func BenchmarkUUID(b *testing.B) {
	for _, pool := range []bool{false, true} {
		b.Run("pool="+strconv.FormatBool(pool), func(b *testing.B) {
			if pool {
				uuid.EnableRandPool()
				defer uuid.DisableRandPool()
			}
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					_ = uuid.New()
				}
			})
		})
	}
}

// BenchmarkUUIDv7: google/uuid NewV7 takes a package-wide sync.Mutex
// (timeMu) around its clock read and sequence.
func BenchmarkUUIDv7(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			_, _ = uuid.NewV7()
		}
	})
}

// BenchmarkBTree: one tidwall/btree (v1.8.2) BTreeG of 10000 ints, shared:
// Get takes its sync.RWMutex to read, Set to write. Made inside the timed
// function, as users often do.
func BenchmarkBTree(b *testing.B) {
	for _, writes := range []string{"none", "all"} {
		b.Run("writes="+writes, func(b *testing.B) {
			t := btree.NewBTreeG(func(a, b int) bool { return a < b })
			for i := range 10000 {
				t.Set(i)
			}
			var seed atomic.Uint64
			b.RunParallel(func(pb *testing.PB) {
				i := start(&seed)
				for pb.Next() {
					i = (i*1103515245 + 12345) & 0x7fffffff
					if writes == "all" {
						t.Set(i % 10000)
					} else {
						t.Get(i % 10000)
					}
				}
			})
		})
	}
}

// BenchmarkBuntDB: a tidwall/buntdb (v1.3.0) database in memory, opened
// inside the timed function: View takes its sync.RWMutex to read, Update
// to write; each database's goroutine takes it once a second, and those
// of the copies earlier runs of b.N opened once more after Close.
func BenchmarkBuntDB(b *testing.B) {
	for _, writes := range []string{"none", "all"} {
		b.Run("writes="+writes, func(b *testing.B) {
			db, err := buntdb.Open(":memory:")
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			db.Update(func(tx *buntdb.Tx) error {
				for i := range 1000 {
					tx.Set(strconv.Itoa(i), "v", nil)
				}
				return nil
			})
			var seed atomic.Uint64
			b.RunParallel(func(pb *testing.PB) {
				i := start(&seed)
				for pb.Next() {
					i = (i*1103515245 + 12345) & 0x7fffffff
					k := strconv.Itoa(i % 1000)
					if writes == "all" {
						db.Update(func(tx *buntdb.Tx) error { _, _, err := tx.Set(k, "w", nil); return err })
					} else {
						db.View(func(tx *buntdb.Tx) error { _, err := tx.Get(k); return err })
					}
				}
			})
		})
	}
}

type row struct {
	ID  string
	Val int
}

// BenchmarkMemDB: hashicorp/go-memdb (v1.3.5): a write transaction holds
// the database's writer sync.Mutex from Txn(true) to Commit; a read
// transaction takes no lock (an immutable radix tree).
func BenchmarkMemDB(b *testing.B) {
	schema := &memdb.DBSchema{Tables: map[string]*memdb.TableSchema{"t": {Name: "t",
		Indexes: map[string]*memdb.IndexSchema{"id": {Name: "id", Unique: true, Indexer: &memdb.StringFieldIndex{Field: "ID"}}}}}}
	for _, writes := range []string{"none", "all"} {
		b.Run("writes="+writes, func(b *testing.B) {
			db, err := memdb.NewMemDB(schema)
			if err != nil {
				b.Fatal(err)
			}
			txn := db.Txn(true)
			for i := range 1000 {
				txn.Insert("t", &row{strconv.Itoa(i), i})
			}
			txn.Commit()
			var seed atomic.Uint64
			b.RunParallel(func(pb *testing.PB) {
				i := start(&seed)
				for pb.Next() {
					i = (i*1103515245 + 12345) & 0x7fffffff
					k := strconv.Itoa(i % 1000)
					if writes == "all" {
						txn := db.Txn(true)
						txn.Insert("t", &row{k, i})
						txn.Commit()
					} else {
						db.Txn(false).First("t", "id", k)
					}
				}
			})
		})
	}
}

// x/sync/semaphore: Acquire and Release each take the Weighted's mutex.
func BenchmarkSemaphore(b *testing.B) {
	s := semaphore.NewWeighted(1 << 30)
	ctx := context.Background()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			s.Acquire(ctx, 1)
			s.Release(1)
		}
	})
}

// errgroup with a limit of 4: each Go sends on the group's channel and
// starts a goroutine; the goroutines share a WaitGroup.
func BenchmarkErrgroup(b *testing.B) {
	var sink atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		var g errgroup.Group
		g.SetLimit(4)
		for pb.Next() {
			g.Go(func() error { sink.Add(1); return nil })
		}
		g.Wait()
	})
}

// A request counter every goroutine adds to: one word.
func BenchmarkExpvarInt(b *testing.B) {
	v := new(expvar.Int)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			v.Add(1)
		}
	})
}

// Counters by path in an expvar.Map: a sync.Map read, then an atomic add
// on the path's word; four hot paths.
func BenchmarkExpvarMap(b *testing.B) {
	m := new(expvar.Map)
	paths := []string{"/a", "/b", "/c", "/d"}
	var seed atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		i := int(seed.Add(1))
		for pb.Next() {
			i++
			m.Add(paths[i&3], 1)
		}
	})
}

// math/rand/v2's top-level functions: per-thread state, nothing shared.
func BenchmarkRandV2(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		var s uint64
		for pb.Next() {
			s += rand.Uint64()
		}
		_ = s
	})
}

// A logger every goroutine writes through: slog's TextHandler holds its
// mutex around each write.
func BenchmarkSlog(b *testing.B) {
	l := slog.New(slog.NewTextHandler(io.Discard, nil))
	var seed atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		id := strconv.Itoa(int(seed.Add(1)))
		for pb.Next() {
			l.Info("request", "id", id, "status", 200)
		}
	})
}

// A WaitGroup every goroutine adds to and marks done: one word.
func BenchmarkWaitGroup(b *testing.B) {
	var wg sync.WaitGroup
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			wg.Add(1)
			wg.Done()
		}
	})
}

// freecache: 256 segments, each its own sync.Mutex, which Get locks.
func BenchmarkFreecache(b *testing.B) {
	c := freecache.NewCache(16 << 20)
	for _, k := range keys() {
		c.Set([]byte(k), []byte("value"), 0)
	}
	reads(b, func(k string) { c.Get([]byte(k)) })
}

// ttlcache: Get touches the item under the cache's one RWMutex, locked.
func BenchmarkTTLCache(b *testing.B) {
	c := ttlcache.New[string, int](ttlcache.WithTTL[string, int](time.Hour))
	for i, k := range keys() {
		c.Set(k, i, ttlcache.DefaultTTL)
	}
	reads(b, func(k string) { c.Get(k) })
}

// gcache's LRU: Get locks its one sync.RWMutex (the list reorders).
func BenchmarkGcache(b *testing.B) {
	c := gcache.New(2048).LRU().Build()
	for i, k := range keys() {
		c.Set(k, i)
	}
	reads(b, func(k string) { c.Get(k) })
}

// otter: Get reads without a lock.
func BenchmarkOtter(b *testing.B) {
	c := otter.Must(&otter.Options[string, int]{MaximumSize: 2048})
	for i, k := range keys() {
		c.Set(k, i)
	}
	reads(b, func(k string) { c.GetIfPresent(k) })
}

// workerpool: Submit sends each task over a channel to the pool's
// dispatcher goroutine, which hands it to one of 4 workers.
func BenchmarkWorkerpool(b *testing.B) {
	wp := workerpool.New(4)
	var done atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			wp.Submit(func() { done.Add(1) })
		}
	})
	wp.StopWait()
}

// snowflake: Generate holds the node's sync.Mutex, and spins for the next
// millisecond after 4096 IDs in one.
func BenchmarkSnowflake(b *testing.B) {
	n, err := snowflake.NewNode(1)
	if err != nil {
		b.Fatal(err)
	}
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			n.Generate()
		}
	})
}

// sonyflake: NextID holds its sync.Mutex, and sleeps for the next 10 ms
// after 256 IDs in one.
func BenchmarkSonyflake(b *testing.B) {
	sf, err := sonyflake.New(sonyflake.Settings{MachineID: func() (uint16, error) { return 1, nil }})
	if err != nil {
		b.Fatal(err)
	}
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			sf.NextID()
		}
	})
}

// juju/ratelimit: TakeAvailable locks the bucket's sync.Mutex.
func BenchmarkJujuRate(b *testing.B) {
	tb := ratelimit.NewBucketWithRate(1e12, 1<<40)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			tb.TakeAvailable(1)
		}
	})
}

// golang-lru's ARC: Get locks its one sync.RWMutex (Lock).
func BenchmarkARC(b *testing.B) {
	c, _ := arc.NewARC[string, int](2048)
	for i, k := range keys() {
		c.Add(k, i)
	}
	reads(b, func(k string) { c.Get(k) })
}

// golang-lru's expirable LRU: Get locks its sync.Mutex; a goroutine
// deletes what expired, under the same lock.
func BenchmarkExpirable(b *testing.B) {
	c := expirable.NewLRU[string, int](2048, nil, time.Minute)
	for i, k := range keys() {
		c.Add(k, i)
	}
	reads(b, func(k string) { c.Get(k) })
}

// oxtoacart/bpool: a buffered channel of 64 byte slices, taken and given
// back by every goroutine.
func BenchmarkBpool(b *testing.B) {
	p := bpool.NewBytePool(64, 1024)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			buf := p.Get()
			buf[0]++
			p.Put(buf)
		}
	})
}

// valyala/bytebufferpool: a sync.Pool, and on every Put an atomic add to
// one of 20 shared counters (by size), which the pool calibrates from.
func BenchmarkByteBufferPool(b *testing.B) {
	var p bytebufferpool.Pool
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			buf := p.Get()
			buf.WriteString("hello, world")
			p.Put(buf)
		}
	})
}

// sourcegraph/conc's pool, at most 4 goroutines: Go waits on a channel
// for a free slot, then starts a goroutine.
func BenchmarkConcPool(b *testing.B) {
	var done atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		p := pool.New().WithMaxGoroutines(4)
		for pb.Next() {
			p.Go(func() { done.Add(1) })
		}
		p.Wait()
	})
}

// reads calls get from every goroutine on the 1024 keys in turn, each
// goroutine from its own place in them.
func reads(b *testing.B, get func(key string)) {
	ks := keys()
	var seed atomic.Uint64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for i := start(&seed); pb.Next(); i++ {
			get(ks[i&1023])
		}
	})
}

// pond: Submit takes the pool's sync.Mutex, then hands the task to a
// worker goroutine (at most 4).
func BenchmarkPond(b *testing.B) {
	p := pond.NewPool(4)
	var done atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			p.Submit(func() { done.Add(1) })
		}
	})
	p.StopAndWait()
}

// go-kit/log's sync logger: Log holds its sync.Mutex while the logfmt
// logger formats and writes the line.
func BenchmarkGoKitLog(b *testing.B) {
	l := log.NewSyncLogger(log.NewLogfmtLogger(io.Discard))
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			l.Log("msg", "request", "status", 200, "path", "/a")
		}
	})
}

// tally: a counter's Inc is an atomic add on one word every goroutine
// writes.
func BenchmarkTally(b *testing.B) {
	c := tally.NewTestScope("", nil).Counter("requests")
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			c.Inc(1)
		}
	})
}

// BenchmarkGoLimiter: sethvargo/go-limiter's memory store (v0.7.1): Take
// finds a key's bucket under the store's RWMutex read lock, then takes the
// bucket's sync.Mutex; one key for every goroutine, or one each.
func BenchmarkGoLimiter(b *testing.B) {
	for _, shared := range []bool{true, false} {
		b.Run(map[bool]string{true: "key=shared", false: "key=pergoroutine"}[shared], func(b *testing.B) {
			store, err := memorystore.New(&memorystore.Config{Tokens: 1 << 40, Interval: time.Hour})
			if err != nil {
				b.Fatal(err)
			}
			defer store.Close(context.Background())
			var next atomic.Int64
			b.RunParallel(func(pb *testing.PB) {
				key := "k"
				if !shared {
					key += strconv.FormatInt(next.Add(1), 10)
				}
				for pb.Next() {
					store.Take(context.Background(), key)
				}
			})
		})
	}
}

// BenchmarkInmemSink: hashicorp/go-metrics' in-memory sink (v0.7.0):
// IncrCounter finds the interval under an RWMutex read lock and counts
// under the interval's RWMutex, which it only ever locks.
func BenchmarkInmemSink(b *testing.B) {
	sink := gometrics.NewInmemSink(10*time.Second, time.Minute)
	key := []string{"requests", "served"}
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			sink.IncrCounter(key, 1)
		}
	})
}

// BenchmarkHclog: hashicorp/go-hclog (v1.6.3) formats and writes every
// line under its logger's sync.Mutex.
func BenchmarkHclog(b *testing.B) {
	l := hclog.New(&hclog.LoggerOptions{Output: io.Discard, Level: hclog.Info})
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			l.Info("served", "path", "/a", "status", 200)
		}
	})
}

// BenchmarkResilientBreaker: eapache/go-resiliency's breaker (v1.7.0)
// takes its sync.Mutex only for a failure's bookkeeping; here every
// fourth call fails, or none, and the threshold is never reached.
func BenchmarkResilientBreaker(b *testing.B) {
	for _, every := range []int{0, 4} {
		b.Run(map[bool]string{true: "fail=none", false: "fail=1in4"}[every == 0], func(b *testing.B) {
			br := breaker.New(1<<40, 1, time.Hour)
			failed := errors.New("failed")
			b.RunParallel(func(pb *testing.PB) {
				i := 0
				for pb.Next() {
					i++
					br.Run(func() error {
						if every > 0 && i%every == 0 {
							return failed
						}
						return nil
					})
				}
			})
		})
	}
}

// BenchmarkChanSemaphore: eapache/go-resiliency's semaphore (v1.7.0) is a
// buffered channel, each Acquire with a timer of its own: no sync.Mutex.
// With one ticket the channel is the lock every goroutine waits at.
func BenchmarkChanSemaphore(b *testing.B) {
	for _, tickets := range []int{1, 64} {
		b.Run("tickets="+strconv.Itoa(tickets), func(b *testing.B) {
			sem := chansem.New(tickets, time.Hour)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if sem.Acquire() == nil {
						sem.Release()
					}
				}
			})
		})
	}
}

// BenchmarkHaxmap: alphadose/haxmap (v1.4.0) is lock-free; every
// goroutine reads one shared map.
func BenchmarkHaxmap(b *testing.B) {
	m := haxmap.New[int, int]()
	for i := range 1024 {
		m.Set(i, i)
	}
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			m.Get(i & 1023)
			i++
		}
	})
}

// BenchmarkContext: context.WithCancel of a cancelable parent registers
// the child under the parent's sync.Mutex, and cancel takes it again to
// leave; one parent for every goroutine, or one each.
func BenchmarkContext(b *testing.B) {
	for _, shared := range []bool{true, false} {
		b.Run(map[bool]string{true: "parent=shared", false: "parent=pergoroutine"}[shared], func(b *testing.B) {
			root, stop := context.WithCancel(context.Background())
			defer stop()
			b.RunParallel(func(pb *testing.PB) {
				parent := root
				if !shared {
					var stop context.CancelFunc
					parent, stop = context.WithCancel(context.Background())
					defer stop()
				}
				for pb.Next() {
					_, cancel := context.WithCancel(parent)
					cancel()
				}
			})
		})
	}
}

// BenchmarkGetenv: os.Getenv reads the environment under syscall's
// envLock, an RWMutex taken to read.
func BenchmarkGetenv(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			os.Getenv("HOME")
		}
	})
}

// BenchmarkSQL: database/sql takes a connection from its pool and puts it
// back, both under the DB's sync.Mutex; the driver does nothing.
func BenchmarkSQL(b *testing.B) {
	db, err := sql.Open("morelibs-nop", "")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	db.SetMaxIdleConns(64)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := db.Exec("x"); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

func init() { sql.Register("morelibs-nop", nopDriver{}) }

// nopDriver's connections answer every statement at once.
type nopDriver struct{}

func (nopDriver) Open(string) (driver.Conn, error) { return nopConn{}, nil }

type nopConn struct{}

func (nopConn) Prepare(string) (driver.Stmt, error) { return nopStmt{}, nil }
func (nopConn) Close() error                        { return nil }
func (nopConn) Begin() (driver.Tx, error)           { return nil, io.EOF }
func (nopConn) ExecContext(context.Context, string, []driver.NamedValue) (driver.Result, error) {
	return driver.RowsAffected(1), nil
}

type nopStmt struct{}

func (nopStmt) Close() error                               { return nil }
func (nopStmt) NumInput() int                              { return 0 }
func (nopStmt) Exec([]driver.Value) (driver.Result, error) { return driver.RowsAffected(1), nil }
func (nopStmt) Query([]driver.Value) (driver.Rows, error)  { return nil, io.EOF }

// BenchmarkJSON: encoding/json's Marshal finds its encoder in a sync.Map
// and its buffer in a sync.Pool: no sync.Mutex once warm.
func BenchmarkJSON(b *testing.B) {
	type order struct {
		Drink  string   `json:"drink"`
		Shots  int      `json:"shots"`
		Extras []string `json:"extras"`
	}
	o := order{"latte", 2, []string{"oat", "vanilla"}}
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			json.Marshal(o)
		}
	})
}

// BenchmarkXsyncMPMC: puzpuzpuz/xsync's MPMC queue (v4.5.0) has no lock:
// every enqueue and dequeue CASes the queue's shared head or tail word.
func BenchmarkXsyncMPMC(b *testing.B) {
	q := xsync.NewMPMCQueue[int](1024)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if q.TryEnqueue(1) {
				q.TryDequeue()
			}
		}
	})
}

// BenchmarkXsyncRBMutex: xsync's reader-biased RBMutex (v4.5.0), read
// only: each reader marks a slot of its own, no word that all write.
func BenchmarkXsyncRBMutex(b *testing.B) {
	mu := xsync.NewRBMutex()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			mu.RUnlock(mu.RLock())
		}
	})
}
