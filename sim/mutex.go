package sim

import "time"

// Mutex is a virtual sync.Mutex that hands the lock over first come, first
// served: Unlock gives it straight to the process that has waited longest.
// (A real sync.Mutex lets a running goroutine barge ahead of a sleeping
// waiter; that belongs to the go scheduling policy, not to this one.) It
// counts its uses, the time it was held and the time processes waited for
// it, like coffee.Meter.
type Mutex struct {
	sim      *Sim
	name     string
	held     bool
	acquired time.Duration
	waiters  ring[mutexWaiter]

	uses       int64
	busy, wait time.Duration
}

type mutexWaiter struct {
	p     *Proc
	since time.Duration
}

// NewMutex returns an unlocked mutex in simulation s, named for its
// readings (e.g. "grinder").
func NewMutex(s *Sim, name string) *Mutex { return &Mutex{sim: s, name: name} }

// Name returns the mutex's name.
func (m *Mutex) Name() string { return m.name }

// Lock takes the mutex, waiting in line while another process holds it.
func (m *Mutex) Lock(p *Proc) {
	if !m.held {
		m.held = true
		m.acquired = m.sim.now
		return
	}
	m.waiters.push(mutexWaiter{p: p, since: m.sim.now})
	p.park() // resumes holding the mutex, handed over by Unlock
}

// Unlock releases the mutex, handing it to the longest waiter if there is
// one. It panics if the mutex is not locked.
func (m *Mutex) Unlock(p *Proc) {
	if !m.held {
		panic("sim: unlock of unlocked mutex " + m.name)
	}
	now := m.sim.now
	m.uses++
	m.busy += now - m.acquired
	if m.waiters.len() == 0 {
		m.held = false
		return
	}
	w := m.waiters.pop()
	m.wait += now - w.since
	m.acquired = now
	m.sim.wake(w.p)
}

// Reading is a mutex's totals at one moment: how many times it was
// released, how long it was held (including the current hold) and how long
// processes waited for it (counted when they got it).
type Reading struct {
	Uses       int64
	Busy, Wait time.Duration
}

// Sub returns the change from an earlier reading to r, for a measured
// window.
func (r Reading) Sub(earlier Reading) Reading {
	return Reading{Uses: r.Uses - earlier.Uses, Busy: r.Busy - earlier.Busy, Wait: r.Wait - earlier.Wait}
}

// Read returns the mutex's totals so far.
func (m *Mutex) Read() Reading {
	r := Reading{Uses: m.uses, Busy: m.busy, Wait: m.wait}
	if m.held {
		r.Busy += m.sim.now - m.acquired
	}
	return r
}
