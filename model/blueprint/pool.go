package blueprint

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/brewput/brewput/model/sim"
)

// meter is coffee.Meter aware of capacity.
type meter struct {
	name     string
	kind     string // Reading's
	capacity int
	whole    bool // held counts each use when it ends, as coffee.Meter; else units in use over time
	held     time.Duration
	inUse    int
	since    time.Duration // when inUse last changed
	area     time.Duration // units in use × time, up to since
	uses     int64         // uses ended
	wait     time.Duration // waits of the uses begun
	working  time.Duration // CPU time the holders burned, of the uses ended
	lines    []*sim.Line   // whose stalls its readings count
}

// take starts a use at now, after waiting waited for it.
func (m *meter) take(now, waited time.Duration) {
	m.advance(now)
	m.inUse++
	m.wait += waited
}

// give ends a use got at got, at now, in which the holder burned working
// of CPU.
func (m *meter) give(now, got, working time.Duration) {
	m.advance(now)
	m.inUse--
	m.uses++
	m.working += working
	m.held += now - got
}

func (m *meter) advance(now time.Duration) {
	m.area += time.Duration(m.inUse) * (now - m.since)
	m.since = now
}

// Reading is a shared resource's totals so far (unit-time).
type Reading struct {
	Name                string
	Kind                string // readingKind's
	Units               int
	Uses                int64
	Held, Working, Wait time.Duration
	// Stalls is the time cores waited for its cache lines to come.
	Stalls time.Duration
}

// read is the meter's totals at now; held and working count unit-time.
func (m *meter) read(now time.Duration) Reading {
	var stalls time.Duration
	for _, l := range m.lines {
		stalls += l.Stalls()
	}
	held := m.area + time.Duration(m.inUse)*(now-m.since)
	if m.whole {
		held = m.held
	}
	return Reading{Name: m.name, Kind: m.kind, Units: m.capacity, Uses: m.uses, Held: held, Working: m.working, Wait: m.wait, Stalls: stalls}
}

// pool is a resource in one simulation: its meter, and the one instance
// everybody shares or each CPU's or customer's own.
type pool struct {
	*meter
	units  []*meter // a Pooled resource's machines, each metered alone
	unitOf []int    // a Pooled resource's machine each process holds, by its ID
	res    Resource
	unit   int // a copy's units
	cpus   int
	scale  float64 // the relief's factor on moving its lines, 0 for none
	s      *sim.Sim
	one    *instance
	each   []*instance // by CPU or customer, where Per; nil until used
	drawn  []int       // each CPU's copy, where Hashed (draws)
	// holding is the instance each holder took, by its ID, where it is
	// not the one: a slice, as IDs count from 0, spares a map's hashing.
	holding []*instance
}

// instance is one copy of a resource: a mutex, units handed out over a
// channel, many locks, a read-write mutex, the runtime's lock, or a line.
type instance struct {
	mu       *sim.Mutex
	rw       *sim.RWMutex
	rt       *sim.RuntimeMutex
	line     *sim.Line
	handoff  *sim.Chan[struct{}] // unbuffered: a release hands its unit to the longest waiter
	free     int                 // units nobody holds
	waiting  int                 // processes blocked in handoff.Recv
	machines *sim.Chan[int]      // a Pooled resource's free machines, by index
	locks    []*instance         // its mutexes where it is many, one drawn a use
	readers  int                 // an RWMutex's holders, its meter one use however many
}

// drawsTried is how many draws of a hashed resource's copies draws ranks.
const drawsTried = 199

// draws is which copy each of n CPUs takes of a hashed resource's n, for
// the run from start state k (Config.Draw). How fast such a resource goes
// turns on how many CPUs share a copy, which one draw leaves to chance
// (two CPUs share theirs half the time): of drawsTried draws from seed,
// ranked by how many pairs of CPUs share a copy, the point takes the
// median, the band's first two other runs the tenth and the ninetieth
// percentile, and its others a draw at random.
func draws(n int, seed, k uint64) []int {
	src := rand.New(rand.NewPCG(seed, drawStream))
	type draw struct {
		copies []int
		pairs  int
	}
	tried := make([]draw, drawsTried)
	for i := range tried {
		d := draw{copies: make([]int, n)}
		load := make([]int, n)
		for c := range d.copies {
			d.copies[c] = src.IntN(n)
			d.pairs += load[d.copies[c]]
			load[d.copies[c]]++
		}
		tried[i] = d
	}
	random := tried[0].copies
	slices.SortStableFunc(tried, func(a, b draw) int { return cmp.Compare(a.pairs, b.pairs) })
	switch k {
	case 0:
		return tried[drawsTried/2].copies
	case 1:
		return tried[drawsTried/10].copies
	case 2:
		return tried[drawsTried-1-drawsTried/10].copies
	}
	return random
}

// drawStream keeps draws' source apart from the simulation's own.
const drawStream = 0x68617368

func newPool(s *sim.Sim, m *meter, r Resource, unit, cpus int, lineScale float64) *pool {
	pl := &pool{meter: m, res: r, unit: unit, cpus: cpus, scale: lineScale, s: s}
	if r.Pooled {
		for i := range unit {
			pl.units = append(pl.units, &meter{name: fmt.Sprintf("%s#%d", r.Name, i+1), capacity: 1, whole: true})
		}
	}
	if r.Per == "" {
		pl.one = pl.newInstance(unit)
	}
	return pl
}

func (pl *pool) newInstance(capacity int) *instance {
	s, r := pl.s, pl.res
	in := &instance{}
	var lines []*sim.Line
	switch {
	case r.Kind == Unguarded:
	case r.Pooled:
		// A process of its own stocks the channel, as coffee's pools are.
		in.machines = sim.NewChan[int](s, capacity)
		s.Go(func(p *sim.Proc) {
			for i := range capacity {
				in.machines.Send(p, i)
			}
		})
	case r.Kind == RWMutex && r.Locks && capacity > 1:
		for i := range capacity {
			rw := sim.NewRWMutex(s, fmt.Sprintf("%s#%d", r.Name, i+1))
			in.locks = append(in.locks, &instance{rw: rw})
			lines = append(lines, rw.Line())
		}
	case r.Kind == RWMutex:
		in.rw = sim.NewRWMutex(s, r.Name)
		lines = append(lines, in.rw.Line())
	case r.Kind == Runtime:
		in.rt = sim.NewRuntimeMutex(s, r.Name)
		lines = append(lines, in.rt.Line())
	case r.Kind == Word:
		in.line = sim.NewWordLine(s)
		lines = append(lines, in.line)
	case r.Locks && capacity > 1:
		for i := range capacity {
			mu := sim.NewMutex(s, fmt.Sprintf("%s#%d", r.Name, i+1))
			in.locks = append(in.locks, &instance{mu: mu})
			lines = append(lines, mu.Line())
		}
	case capacity == 1:
		in.mu = sim.NewMutex(s, r.Name)
		lines = append(lines, in.mu.Line())
	default:
		in.handoff = sim.NewChan[struct{}](s, 0)
		in.free = capacity
	}
	if r.Kind == RWMutex || r.Kind == Word || r.readingKind() == "mutex" {
		// A word's, an RWMutex's or a shared sync.Mutex's lines: how long
		// cores waited for them says how contended it is (model's caveats).
		pl.meter.lines = append(pl.meter.lines, lines...)
	}
	if pl.scale > 0 {
		for _, l := range lines {
			l.SetScale(pl.scale)
		}
	}
	return in
}

// instance is the copy p uses: the one, or its CPU's or its own.
func (pl *pool) instance(p *sim.Proc) *instance {
	if pl.one != nil {
		return pl.one
	}
	k := p.ID()
	if pl.res.Per == PerCPU {
		// The P it runs on; under fifo, whose CPUs belong to no one, the
		// customer's number among the CPUs.
		if k = p.CPU(); k < 0 {
			k = p.ID() % pl.cpus
		}
		if pl.res.Hashed {
			k = pl.drawn[k]
		}
	}
	pl.each = grown(pl.each, k)
	in := pl.each[k]
	if in == nil {
		in = pl.newInstance(pl.unit)
		pl.each[k] = in
	}
	return in
}

// acquire waits for a unit and takes it (shared, to read an RWMutex),
// returning the meter that counts the use.
func (pl *pool) acquire(p *sim.Proc, shared bool) *meter {
	asked := p.Now()
	in := pl.pick(p)
	switch {
	case pl.res.Kind == Unguarded:
	case in.machines != nil:
		u := in.machines.Recv(p)
		pl.unitOf = grown(pl.unitOf, p.ID())
		pl.unitOf[p.ID()] = u
		pl.units[u].take(p.Now(), p.Now()-asked)
		return pl.units[u]
	case in.mu != nil:
		in.mu.Lock(p)
	case in.rw != nil && shared:
		in.rw.RLock(p)
	case in.rw != nil:
		in.rw.Lock(p)
	case in.rt != nil:
		in.rt.Lock(p)
	case in.free > 0:
		in.free--
	default:
		in.waiting++
		in.handoff.Recv(p)
	}
	return pl.took(p, in, asked)
}

// grown is l with an element at i, the new ones zero.
func grown[T any](l []T, i int) []T {
	if i < len(l) {
		return l
	}
	return append(l, make([]T, i+1-len(l))...)
}

// pick is the copy p takes: its instance, or one of its locks drawn.
func (pl *pool) pick(p *sim.Proc) *instance {
	in := pl.instance(p)
	if in.locks != nil {
		in = in.locks[p.Sim().Rand().IntN(len(in.locks))]
	}
	return in
}

// took is p holding in, asked for at asked, returning the meter that
// counts the use.
func (pl *pool) took(p *sim.Proc, in *instance, asked time.Duration) *meter {
	if in != pl.one {
		pl.holding = grown(pl.holding, p.ID())
		pl.holding[p.ID()] = in
	}
	if in.rw != nil {
		if in.readers++; in.readers > 1 {
			pl.wait += p.Now() - asked
			return pl.meter
		}
	}
	pl.take(p.Now(), p.Now()-asked)
	return pl.meter
}

// release gives back the unit got at got, to the longest waiter if any.
func (pl *pool) release(p *sim.Proc, working time.Duration, shared bool, got time.Duration) {
	if pl.units != nil {
		u := pl.unitOf[p.ID()]
		pl.units[u].give(p.Now(), got, working)
		pl.one.machines.Send(p, u)
		return
	}
	in := pl.one
	if id := p.ID(); id < len(pl.holding) && pl.holding[id] != nil {
		in = pl.holding[id]
		pl.holding[id] = nil
	}
	if in.rw == nil {
		pl.give(p.Now(), got, working)
	} else if in.readers--; in.readers == 0 {
		pl.give(p.Now(), got, working)
	}
	switch {
	case pl.res.Kind == Unguarded:
	case in.mu != nil:
		in.mu.Unlock(p)
	case in.rw != nil && shared:
		in.rw.RUnlock(p)
	case in.rw != nil:
		in.rw.Unlock(p)
	case in.rt != nil:
		in.rt.Unlock(p)
	case in.waiting > 0:
		// The waiter is parked in Recv: this send never blocks.
		in.waiting--
		in.handoff.Send(p, struct{}{})
	default:
		in.free++
	}
}

// touch is a read or, write, a write of a word by p.
func (pl *pool) touch(p *sim.Proc, write bool) {
	in := pl.instance(p)
	if write {
		in.line.Write(p)
	} else {
		in.line.Read(p)
	}
	pl.uses++
}

// readingKind is what r's reading calls it (Reading): "mutex" where
// every customer shares its sync.Mutex (or its locks), "rwmutex" where
// they share its sync.RWMutex, else "" (the shop's, as coffee.Meter).
func (r Resource) readingKind() string {
	switch {
	case r.Per != "" || r.Noun != "":
	case r.Kind == RWMutex:
		return "rwmutex"
	case (r.Kind == "" || r.Kind == Mutex) && (r.Capacity == 1 || r.Locks):
		return "mutex"
	}
	return ""
}
