package blueprint

import (
	"fmt"
	"time"

	"github.com/brewput/brewput/model/sim"
)

// meter follows how many of a machine's units are in use over time, how
// many uses ended and how long users waited, for a measured window: the
// counterpart of coffee.Meter, aware of capacity.
type meter struct {
	name     string
	capacity int
	inUse    int
	since    time.Duration // when inUse last changed
	area     time.Duration // units in use × time, up to since
	uses     int64         // uses ended
	wait     time.Duration // waits of the uses begun
	working  time.Duration // CPU time the holders burned, of the uses ended
}

// take starts a use at now, after waiting waited for it.
func (m *meter) take(now, waited time.Duration) {
	m.advance(now)
	m.inUse++
	m.wait += waited
}

// give ends a use at now, in which the holder burned working of CPU.
func (m *meter) give(now, working time.Duration) {
	m.advance(now)
	m.inUse--
	m.uses++
	m.working += working
}

func (m *meter) advance(now time.Duration) {
	m.area += time.Duration(m.inUse) * (now - m.since)
	m.since = now
}

// reading is a meter's totals at one moment; busy (held) and working
// count unit-time.
type reading struct {
	uses                int64
	busy, working, wait time.Duration
}

func (m *meter) read(now time.Duration) reading {
	return reading{uses: m.uses, busy: m.area + time.Duration(m.inUse)*(now-m.since), working: m.working, wait: m.wait}
}

// pool is a resource in one simulation. A resource of one unit is a
// sim.Mutex, as a Go program guards one machine with a sync.Mutex; a
// larger one hands units out like coffee's multi mode's buffered channel of
// machines: a free unit is taken at once, and a waiter gets a released
// unit handed to it over a channel. Both serve waiters first come, first
// served. A resource of locks is as many sim.Mutexes, each use locking
// one drawn at random, as a sharded map hashes its keys.
type pool struct {
	*meter
	mu      *sim.Mutex
	handoff *sim.Chan[struct{}] // unbuffered: a release hands its unit to the longest waiter
	free    int                 // units nobody holds
	waiting int                 // processes blocked in handoff.Recv
	locks   []*sim.Mutex
	holding map[*sim.Proc]*sim.Mutex // the lock each holder of locks took
}

func newPool(s *sim.Sim, m *meter, locks bool) *pool {
	pl := &pool{meter: m}
	if locks && m.capacity > 1 {
		for i := range m.capacity {
			pl.locks = append(pl.locks, sim.NewMutex(s, fmt.Sprintf("%s#%d", m.name, i+1)))
		}
		pl.holding = map[*sim.Proc]*sim.Mutex{}
		return pl
	}
	if m.capacity == 1 {
		pl.mu = sim.NewMutex(s, m.name)
		return pl
	}
	pl.handoff = sim.NewChan[struct{}](s, 0)
	pl.free = m.capacity
	return pl
}

// acquire waits for a unit and takes it.
func (pl *pool) acquire(p *sim.Proc) {
	asked := p.Now()
	switch {
	case pl.mu != nil:
		pl.mu.Lock(p)
	case pl.locks != nil:
		mu := pl.locks[p.Sim().Rand().IntN(len(pl.locks))]
		mu.Lock(p)
		pl.holding[p] = mu
	case pl.free > 0:
		pl.free--
	default:
		pl.waiting++
		pl.handoff.Recv(p)
	}
	pl.take(p.Now(), p.Now()-asked)
}

// release gives a unit back, to the longest waiter if there is one; the
// holder burned working while it held the unit.
func (pl *pool) release(p *sim.Proc, working time.Duration) {
	pl.give(p.Now(), working)
	switch {
	case pl.mu != nil:
		pl.mu.Unlock(p)
	case pl.locks != nil:
		mu := pl.holding[p]
		delete(pl.holding, p)
		mu.Unlock(p)
	case pl.waiting > 0:
		// The waiter is parked in Recv (it counted itself just before,
		// with nothing in between that could yield), so this send hands
		// over at once and never blocks.
		pl.waiting--
		pl.handoff.Send(p, struct{}{})
	default:
		pl.free++
	}
}
