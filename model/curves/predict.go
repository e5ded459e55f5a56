package curves

import (
	"math"
	"slices"

	"github.com/brewput/brewput/results"
)

// Range is a speed-up against one CPU: a point and the band around it.
type Range struct{ Mid, Lo, Hi float64 }

func (r Range) scale(f float64) Range { return Range{r.Mid * f, r.Lo * f, r.Hi * f} }

// Bench is what was measured of a benchmark on this machine: the time of
// an operation on one CPU, its speed-ups on the CPU counts measured, and
// the lock its workers share that holds it most, if any.
type Bench struct {
	T1       float64       // ns an operation, on one CPU
	Measured map[int]Range // by CPU count: the runs' median, least and most against one CPU's median
	// Runs are, by CPU count, each run's speed-up against one CPU's
	// median, in order: what the kind is decided on (Decide).
	Runs   map[int][]float64
	Lock   *Lock
	Takes  float64 // takes of the locks watched an operation, all together
	Spread int     // the most locks of one site taken (a sharded map's buckets)
	Allocs float64 // heap allocations an operation
	// RuntimeShared says its workers waited for a lock of the runtime's
	// that no lock watched explains (a timer's, in Go's mutex profile).
	RuntimeShared bool
	// Near is a second lock whose holds take nearly as much of an
	// operation as Lock's; nil where none does.
	Near *Lock
	// Disturbed says other processes took CPU from a run on one CPU or
	// on the most measured (kept, --noisy ok): its goroutines may not have
	// run side by side, and their speed-up decides no kind.
	Disturbed bool
}

// Lock is a lock a benchmark's workers share.
type Lock struct {
	Uses   float64 // takes an operation
	Hold   float64 // ns a hold taken free
	Read   bool    // most takes were an RWMutex's readers'
	Writes float64 // the share of its takes that were writers'
	Shards int     // locks its site took (a sharded map's)
	// Chan says it is a channel's: each send and receive takes it, for
	// ChanHold, which is not timed.
	Chan bool
}

// ChanHold is what a channel's send or receive is taken to hold its lock,
// in ns: the value's copy and the queue's update, untimed (a send and a
// receive on a buffered channel took 100-130 ns together on one CPU of a
// busy 2-vCPU VM, the lock's takes and releases included).
const ChanHold = 25

// Kind is what a prediction took a benchmark to be.
type Kind string

// The kinds.
const (
	// OneLock: one lock its workers take in turn (a mutex, or a channel
	// they share), Mutex curves read off at its hold and the work between
	// its takes.
	OneLock Kind = "one lock"
	// ReadLock: an RWMutex taken mostly to read: its readers' count is a
	// word they all write, RWMutex curves.
	ReadLock Kind = "read lock"
	// SharedLine: no lock explains it, and two CPUs made no more than one
	// (under noGain of it): a line both wrote, Word curves.
	SharedLine Kind = "shared line"
	// PartlyShared: sharded locks, locks taken often but held briefly, or
	// allocation, where two CPUs made more than one (noGain of it or
	// more): between Word curves and Alloc's.
	PartlyShared Kind = "partly shared"
	// Unexplained: two CPUs gained on one (noGain) but less than work alone
	// does, with no lock or allocation to explain it: one line all CPUs
	// write, which more CPUs do not relieve, or sharing spread over many,
	// which they do. Two CPUs do not tell which, so it is not predicted.
	Unexplained Kind = "unexplained loss"
	// NothingShared: its CPUs made about all their work alone would.
	NothingShared Kind = "nothing shared"
)

// noGain is the speed-up on two CPUs under which they gained nothing over
// one that the runs' spread (a tenth, commonly) can tell: what they share
// already holds them, and it is read as a line, not as allocation, which
// more CPUs would relieve. Not where the locks taken an operation are one
// site's many, more than its workers: what they share is spread over their
// lines.
const noGain = 1.1

// Of is the kind b is: read off its lock, its allocation and what the
// runs on the most CPUs measured (2, usually) made against what work
// alone makes, at their median (Decide).
func Of(b Bench, here *Curves) Kind { return Decide(b, here).Kind }

// Decision is the kind a benchmark is read as at its runs' median, and
// the others its runs on the most CPUs measured would be read as where
// they lie on both sides of a boundary between kinds: undecided, it is
// predicted as the union of the kinds' bands.
type Decision struct {
	Kind   Kind
	Others []Kind
}

// Undecided says whether the runs read as more than one kind.
func (d Decision) Undecided() bool { return len(d.Others) > 0 }

// drift is how far the same command's runs of a benchmark may lie from
// these later, beyond their own spread: the median of two measurements'
// speed-ups on 2 CPUs differed by ×1.04 (×1.10 at the 80th percentile) on
// the project's 2-vCPU VM.
const drift = 1.05

// Decide reads b's kind at its runs' median on the most CPUs measured, and
// again at their least and most (the outermost fifth of more than four
// left out: a run disturbed does not decide), each widened by drift, and
// with the lock near its lock where there is one.
func Decide(b Bench, here *Curves) Decision {
	s, ok := b.most()
	d := Decision{Kind: b.kindAt(s.r.Mid, here)}
	if !ok {
		return d
	}
	lo, hi := s.r.Lo, s.r.Hi
	if runs := slices.Sorted(slices.Values(b.Runs[s.n])); len(runs) > 0 {
		cut := (len(runs) - 1) / 4
		lo, hi = runs[cut], runs[len(runs)-1-cut]
	}
	if b.Disturbed {
		// Time-sliced, two goroutines that write one line need not have
		// met, and ones that share nothing may have had less than their
		// CPUs: from a gain of nothing to work alone's.
		_, _, alone := Shortfall(b, here)
		lo, hi = min(lo, 1), max(hi, alone)
	}
	add := func(k Kind) {
		if k != d.Kind && !slices.Contains(d.Others, k) {
			d.Others = append(d.Others, k)
		}
	}
	for _, v := range []float64{min(lo, s.r.Mid) / drift, max(hi, s.r.Mid) * drift} {
		add(b.kindAt(v, here))
	}
	if b.Near != nil {
		add(b.withLock(b.Near).kindAt(s.r.Mid, here))
	}
	return d
}

// withLock is b with l its lock, and no other near it.
func (b Bench) withLock(l *Lock) Bench {
	b.Lock, b.Near = l, nil
	return b
}

// kindAt is the kind b is where the most CPUs measured made v.
func (b Bench) kindAt(v float64, here *Curves) Kind {
	s, ok := b.most()
	switch {
	case b.Lock != nil && b.Lock.Shards > 1:
		return PartlyShared
	case b.Lock != nil && b.Lock.Read:
		return ReadLock
	case b.Lock != nil:
		return OneLock
	case !ok:
		return NothingShared
	case (b.Allocs > 0 || b.RuntimeShared) && v >= noGain:
		return PartlyShared
	}
	_, _, alone := Shortfall(b, here)
	spread := b.Takes >= 1.0/16 && b.Spread > s.n // one site's locks, more than its workers
	switch {
	case v >= alone*0.85:
		return NothingShared
	case v < noGain && !spread:
		return SharedLine
	case b.Takes >= 1.0/16:
		return PartlyShared // locks taken often but held too briefly to count, or spread over many
	}
	return Unexplained
}

// Shortfall is what b made on the most CPUs measured past one, n, and
// what work that shares nothing makes on n CPUs here (n where not known).
func Shortfall(b Bench, here *Curves) (n int, made, alone float64) {
	s, ok := b.most()
	if !ok {
		return 1, 1, 1
	}
	alone = float64(s.n)
	if here != nil {
		if p, _, _, ok := here.Speedup(private, s.n); ok {
			alone = p
		}
	}
	return s.n, s.r.Mid, alone
}

// private is the cell of work that shares nothing.
var private = Cell{Shape: Alloc, Outside: 700}

// measured is a speed-up measured on n CPUs.
type measured struct {
	n int
	r Range
}

// most is b's speed-up on the most CPUs measured past one.
func (b Bench) most() (measured, bool) {
	var out measured
	for n, r := range b.Measured {
		if n > 1 && n > out.n {
			out = measured{n, r}
		}
	}
	return out, out.n > 1
}

// Predict is b's speed-up on n CPUs of the machine there's curves were
// measured on, from what was measured here (here's curves, nil where not
// known), and the kind it took b to be (at its runs' median); false where
// there holds no curve, or b is an unexplained loss. Undecided between
// kinds, its band is their bands' union.
func Predict(b Bench, here, there *Curves, n int) (Range, Kind, bool) {
	d := Decide(b, here)
	if n == 1 {
		return Range{1, 1, 1}, d.Kind, true
	}
	if d.Kind == Unexplained {
		return Range{}, d.Kind, false
	}
	s, ok := b.most()
	if !ok {
		s = measured{1, Range{1, 1, 1}}
	}
	out, ok := predictAs(d.Kind, b, here, there, s, n)
	union := func(r Range, ok2 bool) {
		if ok && ok2 {
			out.Lo, out.Hi = min(out.Lo, r.Lo), max(out.Hi, r.Hi)
		}
	}
	for _, k := range d.Others {
		union(predictAs(k, b, here, there, s, n))
	}
	if b.Near != nil {
		near := b.withLock(b.Near)
		union(predictAs(near.kindAt(s.r.Mid, here), near, here, there, s, n))
	}
	if ok && (d.Kind == NothingShared || slices.Contains(d.Others, NothingShared)) {
		out = unseenWord(out, b, here, there, s, n)
	}
	return out, d.Kind, ok
}

// predictAs is b's speed-up on n CPUs read as kind, from s; an
// unexplained loss (which runs undecided may read as) is read as partly
// shared is: between a line all CPUs write and work alone.
func predictAs(kind Kind, b Bench, here, there *Curves, s measured, n int) (Range, bool) {
	var out Range
	ok := false
	limit := s.r.Mid // what they share already limits it: see below
	switch kind {
	case OneLock:
		// Two readings of the Mutex curves, which part ways where the
		// benchmark's hold lies far from the cells measured: the speed-up
		// measured, carried as the cell nearest it changes; and the
		// lock's rate at its hold, less what was missed here. The point
		// is their geometric mean, the band spans both.
		a, ok1 := oneLockRatio(b, here, there, s, n)
		c, ok2 := oneLock(b, here, there, n)
		ok = ok1 && ok2
		out = Range{math.Sqrt(a.Mid * c.Mid), min(a.Lo, c.Lo), max(a.Hi, c.Hi)}
	case ReadLock:
		sc := there.Scale(here)
		cell := Cell{Shape: RWMutex, Hold: int(b.Lock.Hold * sc), Outside: int(b.outside() * sc)}
		out, ok = ratio(there, cell, s, n)
		// The readers' line moves between this machine's CPUs as cheaply
		// or as dearly as they lie at the time: the band spans the
		// curve's own speed-up too, which what was measured here does
		// not move; the point stays the carried one.
		if _, lo, hi, ok2 := there.Speedup(cell, n); ok && ok2 {
			out.Lo, out.Hi = min(out.Lo, lo), max(out.Hi, hi)
		}
		if ok && b.Lock.Writes >= 1.0/16 {
			// Its writers hold it alone, as a mutex's: between the two.
			w, ok2 := oneLockRatio(b, here, there, s, n)
			if ok = ok2; ok {
				out = Range{math.Sqrt(out.Mid * w.Mid), min(out.Lo, w.Lo), max(out.Hi, w.Hi)}
			}
		}
	case SharedLine:
		out, ok = ratio(there, Cell{Shape: Word, Outside: int(b.T1 * there.Scale(here))}, s, n)
		// A line moves no faster for more CPUs: at best it stays as fast,
		// the point where the cell at its work still gains past s.n (the
		// line held it sooner than that cell says), and the band spans
		// both readings.
		out = Range{min(out.Mid, s.r.Mid), min(out.Lo, s.r.Lo), max(out.Hi, s.r.Hi)}
	case PartlyShared, Unexplained:
		var alone Range
		alone, ok = ratio(there, private, s, n)
		line, ok2 := worstLine(there, s, n)
		ok = ok && ok2
		out = Range{math.Sqrt(line.Mid * alone.Mid), min(line.Lo, line.Mid), alone.Hi}
		limit = min(limit, line.Mid)
	default:
		out, ok = ratio(there, private, s, n)
	}
	// Where more CPUs made clearly less than one (their every run below
	// one CPU's every run), whatever they share is already the limit:
	// more CPUs add to its queue, not to what it serves. The point stays
	// what they made, or where the kind's band reaches down to a line
	// (partly shared), the line's reading: a line all CPUs write moves
	// more often with more of them, as the Word curves fall past two.
	// The band keeps what the curves allow.
	if s.n > 1 && s.r.Hi < 1 && out.Mid > limit {
		out = Range{limit, min(out.Lo, limit), out.Hi}
	}
	return out, ok
}

// unseenWord widens out down to what one write an operation to a word
// every CPU writes (an atomic counter, which no watcher sees) would leave
// of b on n CPUs: no more operations a second than the Word cell at its
// work (past the cells measured, the most work's: its line's moves
// between CPUs, not the work, hold it there) makes adds. Unless s's runs
// rule it out: they made more on s.n CPUs than such a word allows
// (here's cell, else there's).
func unseenWord(out Range, b Bench, here, there *Curves, s measured, n int) Range {
	limit := func(c *Curves, n int) (float64, bool) {
		t1 := b.T1 * c.Scale(here)
		adds, _, _, ok := c.each(Cell{Shape: Word, Outside: int(t1)}, n, func(_, at Point) [3]float64 {
			m := results.Median(at.Rates)
			return [3]float64{m, m, m}
		})
		return adds * t1 / 1e9, ok // against one CPU's 1e9/t1 a second
	}
	w, ok := limit(here, s.n)
	if !ok {
		w, ok = limit(there, s.n)
	}
	if s.n < 2 || ok && s.r.Lo > w*drift && !b.Disturbed {
		return out
	}
	if w, ok := limit(there, n); ok {
		out.Lo = min(out.Lo, w)
	}
	return out
}

// oneLockRatio carries the speed-up measured on s.n CPUs as the Mutex
// cell at the lock's hold and the work between its takes changes from
// s.n to n there.
func oneLockRatio(b Bench, here, there *Curves, s measured, n int) (Range, bool) {
	sc := there.Scale(here)
	hold := min(b.Lock.Hold, b.T1/b.Lock.Uses) * sc
	gap := max(b.T1/b.Lock.Uses*sc-hold, 0)
	return ratio(there, Cell{Shape: Mutex, Hold: int(hold), Outside: int(gap)}, s, n)
}

// worstLine carries s to n as the Word cell that lost the most from s.n
// to n there: the least a line all CPUs write could leave.
func worstLine(there *Curves, s measured, n int) (Range, bool) {
	var out Range
	found := false
	for _, p := range there.Points {
		if p.Shape != Word || p.CPUs != 1 {
			continue
		}
		r, ok := ratio(there, p.Cell, s, n)
		if ok && (!found || r.Mid < out.Mid) {
			out, found = r, true
		}
	}
	return out, found
}

// outside is b's work an operation outside its lock's holds, in ns.
func (b Bench) outside() float64 {
	if b.Lock == nil || b.Lock.Uses <= 0 {
		return b.T1
	}
	return max(b.T1/b.Lock.Uses-b.Lock.Hold, 0)
}

// ratio carries s, the speed-up measured on s.n CPUs, to n by how much
// cell's speed-up there changes from s.n to n, its band spanning s's and
// the curve's repeats.
func ratio(there *Curves, cell Cell, s measured, n int) (Range, bool) {
	at, lo, hi, ok := there.Speedup(cell, n)
	from, flo, fhi, ok2 := there.Speedup(cell, s.n)
	if !ok || !ok2 || !(from > 0) {
		return Range{}, false
	}
	mid := s.r.Mid * at / from
	return Range{mid, min(mid, s.r.Lo*lo/fhi), max(mid, s.r.Hi*hi/flo)}, true
}

// oneLock is the speed-up on n CPUs of an operation that takes one lock,
// from there's Mutex cells: the least of what its work alone makes and the
// lock's rate, one take every hold plus what a take costs there (takeCost).
// What it missed on the CPUs measured here it misses on n.
func oneLock(b Bench, here, there *Curves, n int) (Range, bool) {
	l := *b.Lock
	at := func(c *Curves, scale float64, n int) (Range, bool) {
		hold := min(l.Hold, b.T1/l.Uses) * scale
		t1 := b.T1 * scale
		gap := max(t1/l.Uses-hold, 0)
		take, tlo, thi, ok := c.takeCost(hold, gap, n)
		alone, alo, ahi, ok2 := c.Speedup(private, n)
		if !ok || !ok2 {
			return Range{}, false
		}
		rate := func(take, alone float64) float64 { return min(alone, t1/(l.Uses*(hold+take))) }
		return Range{rate(take, alone), rate(thi, alo), rate(tlo, ahi)}, true
	}
	out, ok := at(there, there.Scale(here), n)
	if !ok {
		return Range{}, false
	}
	// What the model makes of the CPUs measured here, against what they
	// made, carries: a cost it lacks (or one it has too much of).
	if s, ok := b.most(); ok && here != nil {
		if model, ok := at(here, 1, s.n); ok && model.Mid > 0 {
			if miss := s.r.Mid / model.Mid; miss < model.Lo/model.Mid || miss > model.Hi/model.Mid {
				out = out.scale(miss)
				out.Lo, out.Hi = min(out.Lo, out.Lo/miss), max(out.Hi, out.Hi/miss)
			}
		}
	}
	return out, true
}

// takeCost is what one take of a lock costs on n CPUs beside its hold,
// read off the Mutex cells; the least and most over the repeats.
func (c *Curves) takeCost(hold, gap float64, n int) (mid, lo, hi float64, ok bool) {
	cell := Cell{Shape: Mutex, Hold: int(hold + 0.5), Outside: int(gap + 0.5)}
	return c.each(cell, n, func(_, at Point) [3]float64 {
		take := func(rate float64) float64 { return max(1e9/rate-float64(at.Hold), 0) }
		return [3]float64{take(results.Median(at.Rates)), take(slices.Max(at.Rates)), take(slices.Min(at.Rates))}
	})
}
