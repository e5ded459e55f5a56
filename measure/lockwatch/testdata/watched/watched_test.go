// Package watched is lockwatch's test subject: benchmarks whose locks are
// known, built with the overlay by TestWatchedBenchmarks. Each lock the
// test looks for is on a line ending in a "// site:" comment.
package watched

import (
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

var (
	one    sync.Mutex
	shards [64]struct {
		mu sync.Mutex
		_  [40]byte
	}
	rw    sync.RWMutex
	long  sync.Mutex
	count int
)

func lockOne() {
	one.Lock() // site: one
	count++
	one.Unlock()
}

func BenchmarkOne(b *testing.B) {
	for range b.N {
		lockOne()
	}
}

// BenchmarkLongHold holds its lock about 1.2 ms, as one held around I/O
// is: at most 600 times a run, whatever b.N, so that a run takes under a
// second; and only where LONGHOLD is set, run alone (the others' runs of
// 100000 would take two minutes).
func BenchmarkLongHold(b *testing.B) {
	if os.Getenv("LONGHOLD") == "" {
		b.Skip("LONGHOLD not set")
	}
	for range min(b.N, 600) {
		long.Lock() // site: long
		time.Sleep(1200 * time.Microsecond)
		long.Unlock()
	}
}

func BenchmarkShards(b *testing.B) {
	for i := range b.N {
		s := &shards[i%len(shards)]
		s.mu.Lock() // site: shards
		count++
		s.mu.Unlock()
	}
}

// BenchmarkHotShard takes the first shard 19 times in 20 and the next
// seven in turn otherwise: one lock made nearly all the takes.
func BenchmarkHotShard(b *testing.B) {
	for i := range b.N {
		s := &shards[0]
		if i%20 == 0 {
			s = &shards[1+i/20%7]
		}
		s.mu.Lock() // site: hotshard
		count++
		s.mu.Unlock()
	}
}

func BenchmarkRW(b *testing.B) {
	for i := range b.N {
		if i%10 == 0 {
			rw.Lock() // site: writers
			count++
			rw.Unlock()
			continue
		}
		rw.RLock() // site: readers
		_ = count
		rw.RUnlock()
	}
}

// BenchmarkSetup locks only before its timer is reset: none of it counts.
func BenchmarkSetup(b *testing.B) {
	for range 10000 {
		lockOne()
	}
	b.ResetTimer()
	for range b.N {
		count++
	}
}

func BenchmarkParallel(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			lockOne()
		}
	})
}

// BenchmarkTwoSites takes one mutex at two sites: one lock, one group.
func BenchmarkTwoSites(b *testing.B) {
	for i := range b.N {
		if i%2 == 0 {
			one.Lock() // site: twoA
			count++
			one.Unlock()
		} else {
			one.Lock() // site: twoB
			count--
			one.Unlock()
		}
	}
}

// halves runs body on two goroutines, b.N/2 times each: b.RunParallel
// could hand every iteration to one.
func halves(b *testing.B, body func(g int)) {
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body(g)
		}()
	}
	wg.Wait()
}

// BenchmarkShared: two goroutines take one mutex.
func BenchmarkShared(b *testing.B) {
	halves(b, func(int) {
		for range b.N / 2 {
			lockOne()
		}
	})
}

// BenchmarkTurns: two goroutines take one mutex in turn, each waiting for
// the other's hold to end: every next holder is the other goroutine.
func BenchmarkTurns(b *testing.B) {
	var mu sync.Mutex
	n := 0
	turn := [2]chan struct{}{make(chan struct{}, 1), make(chan struct{}, 1)}
	turn[0] <- struct{}{}
	halves(b, func(g int) {
		for range b.N / 2 {
			<-turn[g]
			mu.Lock() // site: turns
			n++
			mu.Unlock()
			turn[1-g] <- struct{}{}
		}
	})
}

// BenchmarkWaited: one goroutine holds a lock until the other is taking
// it, which then waits, and holds it 50 µs once it has it: its holds all
// follow a wait (at most 800 rounds, whatever b.N).
func BenchmarkWaited(b *testing.B) {
	var mu sync.Mutex
	var trying atomic.Bool
	held, done := make(chan struct{}), make(chan struct{})
	rounds := min(b.N, 800)
	halves(b, func(g int) {
		for range rounds {
			if g == 0 {
				mu.Lock()
				held <- struct{}{}
				for !trying.Load() {
					runtime.Gosched()
				}
				spin(2 * time.Microsecond) // till the other waits
				trying.Store(false)
				mu.Unlock()
				<-done
				continue
			}
			<-held
			trying.Store(true)
			mu.Lock() // site: waited
			spin(50 * time.Microsecond)
			mu.Unlock()
			done <- struct{}{}
		}
	})
}

// spin keeps the CPU busy for d.
func spin(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}

// BenchmarkPrivate gives each of two goroutines a mutex of its own: two
// locks, each taken by one.
func BenchmarkPrivate(b *testing.B) {
	halves(b, func(int) {
		var mu sync.Mutex
		n := 0
		for range b.N / 2 {
			mu.Lock() // site: private
			n++
			mu.Unlock()
		}
	})
}

// BenchmarkChanShared: two goroutines take values from one channel, a
// pool, and put them back: one channel, whose lock both take.
func BenchmarkChanShared(b *testing.B) {
	pool := make(chan int, 4)
	for i := range 4 {
		pool <- i
	}
	halves(b, func(int) {
		for range b.N / 2 {
			v := <-pool // site: changet
			pool <- v   // site: chanput
		}
	})
}

// BenchmarkChanPrivate gives each of two goroutines a pool of its own.
func BenchmarkChanPrivate(b *testing.B) {
	halves(b, func(int) {
		pool := make(chan int, 1)
		pool <- 0
		for range b.N / 2 {
			v := <-pool // site: chanown
			pool <- v
		}
	})
}

// BenchmarkChanTicket: two goroutines hold a channel's one ticket 2 µs
// each in turn, as a semaphore: on 2 CPUs one's send blocks till the
// other's receive gives the ticket back (at most 2000 rounds, whatever
// b.N).
func BenchmarkChanTicket(b *testing.B) {
	sem := make(chan struct{}, 1)
	rounds := min(b.N, 2000)
	halves(b, func(int) {
		for range rounds / 2 {
			sem <- struct{}{} // site: chanticket
			spin(2 * time.Microsecond)
			<-sem
		}
	})
}

// BenchmarkMapStore stores 64 keys in a sync.Map in turn: its hash-trie
// locks the node above each key, a lock of internal/sync's.
func BenchmarkMapStore(b *testing.B) {
	var m sync.Map
	for i := range b.N {
		m.Store(i%64, i)
	}
}

// wrap forwards to its mutex, as logrus's MutexWrap does: its sites are
// its callers'.
type wrap struct{ mu sync.Mutex }

func (w *wrap) Lock()   { w.mu.Lock() } // site: wrapper
func (w *wrap) Unlock() { w.mu.Unlock() }

var wrapped wrap

// BenchmarkWrapped takes one mutex through wrap at two sites.
func BenchmarkWrapped(b *testing.B) {
	for i := range b.N {
		if i%2 == 0 {
			wrapped.Lock() // site: wrappedA
			count++
			wrapped.Unlock()
		} else {
			wrapped.Lock() // site: wrappedB
			count--
			wrapped.Unlock()
		}
	}
}

// BenchmarkLocker locks through the sync.Locker interface, a call the
// compiler cannot inline (nor turn into a direct call: the lock comes
// from a function it does not inline): its site is still this one.
func BenchmarkLocker(b *testing.B) {
	l := lockerOf(&one)
	for range b.N {
		l.Lock() // site: locker
		count++
		l.Unlock()
	}
}

//go:noinline
func lockerOf(m *sync.Mutex) sync.Locker { return m }

// cleaner is a goroutine BenchmarkCleanerStarts leaves behind, as a
// cache's janitor is: it takes a lock of its own again and again until
// BenchmarkCleanerStops (or half a minute) ends it.
var cleaner struct {
	once  sync.Once
	mu    sync.Mutex
	stop  atomic.Bool
	n     int
	takes atomic.Int64
}

// cleanerTakes waits, the timer running, until the cleaner has taken its
// lock enough times for the watcher, which samples one lock in 256, to
// see it: on a busy machine it may not run at all in a short run.
func cleanerTakes(from int64) {
	for end := time.Now().Add(10 * time.Second); cleaner.takes.Load()-from < 8192 && time.Now().Before(end); {
		runtime.Gosched()
	}
}

func BenchmarkCleanerStarts(b *testing.B) {
	cleaner.once.Do(func() {
		go func() {
			for end := time.Now().Add(30 * time.Second); !cleaner.stop.Load() && time.Now().Before(end); {
				cleaner.mu.Lock() // site: cleaner
				cleaner.n++
				cleaner.mu.Unlock()
				cleaner.takes.Add(1)
			}
		}()
	})
	from := cleaner.takes.Load()
	for range b.N {
		count++
	}
	cleanerTakes(from)
}

// BenchmarkAfterCleaner takes no lock: the cleaner's, which it did not
// start, are not its.
func BenchmarkAfterCleaner(b *testing.B) {
	from := cleaner.takes.Load()
	x := uint64(1)
	for range b.N {
		for range 50 {
			x = x*6364136223846793005 + 1
		}
	}
	count += int(x & 1)
	cleanerTakes(from)
}

func BenchmarkCleanerStops(b *testing.B) {
	cleaner.stop.Store(true)
	for range b.N {
		count++
	}
}

// TestLayout logs the sizes of sync's locks, which lockwatch's test
// compares with an unwatched build's: watching must move nothing in memory.
func TestLayout(t *testing.T) {
	t.Logf("sizes %d %d", unsafe.Sizeof(sync.Mutex{}), unsafe.Sizeof(sync.RWMutex{}))
}

// TestContended: four goroutines take a Mutex and an RWMutex at once, so
// that noted and contended locks meet; none is lost.
func TestContended(t *testing.T) {
	var mu sync.Mutex
	var rw sync.RWMutex
	n, m := 0, 0
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20000 {
				mu.Lock()
				n++
				mu.Unlock()
				if i%4 == 0 {
					rw.Lock()
					m++
					rw.Unlock()
				} else {
					rw.RLock()
					_ = m
					rw.RUnlock()
				}
			}
		}()
	}
	wg.Wait()
	if n != 80000 || m != 20000 {
		t.Errorf("counted %d and %d under the locks, want 80000 and 20000", n, m)
	}
}
