package sim

import (
	"math/bits"
	"time"
)

// Line is a cache line that several cores use: a mutex's state word, a
// channel's lock, an atomic counter, a reader count. Under the go policy
// it is at one core at a time, or on its way to one: a core that lacks it
// waits while it comes ([Transfer], by how far apart the Ps are), and the
// core that has it uses it for free until another asks, so uses by many
// cores serialize at a move a use (docs/model.md). A word cores add to
// (NewWordLine) stays Transfer.Stay of its move, as machines were measured
// to keep one. A read leaves a copy, free to read until the next write,
// which takes every copy back. Under fifo a Line costs nothing.
type Line struct {
	sim *Sim
	// at is the line's stays, the first the one under way now: the core
	// it is at (or on its way to), from arrive until leave, never where
	// no one has asked for it since.
	at      ring[stay]
	copies  []uint64 // cores with a copy to read, a bit each
	ncopies int

	moves  int64
	stalls time.Duration
	scale  float64 // SetScale's; 0 is 1
	word   bool    // cores add to it: it stays Transfer.Stay of its move
}

// SetScale makes the line's moves take f times their transfer cost: a
// what-if (0.9: moving 10 % faster), not a machine.
func (l *Line) SetScale(f float64) { l.scale = f }

type stay struct {
	core          int
	arrive, leave time.Duration
	came          time.Duration // the transfer that brought it
}

// forever is a stay's leave until another core asks for the line.
const forever = time.Duration(1<<63 - 1)

// NewLine returns a line in no core's cache.
func NewLine(s *Sim) *Line { return &Line{sim: s} }

// NewWordLine returns a line in no core's cache holding a word cores add to.
func NewWordLine(s *Sim) *Line { return &Line{sim: s, word: true} }

// Write is an atomic read-modify-write of the line by p's core (a
// compare-and-swap, an add, a swap): p's P waits, busy, until the line is
// at its core and no other core has a copy.
func (l *Line) Write(p *Proc) {
	c, ok := l.core(p)
	if !ok || l.holds(c) && l.ncopies == 0 {
		return
	}
	l.move(p, c, true)
}

// Read is a load of the line by p's core: free where the core has the
// line or a copy, else p's P waits while the line comes.
func (l *Line) Read(p *Proc) {
	c, ok := l.core(p)
	if !ok || l.holds(c) || l.ncopies > 0 && l.copies[c/64]&(1<<(c%64)) != 0 {
		return
	}
	l.move(p, c, false)
}

// core is p's P under a go policy that charges for lines, whose stays
// are brought up to now; a line no core had yet is p's at once.
func (l *Line) core(p *Proc) (int, bool) {
	g := l.sim.sched
	if g == nil || g.dist == nil || p.pp == nil {
		return 0, false
	}
	c := p.pp.id
	now := l.sim.now
	if l.at.len() == 0 {
		l.at.push(stay{core: c, arrive: now, leave: forever})
		l.copies = make([]uint64, (len(g.dist)+63)/64)
		return c, false
	}
	for l.at.len() > 1 && l.at.front().leave <= now {
		l.at.pop()
	}
	return c, true
}

func (l *Line) holds(c int) bool {
	st := l.at.front()
	return st.core == c && st.arrive <= l.sim.now
}

// move brings the line to core c for p, after the moves already asked for,
// from the last core to have it or, for a write, the farthest copy.
func (l *Line) move(p *Proc, c int, write bool) {
	g, now := l.sim.sched, l.sim.now
	last := l.at.back()
	leave := max(now, last.arrive+last.came)
	// Where c has it, but not alone, only the copies go.
	if last.core == c || !g.costs.Transfer.Keep {
		leave = max(now, last.arrive)
	}
	if stay := g.costs.Transfer.Stay; l.word && stay > 0 && last.core != c {
		leave = max(now, last.arrive+time.Duration(stay*float64(last.came)))
	}
	last.leave = leave
	cost := g.dist[c][last.core]
	if write && l.ncopies > 0 {
		for w, set := range l.copies {
			for set != 0 {
				i := w*64 + bits.TrailingZeros64(set)
				set &= set - 1
				cost = max(cost, g.dist[c][i])
			}
			l.copies[w] = 0
		}
		l.ncopies = 0
	} else if !write && last.core != c {
		if w, bit := last.core/64, uint64(1)<<(last.core%64); l.copies[w]&bit == 0 {
			l.copies[w] |= bit
			l.ncopies++
		}
	}
	if l.scale > 0 {
		cost = time.Duration(float64(cost) * l.scale)
	}
	// A move takes longer or shorter by where on the die the line's home
	// is and what else crosses it: half again either way, which also keeps
	// cores from falling into a lockstep no machine keeps.
	if cost > 0 {
		cost = cost/2 + time.Duration(l.sim.below(int64(cost)+1))
	}
	arrive := leave + cost
	l.at.push(stay{core: c, arrive: arrive, leave: forever, came: cost})
	l.moves++
	l.stalls += arrive - now
	g.spend(p, arrive-now)
}

// Moves returns how many times the line has moved to a core, or been
// taken back from the cores with copies.
func (l *Line) Moves() int64 { return l.moves }

// Stalls returns the time cores spent waiting for the line, queued and
// moving.
func (l *Line) Stalls() time.Duration { return l.stalls }
