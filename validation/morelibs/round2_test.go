package morelibs

import (
	"context"
	"hash/maphash"
	"io"
	"net"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
	"unique"

	"github.com/DataDog/datadog-go/v5/statsd"
	"github.com/Workiva/go-datastructures/queue"
	"github.com/Yiling-J/theine-go"
	apexlog "github.com/apex/log"
	apexjson "github.com/apex/log/handlers/json"
	EventBus "github.com/asaskevich/EventBus"
	"github.com/bits-and-blooms/bloom/v3"
	"github.com/cskr/pubsub/v2"
	mapset "github.com/deckarep/golang-set/v2"
	"github.com/elastic/go-freelru"
	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	fatihpool "github.com/fatih/pool"
	commonspool "github.com/jolestar/go-commons-pool/v2"
	"github.com/josharian/intern"
	"github.com/karlseguin/ccache/v3"
	"github.com/klauspost/compress/zstd"
	"github.com/muesli/cache2go"
	"github.com/oklog/ulid/v2"
	"github.com/paulbellamy/ratecounter"
	"github.com/rs/xid"
	"github.com/throttled/throttled/v2"
	"github.com/throttled/throttled/v2/store/memstore"
	limiter "github.com/ulule/limiter/v3"
	ullmemory "github.com/ulule/limiter/v3/drivers/store/memory"
	"github.com/zhangyunhao116/skipmap"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
)

// Round two: benchmarks over libraries that neither morelibs_test.go nor
// trials_test.go nor the reallibs module use, written before brewput
// predict, why or bench saw them. Each comment names the lock, channel or
// shared word the library's own source (at the version pinned in go.mod)
// takes on the path benchmarked.

// r2Seed is the hash seed of the caches that ask their caller for a hash.
var r2Seed = maphash.MakeSeed()

func r2Hash(s string) uint32 { return uint32(maphash.String(r2Seed, s)) }

// BenchmarkR2Ccache: karlseguin/ccache/v3 (v3.0.5), a 16-bucket LRU. Get
// takes its bucket's sync.RWMutex to read (bucket.go: bucket.get,
// RLock), loads the item's expiry atomically, then does a non-blocking
// send of the item on c.promotables (cache.go), a channel of 1024 that
// every Get sends on and the cache's one worker goroutine drains to move
// entries in its list. Stop does not wait for that goroutine to end; the
// benchmark does, untimed.
func BenchmarkR2Ccache(b *testing.B) {
	before := runtime.NumGoroutine()
	c := ccache.New(ccache.Configure[int]().MaxSize(4096))
	for i, k := range keys() {
		c.Set(k, i, time.Hour)
	}
	reads(b, func(k string) {
		if c.Get(k) == nil {
			b.Error("miss")
		}
	})
	b.StopTimer()
	c.Stop()
	r2AwaitGoroutines(before)
}

// BenchmarkR2FreeLRU: elastic/go-freelru (v0.16.0), Get of keys present.
// SyncedLRU holds its one sync.RWMutex with Lock on every Get
// (syncedlru.go: lru.mu), since get moves the entry to the head of the
// list; ShardedLRU locks one of its mus[] (shardedlru.go), one per shard,
// GOMAXPROCS*16 shards at this capacity. The hash is the caller's
// (maphash here).
func BenchmarkR2FreeLRU(b *testing.B) {
	for _, sharded := range []bool{false, true} {
		b.Run(map[bool]string{false: "lru=synced", true: "lru=sharded"}[sharded], func(b *testing.B) {
			var c interface {
				Add(string, int) bool
				Get(string) (int, bool)
			}
			var err error
			if sharded {
				c, err = freelru.NewSharded[string, int](1<<16, r2Hash)
			} else {
				c, err = freelru.NewSynced[string, int](1<<16, r2Hash)
			}
			if err != nil {
				b.Fatal(err)
			}
			for i, k := range keys() {
				c.Add(k, i)
			}
			reads(b, func(k string) { c.Get(k) })
		})
	}
}

// BenchmarkR2Theine: Yiling-J/theine-go (v0.6.3), a TinyLFU cache. Get
// takes one of its shards' (GOMAXPROCS*2 rounded up, 16 to 128)
// reader-biased RBMutex to read (internal/store.go:
// getFromShard, shard.mu.RLock, a slot per reader), adds to a striped
// hits counter (internal/counter.go: CAS on a random stripe), and CASes
// the tail of one of its striped read buffers (internal/buffer.go: Add;
// 4 per CPU, counted at package init from the process's GOMAXPROCS, so
// from the machine's CPUs under go test -cpu);
// every 16th item in a stripe drains it under the store's one
// sync.Mutex, policyMu (store.go: drainRead). Its maintenance
// goroutines end after Close, which the benchmark waits for, untimed.
func BenchmarkR2Theine(b *testing.B) {
	before := runtime.NumGoroutine()
	c, err := theine.NewBuilder[string, int](4096).Build()
	if err != nil {
		b.Fatal(err)
	}
	for i, k := range keys() {
		c.Set(k, i, 1)
	}
	reads(b, func(k string) { c.Get(k) })
	b.StopTimer()
	c.Close()
	r2AwaitGoroutines(before)
}

// r2AwaitGoroutines waits, up to a second, for the goroutines a library
// was told to stop (by a cancelled context it does not wait for) to end.
func r2AwaitGoroutines(n int) {
	for range 1000 {
		if runtime.NumGoroutine() <= n {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

var r2Tables atomic.Int64

// BenchmarkR2Cache2go: muesli/cache2go (2022-10-11), Value of keys
// present, items with no expiry. Value reads the table's map under its
// sync.RWMutex (cachetable.go: table.RLock), then KeepAlive takes the
// item's own sync.RWMutex with Lock to update its access time and count
// (cacheitem.go: item.Lock), 1024 items.
func BenchmarkR2Cache2go(b *testing.B) {
	t := cache2go.Cache("r2-" + strconv.FormatInt(r2Tables.Add(1), 10))
	defer t.Flush()
	for i, k := range keys() {
		t.Add(k, 0, i)
	}
	reads(b, func(k string) {
		if _, err := t.Value(k); err != nil {
			b.Error(err)
		}
	})
}

// BenchmarkR2Throttled: throttled/throttled/v2's GCRA limiter (v2.15.0)
// over its memstore with no key limit, one client key per goroutine, as
// an HTTP server limits each client. Each RateLimitCtx reads the key
// twice from the store's map under its sync.RWMutex (store/memstore:
// ms.RLock in get) and CASes the key's own int64 (the theoretical
// arrival time); the first call per key takes ms.Lock to add it.
func BenchmarkR2Throttled(b *testing.B) {
	st, err := memstore.NewCtx(0)
	if err != nil {
		b.Fatal(err)
	}
	rl, err := throttled.NewGCRARateLimiterCtx(st, throttled.RateQuota{MaxRate: throttled.PerSec(1e9), MaxBurst: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var ids atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		key := "10.0.0." + strconv.FormatInt(ids.Add(1), 10)
		for pb.Next() {
			limited, _, err := rl.RateLimitCtx(ctx, key, 1)
			if err != nil || limited {
				b.Error("limited", err)
				return
			}
		}
	})
}

// BenchmarkR2Ulule: ulule/limiter/v3's memory store (v3.11.2), without
// its cleaner goroutine, one key for every goroutine (a limit on the
// whole API). Get finds the key's counter in a sync.Map
// (drivers/store/memory/cache.go: cache.counters) and increments it under
// the counter's one sync.RWMutex, Lock (Counter.Increment).
func BenchmarkR2Ulule(b *testing.B) {
	store := ullmemory.NewStoreWithOptions(limiter.StoreOptions{Prefix: "r2", CleanUpInterval: 0})
	l := limiter.New(store, limiter.Rate{Period: time.Hour, Limit: 1 << 62})
	ctx := context.Background()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			c, err := l.Get(ctx, "api")
			if err != nil || c.Reached {
				b.Error("limited", err)
				return
			}
		}
	})
}

// BenchmarkR2RateCounter: paulbellamy/ratecounter (v0.2.0), one
// AvgRateCounter of request latencies over the last 50 ms that every
// request adds to. Its Incr increments two RateCounters, hits and
// counter (avgratecounter.go), and each RateCounter.Incr is an atomic add
// on r.counter and on the current slot of r.partials, then r.run's
// CompareAndSwapInt32 on r.running (ratecounter.go): six read-modify-
// writes on words every goroutine writes. Each RateCounter's own
// goroutine, started by the first Incr, empties a slot every 2.5 ms and
// ends once its count is 0, which the benchmark waits for, untimed.
func BenchmarkR2RateCounter(b *testing.B) {
	before := runtime.NumGoroutine()
	rc := ratecounter.NewAvgRateCounter(50 * time.Millisecond)
	var seed atomic.Uint64
	b.RunParallel(func(pb *testing.PB) {
		x := seed.Add(0x9E3779B97F4A7C15)
		for pb.Next() {
			x = xorshift(x)
			rc.Incr(int64(100 + x&1023))
		}
	})
	b.StopTimer()
	r2AwaitGoroutines(before)
}

// r2Discard is a WriteCloser that drops what it is given.
type r2Discard struct{}

func (r2Discard) Write(p []byte) (int, error) { return len(p), nil }
func (r2Discard) Close() error                { return nil }

// BenchmarkR2Statsd: DataDog/datadog-go/v5's statsd client (v5.9.1), with
// its default client-side aggregation, one counter with one tag. Incr
// adds to the client's telemetry word (statsdex.go: atomic.AddUint64 on
// c.telemetry.totalMetricsCount), reads the count map under its one
// shard's sync.RWMutex (aggregator.go: countShards[0], RLock; one shard
// by default) and adds atomically to the counter's value (metrics.go:
// countMetric.sample): three words every goroutine writes. Its flush,
// sender and telemetry goroutines stop at Close.
func BenchmarkR2Statsd(b *testing.B) {
	c, err := statsd.NewWithWriter(r2Discard{})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	tags := []string{"path:/a"}
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := c.Incr("requests", tags, 1); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkR2OtelCounter: go.opentelemetry.io/otel/sdk/metric (v1.47.0),
// an Int64Counter with one attribute set, read by a ManualReader
// (cumulative). Add finds the series in a sync.Map
// (internal/aggregate/atomic.go: limitedSyncMap.LoadOrStoreAttr, a Load)
// and adds to its one int64 (atomicCounter.add, nInt.Add): one word every
// goroutine writes.
func BenchmarkR2OtelCounter(b *testing.B) {
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	defer mp.Shutdown(context.Background())
	cnt, err := mp.Meter("r2").Int64Counter("requests")
	if err != nil {
		b.Fatal(err)
	}
	opt := metric.WithAttributeSet(attribute.NewSet(attribute.String("path", "/a")))
	ctx := context.Background()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			cnt.Add(ctx, 1, opt)
		}
	})
}

// BenchmarkR2ApexLog: apex/log (v1.9.0) with its JSON handler: the
// handler holds its one sync.Mutex (handlers/json/json.go: h.mu) while
// encoding/json encodes and writes the whole entry.
func BenchmarkR2ApexLog(b *testing.B) {
	l := &apexlog.Logger{Handler: apexjson.New(io.Discard), Level: apexlog.InfoLevel}
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			l.WithFields(apexlog.Fields{"path": "/a", "status": 200}).Info("served")
		}
	})
}

// BenchmarkR2Xid: rs/xid (v1.6.0) New reads the clock and adds atomically
// to one package-wide counter (id.go: objectIDCounter), a word every
// goroutine writes.
func BenchmarkR2Xid(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			_ = xid.New()
		}
	})
}

// BenchmarkR2Ulid: oklog/ulid/v2 (v2.1.2) Make reads its monotonic
// entropy under one package-wide sync.Mutex (ulid.go: defaultEntropy, a
// LockedMonotonicReader, r.mu), though its doc says it uses a sync.Pool.
func BenchmarkR2Ulid(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			_ = ulid.Make()
		}
	})
}

// BenchmarkR2EventBus: asaskevich/EventBus (2020-09-07), two synchronous
// handlers on one topic. Publish holds the bus's one sync.Mutex
// (event_bus.go: bus.lock) for the whole dispatch: it copies the handler
// slice and calls each handler through reflect.
func BenchmarkR2EventBus(b *testing.B) {
	bus := EventBus.New()
	var orders, total int // written by the handlers, under bus.lock
	bus.Subscribe("order:created", func(n int) { orders++ })
	bus.Subscribe("order:created", func(n int) { total += n })
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			bus.Publish("order:created", 3)
		}
	})
}

// BenchmarkR2PubSub: cskr/pubsub/v2 (v2.0.2), one topic, one subscriber
// draining its channel. Pub sends on ps.cmdChan, an unbuffered channel
// that the pubsub's one goroutine reads (pubsub.go: start), which then
// sends the message on the subscriber's channel (capacity 1024). Both
// goroutines end after Shutdown, untimed.
func BenchmarkR2PubSub(b *testing.B) {
	before := runtime.NumGoroutine()
	ps := pubsub.New[string, int](1024)
	ch := ps.Sub("orders")
	done := make(chan int)
	go func() {
		n := 0
		for range ch {
			n++
		}
		done <- n
	}()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			ps.Pub(1, "orders")
		}
	})
	b.StopTimer()
	ps.Shutdown()
	<-done
	r2AwaitGoroutines(before)
}

// BenchmarkR2Intern: josharian/intern (v1.0.0) Bytes looks the bytes up in
// a map taken from one package-wide sync.Pool (intern.go: pool) and puts
// it back: per-P pool slots, nothing that goroutines share but the
// pool's victim swap at GC.
func BenchmarkR2Intern(b *testing.B) {
	ks := keys()
	var seed atomic.Uint64
	b.RunParallel(func(pb *testing.PB) {
		bufs := make([][]byte, len(ks))
		for i, k := range ks {
			bufs[i] = []byte(k)
		}
		for i := start(&seed); pb.Next(); i++ {
			_ = intern.Bytes(bufs[i&1023])
		}
	})
}

// BenchmarkR2Unique: the standard library's unique.Make (go1.26) on 1024
// strings already interned and kept alive: a lock-free walk of the
// type's canonMap (unique/canonmap.go: Load, atomic pointer loads; its
// node mutex is taken only to insert), nothing written.
func BenchmarkR2Unique(b *testing.B) {
	ks := keys()
	hs := make([]unique.Handle[string], len(ks))
	for i, k := range ks {
		hs[i] = unique.Make(k)
	}
	reads(b, func(k string) { _ = unique.Make(k) })
	runtime.KeepAlive(hs)
}

// BenchmarkR2Queue: Workiva/go-datastructures' queue.Queue (v1.1.7), a
// work queue every goroutine puts one item on and takes one from: Put and
// Get each hold the queue's one sync.Mutex (queue/queue.go: q.lock); it
// is never empty at a Get, so no Get waits.
func BenchmarkR2Queue(b *testing.B) {
	q := queue.New(1024)
	defer q.Dispose()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := q.Put(1); err != nil {
				b.Error(err)
				return
			}
			if _, err := q.Get(1); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkR2Skipmap: zhangyunhao116/skipmap (v0.10.1), an IntMap of 1024
// keys, each goroutine storing a key of its own next to one of them and
// deleting it again. Store and Delete lock the predecessors' node
// mutexes (gen_int.go: pred.mu, spread over the list), and each adds
// atomically to the map's one length word (s.length), which every
// goroutine writes; the walk to the node is lock-free.
func BenchmarkR2Skipmap(b *testing.B) {
	m := skipmap.NewInt[int]()
	for i := range 1024 {
		m.Store(i<<10, i)
	}
	var ids, seed atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		id := int(ids.Add(1)) & 1023
		if id == 0 {
			id = 1023
		}
		for i := int(seed.Add(7919)); pb.Next(); i++ {
			k := (i&1023)<<10 | id
			m.Store(k, i)
			m.Delete(k)
		}
	})
}

// BenchmarkR2Set: deckarep/golang-set/v2 (v2.9.0), a thread-safe set of
// 1024 strings only read: ContainsOne holds its sync.RWMutex to read
// (threadsafe.go: threadSafeSet, RLock), the reader count one word every
// goroutine writes.
func BenchmarkR2Set(b *testing.B) {
	s := mapset.NewSet(keys()...)
	reads(b, func(k string) {
		if !s.ContainsOne(k) {
			b.Error("missing")
		}
	})
}

// r2Conn is a connection that does nothing.
type r2Conn struct{ net.Conn }

func (r2Conn) Write(p []byte) (int, error) { return len(p), nil }
func (r2Conn) Close() error                { return nil }

// BenchmarkR2FatihPool: fatih/pool (v3.0.0) channel pool of 64
// connections: Get reads c.conns under the pool's sync.RWMutex
// (channel.go: c.mu.RLock) and receives a connection from the buffered
// channel c.conns; Close on the wrapper puts it back, a send on the same
// channel under the same read lock. A goroutine that finds the channel
// empty dials a new one.
func BenchmarkR2FatihPool(b *testing.B) {
	p, err := fatihpool.NewChannelPool(64, 64, func() (net.Conn, error) { return r2Conn{}, nil })
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	req := []byte("PING\r\n")
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			c, err := p.Get()
			if err != nil {
				b.Error(err)
				return
			}
			c.Write(req)
			c.Close()
		}
	})
}

type r2Obj struct{ n int }

// BenchmarkR2CommonsPool: jolestar/go-commons-pool/v2 (v2.1.2), an object
// pool with no bound and no evictor. BorrowObject and ReturnObject take
// the pool's closeLock sync.Mutex (pool.go: getClose, three times a
// round trip), the idle deque's one sync.Mutex
// (collections/queue.go: LinkedBlockingDeque.lock, in PollFirst and, LIFO
// by default, OfferFirst), the all-objects map's sync.RWMutex to read
// (collections/collections.go: SyncIdentityMap.Get, on return) and the
// object's own mutex (object.go: o.lock, Allocate and Deallocate).
func BenchmarkR2CommonsPool(b *testing.B) {
	ctx := context.Background()
	cfg := commonspool.NewDefaultPoolConfig()
	cfg.MaxTotal = -1
	cfg.MaxIdle = -1
	p := commonspool.NewObjectPool(ctx, commonspool.NewPooledObjectFactorySimple(
		func(context.Context) (interface{}, error) { return &r2Obj{}, nil }), cfg)
	defer p.Close(ctx)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			o, err := p.BorrowObject(ctx)
			if err != nil {
				b.Error(err)
				return
			}
			o.(*r2Obj).n++
			if err := p.ReturnObject(ctx, o); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// r2Payload is a 512-byte JSON-like message to compress.
var r2Payload = func() []byte {
	var p []byte
	for i := 0; len(p) < 512; i++ {
		p = append(p, `{"id":`...)
		p = strconv.AppendInt(p, int64(i*7919%1000), 10)
		p = append(p, `,"drink":"latte","shots":2,"extras":["oat","vanilla"]},`...)
	}
	return p[:512]
}()

// BenchmarkR2Zstd: klauspost/compress/zstd (v1.20.1) EncodeAll of 512
// bytes at SpeedFastest. EncodeAll receives an encoder from e.encoders, a
// buffered channel of GOMAXPROCS encoders, and sends it back when done
// (encoder.go: EncodeAll): one Encoder for every goroutine shares that
// channel's lock; one Encoder per goroutine (concurrency 1) shares
// nothing.
func BenchmarkR2Zstd(b *testing.B) {
	for _, shared := range []bool{true, false} {
		b.Run(map[bool]string{true: "encoder=shared", false: "encoder=pergoroutine"}[shared], func(b *testing.B) {
			one, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest))
			if err != nil {
				b.Fatal(err)
			}
			defer one.Close()
			one.EncodeAll(r2Payload, nil)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				enc := one
				if !shared {
					var err error
					enc, err = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
					if err != nil {
						b.Error(err)
						return
					}
					defer enc.Close()
				}
				dst := make([]byte, 0, 1024)
				for pb.Next() {
					dst = enc.EncodeAll(r2Payload, dst[:0])
				}
			})
		})
	}
}

// BenchmarkR2Failsafe: failsafe-go (v0.9.8), one count-based circuit
// breaker (closed, every call succeeds) around every call. Run takes the
// breaker's one sync.Mutex twice (circuitbreaker/circuitbreaker.go:
// cb.mu, in TryAcquirePermit before the call and RecordSuccess after).
func BenchmarkR2Failsafe(b *testing.B) {
	cb := circuitbreaker.NewBuilder[any]().WithFailureThreshold(5).WithDelay(time.Minute).Build()
	ex := failsafe.With[any](cb)
	var calls atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := ex.Run(func() error { calls.Add(1); return nil }); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkR2Bloom: bits-and-blooms/bloom/v3 (v3.7.1), a filter of 100000
// keys at 1% false positives, built once and then only tested, as a
// service screens requests: TestString hashes and reads the shared
// bitset; the library has no lock and nothing is written.
func BenchmarkR2Bloom(b *testing.B) {
	f := bloom.NewWithEstimates(100000, 0.01)
	for _, k := range keys() {
		f.AddString(k)
	}
	reads(b, func(k string) {
		if !f.TestString(k) {
			b.Error("missing")
		}
	})
}
