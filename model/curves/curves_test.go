package curves

import (
	"context"
	"math"
	"slices"
	"strconv"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/brewput/brewput/results"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// lock is a machine whose one lock costs take ns beside its hold on n
// CPUs past one, whose work alone scales with its CPUs, and which a cell
// makes as min(n/(hold+out), 1/(hold+take(n))) operations a ns.
type lock struct{ take func(n int) float64 }

func (l lock) rate(c Cell, n int) float64 {
	h, w := float64(c.Hold), float64(c.Outside)
	t1 := h + w + 10 // a free take's own 10 ns
	x := float64(n) / t1
	if n > 1 {
		x = min(x, 1/(h+l.take(n)))
	}
	return x * 1e9
}

// synthetic is the curves of l on a grid of holds and gaps, every shape
// measured as the Mutex (the others' ratios are the mutex's), on 1–16
// CPUs, three repeats a spread of ±2 %.
func synthetic(l lock, nsPerIter float64) *Curves {
	c := &Curves{NsPerIter: nsPerIter}
	for _, shape := range []Shape{Mutex, Word, Alloc} {
		for _, h := range []int{0, 25, 100, 400} {
			for _, w := range []int{0, 50, 200, 1000} {
				if shape != Mutex && h != 0 {
					continue
				}
				for _, n := range Counts(16) {
					cell := Cell{Shape: shape, Hold: h, Outside: w}
					r := l.rate(cell, n)
					if shape == Alloc {
						r = float64(n) / float64(h+w+10) * 1e9
					}
					c.Points = append(c.Points, Point{Cell: cell, CPUs: n, Rates: []float64{r * 0.98, r, r * 1.02}})
				}
			}
		}
	}
	return c
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got/want-1) > tol {
		t.Errorf("%s = %.4g, want %.4g within %.0f %%", what, got, want, 100*tol)
	}
}

// Speedup is a cell's measured ratio where measured, a value between its
// neighbours' between them, and nothing past the counts measured.
func TestSpeedup(t *testing.T) {
	l := lock{take: func(n int) float64 { return 20 + 10*float64(n) }}
	c := synthetic(l, 1)
	cell := Cell{Shape: Mutex, Hold: 25, Outside: 50}
	mid, lo, hi, ok := c.Speedup(cell, 8)
	if !ok {
		t.Fatal("no speed-up of a cell measured")
	}
	want := l.rate(cell, 8) / l.rate(cell, 1)
	near(t, "speed-up of a cell measured on 8", mid, want, 1e-9)
	if !(lo < mid && mid < hi) {
		t.Errorf("band [%v, %v] around %v: want the repeats' spread around it", lo, hi, mid)
	}
	a, _, _, _ := c.Speedup(Cell{Shape: Mutex, Hold: 25, Outside: 50}, 8)
	b, _, _, _ := c.Speedup(Cell{Shape: Mutex, Hold: 25, Outside: 200}, 8)
	m, _, _, _ := c.Speedup(Cell{Shape: Mutex, Hold: 25, Outside: 100}, 8)
	if !(min(a, b) <= m && m <= max(a, b)) {
		t.Errorf("between gaps 50 (%v) and 200 (%v), gap 100 gave %v", a, b, m)
	}
	x6, _, _, _ := c.Speedup(cell, 6)
	x7, _, _, ok := c.Speedup(cell, 7)
	x8, _, _, _ := c.Speedup(cell, 8)
	if !ok || !(min(x6, x8) <= x7 && x7 <= max(x6, x8)) {
		t.Errorf("7 CPUs %v (ok %v), between 6's %v and 8's %v", x7, ok, x6, x8)
	}
	if _, _, _, ok := c.Speedup(cell, 17); ok {
		t.Error("a speed-up past the most CPUs measured")
	}
	if _, _, _, ok := c.Speedup(Cell{Shape: Chan}, 2); ok {
		t.Error("a speed-up of a shape not measured")
	}
}

// A few cells apart (as a machine's published benchmarks give) are read
// by their distance: a cell measured is itself, one between them lies
// between their values.
func TestSpeedupSparse(t *testing.T) {
	l := lock{take: func(n int) float64 { return 50 + 5*float64(n) }}
	full := synthetic(l, 1)
	c := &Curves{NsPerIter: 1}
	for _, p := range full.Points {
		if p.Shape == Mutex && (p.Hold == 0 && (p.Outside == 0 || p.Outside == 200) || p.Hold == 25 && p.Outside == 50) {
			c.Points = append(c.Points, p)
		}
	}
	got, _, _, ok := c.Speedup(Cell{Shape: Mutex, Hold: 25, Outside: 50}, 16)
	want, _, _, _ := full.Speedup(Cell{Shape: Mutex, Hold: 25, Outside: 50}, 16)
	if !ok {
		t.Fatal("no speed-up from three cells")
	}
	near(t, "a cell measured, among three", got, want, 1e-9)
	a, _, _, _ := c.Speedup(Cell{Shape: Mutex}, 16)
	b, _, _, _ := c.Speedup(Cell{Shape: Mutex, Outside: 200}, 16)
	m, _, _, _ := c.Speedup(Cell{Shape: Mutex, Hold: 10, Outside: 100}, 16)
	if !(min(a, b, got) <= m && m <= max(a, b, got)) {
		t.Errorf("between cells of %v, %v and %v: %v", a, b, got, m)
	}
}

// Read by distance, a speed-up is the same float every time: the sum does
// not follow a map's order.
func TestSpeedupSparseSameEveryTime(t *testing.T) {
	l := lock{take: func(n int) float64 { return 50 + 5*float64(n) }}
	c := &Curves{NsPerIter: 1}
	for _, p := range synthetic(l, 1).Points {
		if p.Shape == Mutex && (p.Hold == 0 && (p.Outside == 0 || p.Outside == 200) || p.Hold == 25 && p.Outside == 50 || p.Hold == 100 && p.Outside == 0) {
			c.Points = append(c.Points, p)
		}
	}
	first, lo, hi, _ := c.Speedup(Cell{Shape: Mutex, Hold: 10, Outside: 100}, 16)
	for range 200 {
		m, l, h, _ := c.Speedup(Cell{Shape: Mutex, Hold: 10, Outside: 100}, 16)
		if m != first || l != lo || h != hi {
			t.Fatalf("one speed-up read twice: %v [%v, %v], then %v [%v, %v]", first, lo, hi, m, l, h)
		}
	}
}

// A benchmark whose operation is a cell's, one lock taken once, is
// predicted as the cell makes it, on a machine whose work loop runs at
// another speed too (its times read in that machine's nanoseconds).
func TestPredictOneLock(t *testing.T) {
	l := lock{take: func(n int) float64 { return 20 + 10*float64(n) }}
	here := synthetic(l, 1)
	there := synthetic(l, 2) // twice as slow a round: the benchmark's times double there
	cell := Cell{Shape: Mutex, Hold: 25, Outside: 50}
	// The benchmark's hold and work as here measured them, its speed-up
	// on 2 CPUs as this machine's cell makes it.
	s2 := l.rate(cell, 2) / l.rate(cell, 1)
	b := Bench{T1: 85, Measured: map[int]Range{1: {1, 1, 1}, 2: {s2, s2, s2}}, Lock: &Lock{Uses: 1, Hold: 25}}
	if k := Of(b, here); k != OneLock {
		t.Fatalf("kind %q, want one lock", k)
	}
	r, _, ok := Predict(b, here, there, 16)
	if !ok {
		t.Fatal("not predicted on 16 CPUs")
	}
	at := Cell{Shape: Mutex, Hold: 50, Outside: 100}
	// There the benchmark is the cell of twice the times; the model takes
	// a take's own 10 ns as part of the work between holds.
	want := l.rate(at, 16) / l.rate(at, 1)
	near(t, "one lock on 16 CPUs", r.Mid, want, 0.15)
	if !(r.Lo <= r.Mid && r.Mid <= r.Hi) {
		t.Errorf("band [%v, %v] does not hold its point %v", r.Lo, r.Hi, r.Mid)
	}
	// What this machine made of 2 CPUs beyond the model carries: a
	// benchmark that made 20 % less is predicted about 20 % less.
	worse := b
	worse.Measured = map[int]Range{1: {1, 1, 1}, 2: {s2 * 0.8, s2 * 0.8, s2 * 0.8}}
	w, _, _ := Predict(worse, here, there, 16)
	near(t, "a miss on 2 CPUs, carried to 16", w.Mid/r.Mid, 0.8, 0.05)
	if !(w.Lo <= w.Mid && w.Mid <= w.Hi && w.Hi >= r.Mid*0.95) {
		t.Errorf("carried band [%v, %v] around %v: want it to reach back to what the model alone says (%v)", w.Lo, w.Hi, w.Mid, r.Mid)
	}
}

// Each kind is what the benchmark's lock and speed-up on 2 CPUs say.
func TestOf(t *testing.T) {
	m := func(s2 float64) map[int]Range { return map[int]Range{1: {1, 1, 1}, 2: {s2, s2, s2}} }
	for _, c := range []struct {
		b    Bench
		want Kind
	}{
		{Bench{T1: 100, Measured: m(0.7), Lock: &Lock{Uses: 1, Hold: 40}}, OneLock},
		{Bench{T1: 100, Measured: m(0.7), Lock: &Lock{Uses: 1, Read: true}}, ReadLock},
		{Bench{T1: 100, Measured: m(1.5), Lock: &Lock{Uses: 1, Hold: 40, Shards: 32}}, PartlyShared},
		{Bench{T1: 100, Measured: m(1.95)}, NothingShared},
		{Bench{T1: 100, Measured: m(1.4), Allocs: 2}, PartlyShared},
		{Bench{T1: 100, Measured: m(1.4)}, Unexplained},
		{Bench{T1: 100, Measured: m(1.4), Takes: 1}, PartlyShared},
		{Bench{T1: 100, Measured: m(0.6)}, SharedLine},
		// Allocation does not explain two CPUs that gained nothing.
		{Bench{T1: 100, Measured: m(1.05), Allocs: 2}, SharedLine},
		{Bench{T1: 100, Measured: m(1.05)}, SharedLine},
		{Bench{T1: 100, Measured: m(0.9), Takes: 1}, SharedLine},
		// Nor one lock taken often, but one site's many locks, more than the
		// workers, do.
		{Bench{T1: 100, Measured: m(0.9), Takes: 1, Spread: 300}, PartlyShared},
		{Bench{T1: 100, Measured: m(0.9), Takes: 1, Spread: 2}, SharedLine}, // a lock per worker
	} {
		if got := Of(c.b, nil); got != c.want {
			t.Errorf("%+v (lock %+v): %q, want %q", c.b, c.b.Lock, got, c.want)
		}
	}
}

// A loss on 2 CPUs that no lock or allocation explains is not predicted:
// a line all write and sharing spread thin part ways past 2 CPUs.
func TestPredictDeclinesUnexplained(t *testing.T) {
	c := synthetic(lock{take: func(n int) float64 { return 30 }}, 1)
	b := Bench{T1: 100, Measured: map[int]Range{1: {1, 1, 1}, 2: {1.4, 1.35, 1.45}}}
	if r, k, ok := Predict(b, c, c, 16); ok || k != Unexplained {
		t.Errorf("1.4 on 2 CPUs, nothing seen: %v, %q, ok %v; want %q, not predicted", r, k, ok, Unexplained)
	}
	if n, made, alone := Shortfall(b, c); n != 2 || made != 1.4 || !(alone > 1.4) {
		t.Errorf("Shortfall: %d CPUs made %v of work alone's %v; want 2, 1.4 and more than 1.4", n, made, alone)
	}
}

// Work that shares nothing is carried as the machine's work alone
// scales, and a line both CPUs wrote stays about where it was.
func TestPredictCarried(t *testing.T) {
	l := lock{take: func(n int) float64 { return 30 }}
	c := synthetic(l, 1)
	b := Bench{T1: 100, Measured: map[int]Range{1: {1, 1, 1}, 2: {1.96, 1.9, 2}}}
	r, k, ok := Predict(b, c, c, 16)
	if !ok || k != NothingShared {
		t.Fatalf("kind %q ok %v", k, ok)
	}
	near(t, "nothing shared on 16", r.Mid, 16*1.96/2, 0.02)
	line := Bench{T1: 100, Measured: map[int]Range{1: {1, 1, 1}, 2: {0.6, 0.55, 0.65}}}
	r, k, _ = Predict(line, c, c, 16)
	if k != SharedLine || r.Hi < 0.6 {
		t.Errorf("a line two CPUs wrote: %q, [%v, %v]; want its band to reach what 2 CPUs made", k, r.Lo, r.Hi)
	}
}

// A benchmark whose 2 CPUs made less than one is not predicted to gain
// from more, whatever its kind; its band still reaches what the curves
// allow.
func TestPredictNoGainPastALoss(t *testing.T) {
	c := synthetic(lock{take: func(n int) float64 { return 30 }}, 1)
	for _, lk := range []*Lock{{Uses: 1, Hold: 10, Shards: 32}, {Uses: 1, Hold: 10}} {
		b := Bench{T1: 100, Measured: map[int]Range{1: {1, 1, 1}, 2: {0.8, 0.75, 0.85}}, Lock: lk}
		r, k, ok := Predict(b, c, c, 16)
		if !ok || r.Mid != 0.8 || r.Lo > 0.8 || r.Hi <= 0.85 {
			t.Errorf("%s, 0.8 on 2 CPUs: %v on 16 (ok %v); want the point 0.8, the band around it and above", k, r, ok)
		}
	}
	// Runs that span one CPU's are no clear loss: examples/cache's shards
	// made 0.99 on 2 CPUs of a lending, and 3.5 on 16.
	b := Bench{T1: 100, Measured: map[int]Range{1: {1, 1, 1}, 2: {0.99, 0.97, 1.17}}, Lock: &Lock{Uses: 1, Hold: 10, Shards: 32}}
	if r, _, _ := Predict(b, c, c, 16); r.Mid <= 0.99 {
		t.Errorf("0.99 on 2 CPUs, its runs spanning one: %v on 16; want more than 0.99", r)
	}
}

// Partly shared and clearly past a loss on 2 CPUs (concurrent-map's 32
// RWMutex shards made ×0.87 [0.72, 0.98] here): its point is a line's
// reading, which the reference's Word curves take below what 2 CPUs made
// (lendings made ×0.39–0.60 on 16), and its band still reaches work
// alone's.
func TestPredictPartlySharedPastALoss(t *testing.T) {
	ref := Reference()
	b := Bench{T1: 24, Measured: map[int]Range{1: {1, 1, 1}, 2: {0.87, 0.72, 0.98}},
		Lock: &Lock{Uses: 1, Hold: 38, Read: true, Writes: 0.25, Shards: 32}}
	line, ok := worstLine(ref, measured{2, b.Measured[2]}, 16)
	if !ok || !(line.Mid < 0.87) {
		t.Fatalf("the reference's worst line carries ×0.87 to %v on 16 CPUs (%v): no fall to test", line, ok)
	}
	r, k, ok := Predict(b, nil, ref, 16)
	if !ok || k != PartlyShared || r.Mid != line.Mid || r.Lo > line.Mid || r.Hi < 2 {
		t.Errorf("%s on 16 CPUs: %v (%v); want the line's ×%.2f, the band from below it to past ×2", k, r, ok, line.Mid)
	}
}

// BenchOf reads the median run of one CPU's time, each count's spread
// with one CPU's (the least over one CPU's most, the most over its
// least), and the lock the workers share that holds an operation longest: not a
// lock each goroutine has to itself, nor one too rarely held to matter.
func TestBenchOf(t *testing.T) {
	run := func(cpus int, thr float64, locks ...results.Machine) results.Point {
		return results.Point{Kind: results.KindBench, Source: results.SourceMeasured, Spec: results.Spec{Mode: "v", CPUs: cpus, Load: results.Load{Dur: time.Second}},
			Ops: int64(thr), Throughput: thr, Bench: &results.Benchmark{Locks: locks}}
	}
	shared := results.Machine{Name: "cache.Get", Kind: "mutex", Uses: 2e7, Goroutines: 2, Takers: 2, FreeHoldNs: 30, AfterWaitHoldNs: 90}
	own := results.Machine{Name: "hist.Update#1", Kind: "mutex", Uses: 2e7, Goroutines: 2, Takers: 1, FreeHoldNs: 40}
	rare := results.Machine{Name: "pool.pinSlow", Kind: "mutex", Uses: 10, Goroutines: 2, Takers: 2, FreeHoldNs: 1000}
	b, err := BenchOf([]results.Point{run(1, 1e7), run(1, 1.1e7), run(1, 0.9e7), run(2, 1.5e7, shared, own, rare), run(2, 1.3e7, shared, own, rare)})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "T1", b.T1, 100, 1e-9)
	near(t, "2 CPUs' median", b.Measured[2].Mid, 1.4, 1e-9)
	near(t, "2 CPUs' least", b.Measured[2].Lo, 1.3/1.1, 1e-9)
	near(t, "2 CPUs' most", b.Measured[2].Hi, 1.5/0.9, 1e-9)
	if l := b.Lock; l == nil || l.Hold != 30 || l.Read || l.Shards != 1 {
		t.Errorf("lock %+v, want cache.Get's", b.Lock)
	}
	own2 := own
	own2.Name = "hist.Update#2"
	if b, _ := BenchOf([]results.Point{run(1, 1e7), run(2, 1.5e7, shared, own, own2)}); b.Spread != 2 {
		t.Errorf("spread %d, want 2: hist.Update's two locks", b.Spread)
	}
	// cache2go's every Value read-locks its table's one RWMutex, then
	// locks its item's own (1000 of them, their holds 60 % of an
	// operation): the readers' count is one line every operation
	// writes, the items' holds are spread over their locks.
	table := results.Machine{Name: "(*CacheTable).Value", Kind: "rwmutex", Uses: 1e7, Reads: 1e7, Goroutines: 2, Takers: 2}
	items := []results.Machine{table}
	for i := range 1000 {
		items = append(items, results.Machine{Name: "(*CacheItem).KeepAlive#" + strconv.Itoa(i+1), Kind: "rwmutex", Uses: 1e7 / 1000,
			Goroutines: 2, Takers: 1.8, FreeHoldNs: 60})
	}
	b, err = BenchOf([]results.Point{run(1, 1e7), run(2, 1.5e7, items...)})
	if l := b.Lock; err != nil || l == nil || !l.Read || l.Shards != 1 {
		t.Errorf("lock %+v (%v), want the table's read lock", b.Lock, err)
	}
	if b, _ := BenchOf([]results.Point{run(1, 1e7), run(2, 1.5e7, items[1:]...)}); b.Lock == nil || b.Lock.Shards != 1000 {
		t.Errorf("lock %+v, want the items' 1000 alone", b.Lock)
	}
	if _, err := BenchOf([]results.Point{run(2, 1e7)}); err == nil {
		t.Error("a benchmark with no run on one CPU read")
	}
	// sonyflake's NextID sleeps for the next 10 ms under its lock after 256
	// IDs: the holds timed are short, 108 ns, the waits 27 µs a use. The
	// waits say what its holds took.
	sleepy := results.Machine{Name: "(*Sonyflake).NextID", Kind: "mutex", Uses: 25000, MeanWaitMs: 0.027, Goroutines: 3, Takers: 2, FreeHoldNs: 108}
	b, err = BenchOf([]results.Point{run(1, 25800), run(2, 25800, sleepy)})
	if err != nil {
		t.Fatal(err)
	}
	if l := b.Lock; l == nil || l.Hold != 27000 {
		t.Errorf("lock %+v, want NextID's, held as long as it was waited for (27 µs)", b.Lock)
	}
}

// Measure runs every cell asked on every count, its goroutines gone
// when it returns (goleak), and its rates are operations a second: a
// busy machine may leave a cell of a few milliseconds none, never all.
func TestMeasure(t *testing.T) {
	cells := []Cell{{Shape: Mutex, Hold: 10, Outside: 20}, {Shape: RWMutex, Hold: 10, WriteEvery: 4}, {Shape: Word}, {Shape: CAS},
		{Shape: Sharded, Hold: 10, Shards: 4}, {Shape: Chan, Outside: 20}, {Shape: Alloc, Outside: 20, Bytes: 64}}
	c, err := Measure(context.Background(), Options{Cells: cells, CPUs: []int{1, 2}, Repeats: 1, Dur: 2 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Points) != 2*len(cells) || !(c.NsPerIter > 0) {
		t.Fatalf("%d points, %v ns a round", len(c.Points), c.NsPerIter)
	}
	some := false
	for _, p := range c.Points {
		if len(p.Rates) != 1 || p.Rates[0] < 0 {
			t.Errorf("%+v on %d CPUs: rates %v", p.Cell, p.CPUs, p.Rates)
		}
		some = some || len(p.Rates) == 1 && p.Rates[0] > 1e3
	}
	if !some {
		t.Error("no cell made an operation")
	}
}

// The reference machine's curves are read, past one CPU.
func TestReference(t *testing.T) {
	r := Reference()
	if r.MaxCPUs() < 16 || r.About == "" || !(r.NsPerIter > 0) {
		t.Errorf("reference: %d CPUs, about %q, %v ns a round", r.MaxCPUs(), r.About, r.NsPerIter)
	}
	if _, _, _, ok := r.Speedup(Cell{Shape: Mutex, Hold: 40, Outside: 100}, 16); !ok {
		t.Error("no mutex speed-up on 16 CPUs of the reference")
	}
}

// A shared line measured once on 1 and 2 CPUs (x0.997, a word every
// operation writes with 3.4 µs of work between), carried by the
// reference's Word cell at that work, which has one repeat a count: its
// band has width, holds what 2 CPUs made, and its point is no more.
func TestPredictSharedLineHoldsMeasured(t *testing.T) {
	ref := Reference()
	if mid, lo, hi, ok := ref.Speedup(Cell{Shape: Word, Outside: 181}, 16); !ok || !(lo < mid && mid < hi) {
		t.Errorf("the Word cell of one repeat on 16 CPUs: %v [%v, %v], %v; want a band with width", mid, lo, hi, ok)
	}
	b := Bench{T1: 3379, Measured: map[int]Range{2: {0.997, 0.997, 0.997}}}
	for _, n := range []int{4, 8, 16} {
		r, kind, ok := Predict(b, nil, ref, n)
		if !ok || kind != SharedLine || !(r.Lo <= 0.997 && r.Mid <= 0.997 && r.Lo < r.Hi) {
			t.Errorf("on %d CPUs: %s %v [%v, %v], %v; want a shared line no faster than 0.997, its band holding it with width", n, kind, r.Mid, r.Lo, r.Hi, ok)
		}
	}
}

// A read lock's readers' line moves between this machine's two CPUs as
// cheaply or as dearly as they lie: tidwall/btree's reads made ×1.9 on 2
// CPUs in one run and ×0.9 in the next (113 ns an operation on one CPU,
// every one a read). The two runs' bands overlap on every count.
func TestPredictReadLockTwoPlacementsOverlap(t *testing.T) {
	ref := Reference()
	run := func(s2 float64) Bench {
		return Bench{T1: 113, Measured: map[int]Range{1: {1, 0.97, 1.03}, 2: {s2, s2 * 0.9, s2 * 1.1}}, Lock: &Lock{Uses: 1, Read: true, Writes: 0}}
	}
	for _, n := range []int{4, 8, 16} {
		a, ka, ok1 := Predict(run(1.9), nil, ref, n)
		b, kb, ok2 := Predict(run(0.9), nil, ref, n)
		if !ok1 || !ok2 || ka != ReadLock || kb != ReadLock {
			t.Fatalf("on %d CPUs: %s (%v), %s (%v); want read locks", n, ka, ok1, kb, ok2)
		}
		if a.Hi < b.Lo || b.Hi < a.Lo {
			t.Errorf("on %d CPUs: bands [%.2f, %.2f] and [%.2f, %.2f] do not overlap", n, a.Lo, a.Hi, b.Lo, b.Hi)
		}
	}
}

// A take that costs nothing on one count and something on the next is
// read between them as a number, never NaN: a calibration whose long
// holds took nothing more on 2 CPUs made predict's band NaN on 4.
func TestGeoThroughZero(t *testing.T) {
	for _, c := range [][3]float64{{0, 10, 0.5}, {10, 0, 0.25}, {0, 0, 0.5}, {2, 8, 0.5}} {
		got := geo(c[0], c[1], c[2])
		if math.IsNaN(got) || math.IsInf(got, 0) || got < min(c[0], c[1]) || got > max(c[0], c[1]) {
			t.Errorf("geo(%v, %v, %v) = %v, want a number between them", c[0], c[1], c[2], got)
		}
	}
}

// A benchmark whose runs on 2 CPUs lie on both sides of a boundary
// between kinds is undecided: read at their median, its band the union
// of the kinds' bands; runs of it measured more, their outer fifth left
// out, decide it.
func TestDecideUndecided(t *testing.T) {
	c := synthetic(lock{take: func(n int) float64 { return 30 }}, 1)
	_, _, alone := Shortfall(Bench{Measured: map[int]Range{2: {}}}, c) // work alone on 2 CPUs
	bench := func(runs ...float64) Bench {
		s := results.Median(runs)
		return Bench{T1: 100, Measured: map[int]Range{1: {1, 1, 1}, 2: {s, slices.Min(runs), slices.Max(runs)}}, Runs: map[int][]float64{2: runs}}
	}
	edge := alone * 0.85 // between an unexplained loss and nothing shared
	straddling := bench(edge*0.9, edge*1.02, edge*1.1)
	d := Decide(straddling, c)
	if d.Kind != NothingShared || !slices.Equal(d.Others, []Kind{Unexplained}) {
		t.Fatalf("runs on both sides of ×%.2f: %+v, want nothing shared, undecided with an unexplained loss", edge, d)
	}
	s, _ := straddling.most()
	for _, n := range []int{4, 8, 16} {
		r, k, ok := Predict(straddling, c, c, n)
		a, _ := predictAs(NothingShared, straddling, c, c, s, n)
		u, _ := predictAs(Unexplained, straddling, c, c, s, n)
		if !ok || k != NothingShared || r.Mid != a.Mid || r.Lo > min(a.Lo, u.Lo) || r.Hi < max(a.Hi, u.Hi) {
			t.Errorf("on %d CPUs: %v (%s, %v), want nothing shared's point, a band holding %v and %v", n, r, k, ok, a, u)
		}
	}
	// One run far below the rest, among six, does not keep it undecided.
	more := bench(edge*0.9, edge*1.09, edge*1.1, edge*1.12, edge*1.13, edge*1.15)
	if d := Decide(more, c); d.Kind != NothingShared || d.Undecided() {
		t.Errorf("six runs, one far below: %+v, want nothing shared, decided", d)
	}
	if d := Decide(bench(edge*1.1, edge*1.12, edge*1.15), c); d.Undecided() {
		t.Errorf("runs all clear of the boundary: %+v, want decided", d)
	}
	// The same benchmark measured twice, its medians on either side of
	// the boundary: the bands overlap on every count.
	again := bench(edge*0.92, edge*0.97, edge*1.06)
	if Of(again, c) != Unexplained {
		t.Fatalf("median below the boundary: %s, want an unexplained loss", Of(again, c))
	}
	lower := bench(edge*0.97, edge*1.0, edge*1.06)
	for _, n := range []int{4, 8, 16} {
		a, _, _ := Predict(straddling, c, c, n)
		b, _, ok := Predict(lower, c, c, n)
		if !ok || a.Hi < b.Lo || b.Hi < a.Lo {
			t.Errorf("on %d CPUs: bands %v and %v (ok %v), want two that overlap", n, a, b, ok)
		}
	}
}

// Nothing shared seen, the band still holds what one write an operation
// to a word every CPU writes would leave (the adds a second the Word cell
// at its work makes; past the cells, the most work's), unless 2 CPUs made
// more than such a word allows.
func TestPredictUnseenWord(t *testing.T) {
	ref := Reference()
	adds := func(outside, n int) float64 {
		for _, p := range ref.Points {
			if p.Shape == Word && p.Outside == outside && p.CPUs == n {
				return results.Median(p.Rates)
			}
		}
		t.Fatalf("the reference has no Word cell of %d ns work on %d CPUs", outside, n)
		return 0
	}
	long := Bench{T1: 400, Measured: map[int]Range{1: {1, 1, 1}, 2: {1.98, 1.95, 2.0}}}
	word := adds(181, 16) * 400 / 1e9 // the reference's most work between adds
	r, k, ok := Predict(long, nil, ref, 16)
	if !ok || k != NothingShared || math.Abs(r.Lo/word-1) > 1e-9 || !(word < r.Mid/2) {
		t.Errorf("nothing shared, 400 ns an operation: %v (%s); want the band down to a shared word's ×%.3g, well below the point", r, k, word)
	}
	// 5 ns an operation: a word written every operation would have held
	// 2 CPUs below ×1.95.
	short := long
	short.T1 = 5
	if w := adds(0, 2) * 5 / 1e9; !(w*drift < 1.95) {
		t.Fatalf("the reference's shared word allows ×%.2f on 2 CPUs at 5 ns: no test of ruling it out", w)
	}
	r, _, _ = Predict(short, nil, ref, 16)
	alone, _ := ratio(ref, private, measured{2, short.Measured[2]}, 16)
	if r.Lo != alone.Lo {
		t.Errorf("nothing shared, 5 ns an operation, ×1.98 on 2 CPUs: band %v, want work alone's %v", r, alone)
	}
}

// A channel the workers share is the lock they share, held ChanHold a
// send or receive, where no watched lock takes more of an operation;
// one each is not; and one whose lock the runtime saw them wait for is,
// though the watch's samples did not see it shared.
func TestBenchOfChannel(t *testing.T) {
	run := func(cpus int, thr float64, waits []results.Wait, locks ...results.Machine) results.Point {
		return results.Point{Kind: results.KindBench, Source: results.SourceMeasured, Spec: results.Spec{Mode: "v", CPUs: cpus, Load: results.Load{Dur: time.Second}},
			Ops: int64(thr), Throughput: thr, Waits: waits, Bench: &results.Benchmark{Locks: locks}}
	}
	get := results.Machine{Name: "(*Pool).Get at pool.go:31 + (*Pool).Put at pool.go:40", Kind: "chan receive", Uses: 1.8e7, Goroutines: 2, Takers: 2}
	b, err := BenchOf([]results.Point{run(1, 1e7, nil), run(2, 1.8e7, nil, get)})
	if err != nil {
		t.Fatal(err)
	}
	if l := b.Lock; l == nil || !l.Chan || l.Hold != ChanHold || l.Uses != 1 || l.Shards != 1 {
		t.Errorf("lock %+v, want the pool's channel, one take an operation, held ChanHold", b.Lock)
	}
	if k := Of(b, nil); k != OneLock {
		t.Errorf("a shared channel read as %q, want one lock", k)
	}
	// A semaphore's ticket: its sends blocked 2 µs a use on average, what
	// its holders held it for.
	ticket := get
	ticket.MeanWaitMs = 0.002
	if b, _ := BenchOf([]results.Point{run(1, 1e7, nil), run(2, 1.8e7, nil, ticket)}); b.Lock == nil || b.Lock.Hold != 2000 {
		t.Errorf("a channel whose operations waited 2 µs a use: lock %+v, want it held as long", b.Lock)
	}
	own := get
	own.Takers = 1
	if b, _ := BenchOf([]results.Point{run(1, 1e7, nil), run(2, 1.8e7, nil, own)}); b.Lock != nil {
		t.Errorf("a channel each: lock %+v, want none", b.Lock)
	}
	waited := []results.Wait{{Kind: results.WaitChanLock, Site: "(*Pool).Get at pool.go:31", Count: 3, TotalMs: 0.01}}
	if b, _ := BenchOf([]results.Point{run(1, 1e7, nil), run(2, 1.8e7, waited, own)}); b.Lock == nil || !b.Lock.Chan {
		t.Errorf("a channel whose lock was waited for: lock %+v, want the channel's", b.Lock)
	}
	// A timer's lock they waited for: not nothing shared, however much 2
	// CPUs made.
	timer := []results.Wait{{Kind: results.WaitTimerLock, Site: "(*Cache).Set at cache.go:80", Count: 2, TotalMs: 0.01}}
	if b, _ := BenchOf([]results.Point{run(1, 1e7, nil), run(2, 2e7, timer)}); !b.RuntimeShared || Of(b, nil) != PartlyShared {
		t.Errorf("a timer's lock waited for: %+v read as %q, want partly shared", b, Of(b, nil))
	}
	// A mutex held longer an operation than the channel's sends and
	// receives hold its lock is the one.
	mu := results.Machine{Name: "(*Pool).mu", Kind: "mutex", Uses: 1e7, Goroutines: 2, Takers: 2, FreeHoldNs: 60}
	if b, _ := BenchOf([]results.Point{run(1, 1e7, nil), run(2, 1.8e7, nil, get, mu)}); b.Lock == nil || b.Lock.Chan || b.Lock.Hold != 60 ||
		b.Near == nil || !b.Near.Chan {
		t.Errorf("a mutex held 33 ns an operation beside a channel's 25: lock %+v, near it %+v; want the mutex, the channel near", b.Lock, b.Near)
	}
}

// Runs other processes took CPU from (kept) decide no kind of no lock:
// a line both goroutines write looks free where they never ran side by
// side. Two locks that hold nearly as much of an operation are both read.
func TestDecideDisturbedAndNearLock(t *testing.T) {
	ref := Reference()
	line := Bench{T1: 18, Measured: map[int]Range{1: {1, 1, 1}, 2: {1.95, 1.9, 2}}, Runs: map[int][]float64{2: {1.9, 1.95, 2}}}
	if d := Decide(line, ref); d.Kind != NothingShared || d.Undecided() {
		t.Fatalf("quiet runs making ×1.95: %+v, want nothing shared, decided", d)
	}
	line.Disturbed = true
	d := Decide(line, ref)
	if d.Kind != NothingShared || !slices.Contains(d.Others, SharedLine) {
		t.Errorf("disturbed runs making ×1.95: %+v, want nothing shared, undecided with a shared line", d)
	}
	quiet, _, _ := Predict(Bench{T1: 18, Measured: line.Measured, Runs: line.Runs}, ref, ref, 16)
	busy, _, _ := Predict(line, ref, ref, 16)
	if !(busy.Lo < quiet.Lo/4) {
		t.Errorf("on 16 CPUs: disturbed %v, quiet %v; want the disturbed band down to a shared line's", busy, quiet)
	}
	// A channel and a mutex that hold nearly as much: read as one lock
	// either way, the band both readings'.
	mu := &Lock{Uses: 1, Hold: 30, Shards: 1}
	ch := &Lock{Uses: 2, Hold: ChanHold, Shards: 4, Chan: true} // four channels: partly shared
	b := Bench{T1: 300, Measured: map[int]Range{1: {1, 1, 1}, 2: {1.5, 1.45, 1.55}}, Lock: mu, Near: ch}
	if d := Decide(b, ref); d.Kind != OneLock || !slices.Equal(d.Others, []Kind{PartlyShared}) {
		t.Errorf("a mutex with four channels near it: %+v, want one lock, undecided with partly shared", d)
	}
	both, _, _ := Predict(b, ref, ref, 16)
	alone, _, _ := Predict(b.withLock(mu), ref, ref, 16)
	other, _, _ := Predict(b.withLock(ch), ref, ref, 16)
	if both.Mid != alone.Mid || both.Lo > min(alone.Lo, other.Lo) || both.Hi < max(alone.Hi, other.Hi) {
		t.Errorf("on 16 CPUs: %v, want the mutex's point %v and a band holding %v and %v", both, alone.Mid, alone, other)
	}
}
