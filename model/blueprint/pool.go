package blueprint

import (
	"fmt"
	"time"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/sim"
)

// meter is coffee.Meter aware of capacity.
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

// read is the meter's totals at now; held and working count unit-time.
func (m *meter) read(now time.Duration) model.Reading {
	return model.Reading{Name: m.name, Units: m.capacity, Uses: m.uses, Held: m.area + time.Duration(m.inUse)*(now-m.since),
		Working: m.working, Wait: m.wait}
}

// pool is a resource in one simulation: one unit a sim.Mutex, more handed
// out as coffee's multi mode's channel does, locks as many mutexes.
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

// release gives a unit back, to the longest waiter if any.
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
		// The waiter is parked in Recv: this send never blocks.
		pl.waiting--
		pl.handoff.Send(p, struct{}{})
	default:
		pl.free++
	}
}
