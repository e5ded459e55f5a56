package curves

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/brewput/brewput/results"
)

// minShare is the least share of an operation's time that a lock's holds
// must take to be read as its lock; a read lock, whose holds are not
// timed, is one where half the operations or more take it.
const minShare = 0.02

// BenchOf reads a benchmark's Bench off its measured runs, on one CPU and
// more: the median run's time an operation, each count's speed-ups, and
// its lock, read on the most CPUs measured.
func BenchOf(runs []results.Point) (Bench, error) {
	by := map[int][]results.Point{}
	for _, p := range runs {
		if p.Ops > 0 && p.Throughput > 0 {
			by[p.CPUs] = append(by[p.CPUs], p)
		}
	}
	one := by[1]
	if len(one) == 0 {
		return Bench{}, fmt.Errorf("no run on one CPU that completed an operation")
	}
	base := medianRun(one).Throughput
	// A speed-up's band holds both its runs' spread and one CPU's.
	lo1, hi1 := spread(one)
	b := Bench{T1: 1e9 / base, Measured: map[int]Range{}, Runs: map[int][]float64{}}
	most := 1
	for n, ps := range by {
		var xs []float64
		for _, p := range ps {
			xs = append(xs, p.Throughput)
			b.Runs[n] = append(b.Runs[n], p.Throughput/base)
		}
		b.Measured[n] = Range{results.Median(xs) / base, slices.Min(xs) / hi1, slices.Max(xs) / lo1}
		most = max(most, n)
	}
	top := medianRun(by[most])
	b.Lock, b.Near = lockOf(top, b.T1)
	b.Disturbed = slices.ContainsFunc(append(by[1], by[most]...), results.Point.IsDisturbed)
	waited := func(kind string) bool {
		return slices.ContainsFunc(top.Waits, func(w results.Wait) bool { return w.Kind == kind })
	}
	if b.Lock == nil && waited(results.WaitChanLock) {
		// Two goroutines waited for a channel's lock, which the watch's
		// samples did not see shared: the channel used most is.
		b.Lock = chanOf(top, true)
	}
	// A timer's lock, or a channel's the watch saw none of, that the
	// workers waited for: they share something the runtime locks.
	b.RuntimeShared = b.Lock == nil && (waited(results.WaitTimerLock) || waited(results.WaitChanLock))
	sites := map[string]int{}
	for _, m := range top.Machines() {
		if !results.IsChan(m.Kind) {
			b.Takes += float64(m.Uses) / float64(top.Ops) // Ops > 0: by holds no other
			k := site(m.Name)
			sites[k]++
			b.Spread = max(b.Spread, sites[k])
		}
	}
	b.Allocs = medianRun(one).Metrics["allocs/op"]
	return b, nil
}

// spread is the least and most throughput of ps.
func spread(ps []results.Point) (lo, hi float64) {
	lo, hi = ps[0].Throughput, ps[0].Throughput
	for _, p := range ps {
		lo, hi = min(lo, p.Throughput), max(hi, p.Throughput)
	}
	return lo, hi
}

// medianRun is the run of the median throughput (the lower middle one of
// an even count).
func medianRun(ps []results.Point) results.Point {
	s := slices.Clone(ps)
	slices.SortFunc(s, func(a, b results.Point) int { return cmp.Compare(a.Throughput, b.Throughput) })
	return s[(len(s)-1)/2]
}

// lockOf is the lock p's workers share whose holds take the most of an
// operation's time, t1 ns, each: a site's locks (name#1 … name#k, its
// shards) one Lock, their holds spread over them; a channel they share,
// whose every send and receive takes its lock, however little; else nil
// where none takes minShare of it. near is
// the other of a watched lock and a shared channel where its holds take
// nearly as much (nearShare): which limits it is undecided.
func lockOf(p results.Point, t1 float64) (l, near *Lock) {
	l, c := watchedLockOf(p, t1), chanOf(p, false)
	share := func(l *Lock) float64 {
		if l.Read {
			return max(l.Uses*l.Hold/t1, minShare)
		}
		return l.Uses * l.Hold / t1
	}
	if c != nil && (l == nil || share(c) > share(l)) {
		l, c = c, l
	}
	if c != nil && share(c)*nearShare >= share(l) {
		return l, c
	}
	return l, nil
}

// nearShare is how much less of an operation a second lock may hold than
// the first and still be as likely the one that limits it: a run's time
// an operation, and with it the share, moves by as much between runs of a
// busy machine.
const nearShare = 1.5

// chanOf is the channel p's workers held most of an operation, as a Lock
// held ChanHold a take or its uses' mean wait: one they share (its
// takers), or, where shared says it is (the runtime's waits for its
// lock), any; nil where none is.
func chanOf(p results.Point, shared bool) *Lock {
	var best *Lock
	for _, g := range bySite(p, true) {
		if !shared && (g.goroutines < 2 || g.takers/g.uses < 1.5) {
			continue // each its goroutine's own, or its takers not known
		}
		// Where its operations blocked (a semaphore's ticket held through
		// its critical section, a queue's next stage busy), what the
		// channel holds its users for shows in their waits, as a lock's
		// missed holds do: a use's mean wait, where longer than ChanHold.
		l := &Lock{Uses: g.uses / float64(p.Ops), Hold: max(ChanHold, g.wait/g.uses), Shards: g.locks, Chan: true}
		if best == nil || l.Uses*l.Hold > best.Uses*best.Hold {
			best = l
		}
	}
	return best
}

// siteUse is what one site's locks, or channels, did in a run, summed.
type siteUse struct {
	uses, reads, held float64
	wait              float64 // ns, all uses' waits
	locks, goroutines int
	takers            float64
	rw                bool
}

// bySite is what p's locks (its channels, where chans) that were used
// did, by site, in the order first met.
func bySite(p results.Point, chans bool) []*siteUse {
	sites := map[string]*siteUse{}
	var out []*siteUse
	for _, m := range p.Machines() {
		if results.IsChan(m.Kind) != chans || m.Uses <= 0 {
			continue
		}
		g := sites[site(m.Name)]
		if g == nil {
			g = &siteUse{}
			sites[site(m.Name)] = g
			out = append(out, g)
		}
		uses := float64(m.Uses)
		hold := m.BusyFrac * p.Dur.Seconds() * 1e9 / uses
		if m.FreeHoldNs > 0 {
			hold = m.FreeHoldNs
		}
		g.uses += uses
		g.reads += float64(m.Reads)
		g.held += hold * (uses - float64(m.Reads))
		g.wait += m.MeanWaitMs * 1e6 * uses
		g.locks++
		g.rw = g.rw || m.Kind == "rwmutex"
		g.goroutines = max(g.goroutines, m.Goroutines)
		g.takers += m.Takers * uses
	}
	return out
}

// watchedLockOf is lockOf of the locks whose holds were timed.
func watchedLockOf(p results.Point, t1 float64) *Lock {
	var best *Lock
	bestRank := 0.0
	ops := float64(p.Ops)
	for _, g := range bySite(p, false) {
		// A meter's takers are not known: a lock metered is taken as one
		// its workers share, and an RWMutex metered as read.
		known := g.goroutines > 0
		if takers := g.takers / g.uses; known && (g.goroutines < 2 || takers < 1.5) {
			continue // each its goroutine's own: never waited for
		}
		writes := g.uses - g.reads
		hold := 0.0
		if writes > 0 {
			hold = g.held / writes
		}
		// A hold the watcher's timing misses (a sleep under the lock, rarer
		// than the holds it times) still shows in the waits it caused: where
		// the holds timed take too little of an operation to count, a use's
		// mean wait is the least its holds took.
		if wait := g.wait / g.uses; writes > 0 && g.uses/ops*hold/t1 < minShare && wait > hold {
			hold = wait
		}
		l := &Lock{Uses: g.uses / ops, Hold: hold, Read: g.reads > g.uses/2 || !known && g.rw, Writes: writes / g.uses, Shards: g.locks}
		share := l.Uses * hold / t1
		if l.Read && l.Uses >= 0.5 {
			share = max(share, minShare)
		}
		if share < minShare {
			continue
		}
		// A site's holds are spread over its shards, each held its share
		// over their count: one lock every operation takes (an RWMutex's
		// readers' count is a line they all write) holds them more than
		// another site's many, which its shards relieve.
		if rank := share / float64(l.Shards); best == nil || rank >= bestRank {
			best, bestRank = l, rank
		}
	}
	return best
}

// site is a lock's name less its shard's number: name#1 … name#k are one
// site's locks.
func site(name string) string {
	if base, k, ok := strings.Cut(name, "#"); ok && base != "" && strings.Trim(k, "0123456789") == "" {
		return base
	}
	return name
}
