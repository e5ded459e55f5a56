// Package curves holds how a machine's throughput of the shapes that
// contend in Go code changes with the cores that run them. brewput
// calibrate measures them (Measure), and predict reads a benchmark's
// speed-up off them (Speedup): measured there, not a mechanism's guess.
package curves

import (
	"cmp"
	_ "embed"
	"encoding/json"
	"maps"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/brewput/brewput/results"
)

// Shape is a kind of contention a cell measures.
type Shape string

// The shapes. In each, every goroutine loops over one operation and
// Outside nanoseconds of work that shares nothing.
const (
	// Mutex: Lock one sync.Mutex, Hold ns of work, a write to the data it
	// guards (a word on the mutex's line and one on another), Unlock.
	Mutex Shape = "mutex"
	// RWMutex: RLock one sync.RWMutex, Hold ns of work reading its data,
	// RUnlock; every WriteEvery-th operation (none where 0) a Lock, Hold
	// and a write instead.
	RWMutex Shape = "rwmutex"
	// Word: an atomic add to one word every goroutine adds to.
	Word Shape = "word"
	// CAS: a load of one word every goroutine writes and a
	// compare-and-swap of it, again until one succeeds.
	CAS Shape = "cas"
	// Sharded: as Mutex, on one of Shards mutexes (each with its data),
	// a different one each time.
	Sharded Shape = "sharded"
	// Chan: as many senders as CPUs send on one channel of Cap slots to
	// as many receivers, each of which works Outside ns an item.
	Chan Shape = "chan"
	// Alloc: a new []byte of Bytes, kept a while, so that the collector
	// runs: the allocator and the collector are all that is shared.
	Alloc Shape = "alloc"
)

// Cell is one configuration of a shape, its times in nanoseconds of the
// work loop on the machine measured.
type Cell struct {
	Shape      Shape `json:"shape"`
	Hold       int   `json:"hold_ns,omitempty"`
	Outside    int   `json:"outside_ns"`
	WriteEvery int   `json:"write_every,omitempty"`
	Cap        int   `json:"cap,omitempty"`
	Bytes      int   `json:"bytes,omitempty"`
	Shards     int   `json:"shards,omitempty"`
}

// Point is what a cell made on CPUs CPUs (GOMAXPROCS, as many
// goroutines): its operations a second in each repeat.
type Point struct {
	Cell
	CPUs  int       `json:"cpus"`
	Rates []float64 `json:"ops_per_s"`
	// Carried says it was not measured but carried past the counts that
	// were (Carry): its rates the point and its band's edges.
	Carried bool `json:"carried,omitempty"`
}

// Curves are every cell measured on one machine.
type Curves struct {
	// About says what machine they are of, where it is not this one.
	About string `json:"about,omitempty"`
	// NsPerIter is how long one round of the work loop took there, alone:
	// a cell's times are rounds of it, so that another machine's can be
	// read in its own nanoseconds (Scale).
	NsPerIter float64       `json:"work_ns_per_iter"`
	Dur       time.Duration `json:"dur_ns"`
	Points    []Point       `json:"points"`
}

// Grid is the cells Measure measures: holds and work outside from a few
// nanoseconds (a counter's update) to microseconds (a log line's write),
// about ×2.5 apart.
func Grid() []Cell {
	holds := []int{10, 25, 60, 150, 400, 1000, 2500}
	outs := []int{0, 20, 50, 120, 300, 700, 1600, 4000}
	var cells []Cell
	for _, h := range holds {
		for _, w := range outs {
			cells = append(cells, Cell{Shape: Mutex, Hold: h, Outside: w})
		}
	}
	for _, every := range []int{0, 16, 4} {
		for _, h := range []int{10, 100} {
			for _, w := range outs {
				cells = append(cells, Cell{Shape: RWMutex, Hold: h, Outside: w, WriteEvery: every})
			}
		}
	}
	for _, w := range outs {
		cells = append(cells, Cell{Shape: Word, Outside: w}, Cell{Shape: CAS, Outside: w})
	}
	for _, h := range []int{25, 150} {
		for _, w := range outs {
			cells = append(cells, Cell{Shape: Sharded, Hold: h, Outside: w, Shards: 32})
		}
	}
	for _, c := range []int{0, 100} {
		for _, w := range outs {
			cells = append(cells, Cell{Shape: Chan, Outside: w, Cap: c})
		}
	}
	for _, b := range []int{0, 64, 512, 4096} {
		for _, w := range []int{20, 120, 700} {
			cells = append(cells, Cell{Shape: Alloc, Outside: w, Bytes: b})
		}
	}
	return cells
}

// Counts are the CPU counts Measure measures up to max: the counts
// users ask for (1–4, then steps of about ×1.5), and max itself.
func Counts(max int) []int {
	var out []int
	for _, n := range []int{1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256} {
		if n <= max {
			out = append(out, n)
		}
	}
	if len(out) == 0 || out[len(out)-1] != max {
		out = append(out, max)
	}
	return out
}

// MaxCPUs is the most CPUs any cell was measured on.
func (c *Curves) MaxCPUs() int {
	n := 0
	for _, p := range c.Points {
		if !p.Carried {
			n = max(n, p.CPUs)
		}
	}
	return n
}

// Reach is the most CPUs any cell was measured on or carried to.
func (c *Curves) Reach() int {
	n := 0
	for _, p := range c.Points {
		n = max(n, p.CPUs)
	}
	return n
}

// Scale is how many of this machine's nanoseconds one of other's work
// takes: a benchmark timed there is read here in these nanoseconds.
func (c *Curves) Scale(other *Curves) float64 {
	if c == nil || other == nil || !(c.NsPerIter > 0) || !(other.NsPerIter > 0) {
		return 1
	}
	return c.NsPerIter / other.NsPerIter
}

// Speedup is what cell made on n CPUs against one: its median over the
// repeats, and the least and most a repeat made, interpolated between the
// cells and counts measured; ok is false past them. A cell of one repeat
// there, whose spread is unknown, is given the widest its shape's cells
// of more repeats show on that count (spread).
func (c *Curves) Speedup(cell Cell, n int) (mid, lo, hi float64, ok bool) {
	return c.each(cell, n, func(one, at Point) [3]float64 {
		base, m := results.Median(one.Rates), results.Median(at.Rates)
		least, most := slices.Min(at.Rates)/m, slices.Max(at.Rates)/m
		if len(at.Rates) < 2 {
			least, most = c.spread(at.Shape, at.CPUs)
		}
		return [3]float64{m / base, m * least / base, m * most / base}
	})
}

// spread is the least and most a repeat made against its cell's median,
// over the cells of shape measured on n CPUs with repeats enough to show
// it (of any shape where that one has none); 1, 1 where none has.
func (c *Curves) spread(shape Shape, n int) (least, most float64) {
	least, most = 1, 1
	for _, same := range []bool{true, false} {
		for _, p := range c.Points {
			if p.CPUs == n && len(p.Rates) > 1 && (p.Shape == shape || !same) {
				m := results.Median(p.Rates)
				least, most = min(least, slices.Min(p.Rates)/m), max(most, slices.Max(p.Rates)/m)
			}
		}
		if least < 1 || most > 1 {
			break
		}
	}
	return least, most
}

// each is f of the points of cell's shape on one CPU and on n,
// interpolated to cell, and to n between the counts measured.
func (c *Curves) each(cell Cell, n int, f func(one, at Point) [3]float64) (mid, lo, hi float64, ok bool) {
	if c == nil || n < 1 {
		return 0, 0, 0, false
	}
	counts := c.counts(cell)
	if len(counts) == 0 || n > counts[len(counts)-1] {
		return 0, 0, 0, false
	}
	i := sort.SearchInts(counts, n)
	if counts[i] == n {
		v, ok := c.interp(cell, n, f)
		return v[0], v[1], v[2], ok
	}
	// Between two counts measured: over their logarithms.
	a, b := counts[i-1], counts[i]
	v0, ok0 := c.interp(cell, a, f)
	v1, ok1 := c.interp(cell, b, f)
	if !ok0 || !ok1 {
		return 0, 0, 0, false
	}
	t := math.Log(float64(n)/float64(a)) / math.Log(float64(b)/float64(a))
	return geo(v0[0], v1[0], t), geo(v0[1], v1[1], t), geo(v0[2], v1[2], t), true
}

// counts are the CPU counts cell's shape was measured on.
func (c *Curves) counts(cell Cell) []int {
	var out []int
	for _, p := range c.Points {
		if p.Shape == cell.Shape && !slices.Contains(out, p.CPUs) {
			out = append(out, p.CPUs)
		}
	}
	slices.Sort(out)
	return out
}

// interp is f at cell on n CPUs (a count measured), over the hold's and
// the work's log(1+ns/10): between the four cells around it where all
// were measured, else by inverse square distance; past them, the edge's.
func (c *Curves) interp(cell Cell, n int, f func(one, at Point) [3]float64) ([3]float64, bool) {
	type key struct{ hold, out int }
	near := c.nearest(cell)
	one, at := map[key]Point{}, map[key]Point{}
	for _, p := range c.Points {
		if p.Shape != cell.Shape || p.WriteEvery != near.WriteEvery || p.Cap != near.Cap || p.Bytes != near.Bytes || p.Shards != near.Shards || len(p.Rates) == 0 {
			continue
		}
		k := key{p.Hold, p.Outside}
		if p.CPUs == 1 {
			one[k] = p
		}
		if p.CPUs == n {
			at[k] = p
		}
	}
	vals := map[key][3]float64{}
	var holds, outs []int
	for k, p := range at {
		if o, ok := one[k]; ok && results.Median(o.Rates) > 0 {
			vals[k] = f(o, p)
			holds, outs = append(holds, k.hold), append(outs, k.out)
		}
	}
	if len(vals) == 0 {
		return [3]float64{}, false
	}
	slices.Sort(holds)
	slices.Sort(outs)
	holds, outs = slices.Compact(holds), slices.Compact(outs)
	h0, h1, fh := bracket(holds, cell.Hold)
	w0, w1, fw := bracket(outs, cell.Outside)
	var out [3]float64
	corners := [4]key{{h0, w0}, {h0, w1}, {h1, w0}, {h1, w1}}
	grid := true
	for _, k := range corners {
		_, ok := vals[k]
		grid = grid && ok
	}
	if grid {
		for i := range out {
			out[i] = geo(geo(vals[corners[0]][i], vals[corners[1]][i], fw), geo(vals[corners[2]][i], vals[corners[3]][i], fw), fh)
		}
		return out, true
	}
	x := func(ns int) float64 { return math.Log1p(float64(ns) / 10) }
	hq, wq := x(clamp(cell.Hold, holds)), x(clamp(cell.Outside, outs))
	var total float64
	// In a fixed order, so that the sum is the same float on every run.
	keys := slices.SortedFunc(maps.Keys(vals), func(a, b key) int { return cmp.Or(cmp.Compare(a.hold, b.hold), cmp.Compare(a.out, b.out)) })
	for _, k := range keys {
		v := vals[k]
		d2 := math.Pow(x(k.hold)-hq, 2) + math.Pow(x(k.out)-wq, 2)
		if d2 < 1e-12 {
			return v, true
		}
		for i := range out {
			out[i] += math.Log1p(v[i]) / d2
		}
		total += 1 / d2
	}
	for i := range out {
		out[i] = math.Expm1(out[i] / total)
	}
	return out, true
}

// clamp is v held within xs's (sorted) least and most.
func clamp(v int, xs []int) int { return min(max(v, xs[0]), xs[len(xs)-1]) }

// nearest is cell with its WriteEvery, Cap, Bytes and Shards the nearest
// measured for its shape (a write every 6th operation is read off every
// 4th's or 16th's, the nearer by the share of writes).
func (c *Curves) nearest(cell Cell) Cell {
	best, dist := cell, math.Inf(1)
	for _, p := range c.Points {
		if p.Shape != cell.Shape {
			continue
		}
		d := math.Abs(share(p.WriteEvery)-share(cell.WriteEvery)) + math.Abs(math.Log1p(float64(p.Cap))-math.Log1p(float64(cell.Cap))) +
			math.Abs(math.Log1p(float64(p.Bytes))-math.Log1p(float64(cell.Bytes))) + math.Abs(math.Log1p(float64(p.Shards))-math.Log1p(float64(cell.Shards)))
		if d < dist {
			best.WriteEvery, best.Cap, best.Bytes, best.Shards, dist = p.WriteEvery, p.Cap, p.Bytes, p.Shards, d
		}
	}
	return best
}

// share is the share of operations that write, of one every n.
func share(n int) float64 {
	if n <= 0 {
		return 0
	}
	return 1 / float64(n)
}

// bracket is the two values of xs (sorted) around v and how far v lies
// from the first to the second, over log(1+x/10); outside xs, the edge.
func bracket(xs []int, v int) (a, b int, f float64) {
	if v <= xs[0] {
		return xs[0], xs[0], 0
	}
	if v >= xs[len(xs)-1] {
		return xs[len(xs)-1], xs[len(xs)-1], 0
	}
	i := sort.SearchInts(xs, v)
	if xs[i] == v {
		return v, v, 0
	}
	a, b = xs[i-1], xs[i]
	t := func(x int) float64 { return math.Log1p(float64(x) / 10) }
	return a, b, (t(v) - t(a)) / (t(b) - t(a))
}

// geo is the point f of the way from a to b over their logarithms, or
// straight where one is zero.
func geo(a, b, f float64) float64 {
	switch {
	case f == 0 || a == b:
		return a
	case a <= 0 || b <= 0: // a take that costs nothing has no logarithm
		return a + f*(b-a)
	}
	return math.Exp(math.Log(a) + f*(math.Log(b)-math.Log(a)))
}

//go:embed reference.json
var referenceJSON []byte

// Reference is the curves of a 16-vCPU machine, for a prediction with no
// calibration of its machine's (validation/refcurves writes it).
func Reference() *Curves {
	var c Curves
	if err := json.Unmarshal(referenceJSON, &c); err != nil {
		panic("curves: reference.json: " + err.Error())
	}
	return &c
}
