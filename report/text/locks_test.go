package text

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/brewput/brewput/results"
)

// TestWriteLocks: a watched benchmark's groups, on its most CPUs, the
// costliest first, in the figures its machines hold; nothing for points
// that were not watched.
func TestWriteLocks(t *testing.T) {
	point := func(cpus int, machines ...results.Machine) results.Point {
		return results.Point{Kind: results.KindBench, Spec: results.Spec{Mode: "Book", CPUs: cpus, Load: results.Load{Dur: time.Second}},
			Ops: 1000, Bench: &results.Benchmark{Name: "BenchmarkBook", Watched: true, Locks: machines}}
	}
	one := results.Machine{Name: "(*Book).Place at book.go:9", Kind: "mutex", Uses: 1000, BusyFrac: 0.5, MeanWaitMs: 0.0002,
		Via: "(*Wrap).Lock at wrap.go:3", AfterWaitHoldNs: 612, FreeHoldNs: 480, AfterWaitTimed: 1420}
	shard := results.Machine{Name: "(*Book).Shard at book.go:20#1", Kind: "mutex", Uses: 250, BusyFrac: 0.1}
	shard2 := shard
	shard2.Name = "(*Book).Shard at book.go:20#2"
	var b strings.Builder
	if err := WriteLocks(&b, []results.Point{point(1), point(2, shard, shard2, one)}); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	flat := strings.Join(strings.Fields(got), " ")
	for _, want := range []string{"Book on 2 CPUs:",
		"(*Book).Place at book.go:9: 1 lock, 1 an op, held 0.50 ms a use (50.0 % of the time), waited 200 ns a use, held 612 ns after a wait against 480 ns free (1420 holds timed after a wait), through (*Wrap).Lock at wrap.go:3",
		"(*Book).Shard at book.go:20: 2 locks, 0.5 an op, held 0.40 ms a use (10.0 % of the time each)"} {
		if !strings.Contains(flat, want) {
			t.Errorf("lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(flat, "Shard at book.go:20: 2 locks, 0.5 an op, held 0.40 ms a use (10.0 % of the time each),") {
		t.Errorf("a wait of 0, or holds after a wait none was timed, written:\n%s", got)
	}
	for _, line := range strings.Split(got, "\n") {
		if n := utf8.RuneCountInString(line); n > 80 {
			t.Errorf("a line of %d columns, past 80: %q", n, line)
		}
	}
	if strings.Index(got, "Place") > strings.Index(got, "Shard") {
		t.Errorf("the costliest group is not first:\n%s", got)
	}
	b.Reset()
	// An RWMutex says whether it was taken to read: one never read is held
	// one at a time, as why and predict take it. A reader's hold is not
	// timed: the time held is its writers', over their takes.
	lru := results.Machine{Name: "(*Cache).Get at lru.go:96", Kind: "rwmutex", Uses: 1000, BusyFrac: 0.3, Goroutines: 2, Takers: 2}
	cmap := results.Machine{Name: "(*Map).Get at map.go:10", Kind: "rwmutex", Uses: 1000, Reads: 750, BusyFrac: 0.1, Goroutines: 2, Takers: 2}
	if err := WriteLocks(&b, []results.Point{point(2, lru, cmap)}); err != nil {
		t.Fatal(err)
	}
	if flat := strings.Join(strings.Fields(b.String()), " "); !strings.Contains(flat, "lru.go:96: 1 lock, 1 an op, an RWMutex never taken to read: held one at a time") ||
		!strings.Contains(flat, "map.go:10: 1 lock, 1 an op, an RWMutex taken to read in 75 % of its uses, held 0.40 ms a write (10.0 % of the time)") {
		t.Errorf("an RWMutex's readers, or their absence, not said:\n%s", b.String())
	}
	b.Reset()
	// Sampled holds that sum past the time there was: held all of it.
	over := results.Machine{Name: "(*Tree).Set at tree.go:5", Kind: "mutex", Uses: 1000, BusyFrac: 1.1}
	if err := WriteLocks(&b, []results.Point{point(2, over)}); err != nil {
		t.Fatal(err)
	}
	if flat := strings.Join(strings.Fields(b.String()), " "); !strings.Contains(flat, "held 1.1 ms a use (all the time)") {
		t.Errorf("a lock held 110 %% of the time, as sampled, not said held all of it:\n%s", b.String())
	}
	b.Reset()
	// A count the watcher estimated says so.
	shard.Estimated, shard2.Estimated = true, true
	if err := WriteLocks(&b, []results.Point{point(2, shard, shard2)}); err != nil {
		t.Fatal(err)
	}
	if flat := strings.Join(strings.Fields(b.String()), " "); !strings.Contains(flat, "(*Book).Shard at book.go:20: about 2 locks, 0.5 an op") {
		t.Errorf("an estimated count is not said to be one:\n%s", b.String())
	}
	b.Reset()
	unwatched := point(1)
	unwatched.Bench.Watched = false
	if WriteLocks(&b, []results.Point{unwatched}); b.Len() != 0 {
		t.Errorf("an unwatched benchmark: %q", b.String())
	}
}

// TestNoLocks: a benchmark that took no lock is told what was watched and
// what was not; one that used channels, each channel once, its uses an
// operation all its copies'; its waits for the runtime's own locks.
func TestNoLocks(t *testing.T) {
	p := results.Point{Spec: results.Spec{CPUs: 2}, Ops: 1000, Throughput: 1e6, Unit: "ops/s", Bench: &results.Benchmark{Name: "BenchmarkPool"}}
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	if got := flat(NoLocks(p, nil, 256)); !strings.Contains(got, "took no lock and used no channel while its timer ran") ||
		!strings.Contains(got, "none limits it (sync.Mutex, RWMutex, sync.Map's locks and channels are watched; atomic words are not)") {
		t.Errorf("no lock: %q", got)
	}
	for i := 1; i <= 2; i++ {
		p.Bench.Locks = append(p.Bench.Locks, results.Machine{Name: fmt.Sprintf("(*Pool).Get at pool.go:31#%d", i), Kind: "chan receive", Uses: 500})
	}
	p.Waits = []results.Wait{{Kind: results.WaitChanLock, Site: "(*Pool).Get at pool.go:31", PerOpMs: 2e-5}}
	got := flat(NoLocks(p, nil, 256))
	if !strings.Contains(got, "used channels ((*Pool).Get at pool.go:31, 1 an op)") || !strings.Contains(got, "no stretch lengthens a channel's lock") ||
		!strings.Contains(got, "wait 20 ns an operation for the runtime's own locks, the most for a chan lock at (*Pool).Get at pool.go:31") {
		t.Errorf("channels: %q", got)
	}
}
