package sim

// RuntimeMutex is the Go runtime's own lock, runtime.mutex, which every
// channel operation takes. A thread that finds it held spins on its
// [Line], then sleeps holding its P until an unlock wakes it; since Go
// 1.24 one thread spins at a time (golang.org/issue/68578). Under fifo it
// is a lock handed to the longest waiter, at no cost.
type RuntimeMutex struct {
	sim  *Sim
	name string
	line *Line

	held     bool
	waiters  ring[*Proc] // fifo: waiting to be handed it; go: asleep
	spinning bool        // since Go 1.24: a thread spins for it
}

// NewRuntimeMutex returns an unlocked runtime lock named name.
func NewRuntimeMutex(s *Sim, name string) *RuntimeMutex {
	return &RuntimeMutex{sim: s, name: name, line: &Line{sim: s}}
}

func (m *RuntimeMutex) Name() string { return m.name }

// Lock takes the lock, spinning and sleeping (under the go policy) while
// another thread holds it.
func (m *RuntimeMutex) Lock(p *Proc) {
	if m.sim.sched == nil {
		if m.held {
			m.waiters.push(p)
			p.park() // Unlock hands it over
		}
		m.held = true
		return
	}
	m.line.Write(p) // the exchange that takes a free lock
	for m.held {
		if !m.spin(p) {
			m.line.Write(p) // the exchange that marks a sleeper
			if m.held {
				m.waiters.push(p)
				p.park() // in futexsleep, the P kept and idle, until Unlock wakes it
			}
		}
	}
	m.held = true
}

// spin is lock2's spinning, reporting whether it ended with the lock free:
// four active spins and one yield of the thread, each looking at the
// line; since Go 1.24 only where no other thread spins.
func (m *RuntimeMutex) spin(p *Proc) bool {
	g := m.sim.sched
	if !g.quirks.AllSpin {
		if m.spinning {
			return false
		}
		m.spinning = true
		defer func() { m.spinning = false }()
	}
	for i := range spins + 1 {
		if i < spins {
			g.spend(p, g.costs.MutexSpin) // procyield(30)
		} else {
			g.spend(p, g.costs.Switch) // osyield
		}
		m.line.Read(p)
		if !m.held {
			m.line.Write(p)
			if !m.held {
				return true
			}
		}
	}
	return false
}

// Unlock lets the lock go; under the go policy it wakes a sleeping thread
// (since Go 1.24, only where none spins), paying for the wake-up.
func (m *RuntimeMutex) Unlock(p *Proc) { m.unlock(p, nil) }

// unlock is Unlock, running then, where not nil, once the unlock has the
// line and before the lock is free, with nothing that takes time; the
// caller then blocks, so the wake-up's cost is left out.
func (m *RuntimeMutex) unlock(p *Proc, then func()) {
	s := m.sim
	if !m.held {
		panic("sim: unlock of unlocked runtime mutex " + m.name)
	}
	if s.sched == nil {
		if then != nil {
			then()
		}
		if m.waiters.len() == 0 {
			m.held = false
			return
		}
		s.schedule(m.waiters.pop(), s.now)
		return
	}
	g := s.sched
	m.line.Write(p) // the exchange that frees it
	if then != nil {
		then()
	}
	m.held = false
	if m.waiters.len() == 0 || !g.quirks.AllSpin && m.spinning {
		return
	}
	s.schedule(m.waiters.pop(), s.now+g.costs.Wake) // futexwakeup: the thread wakes, on its own P
	if then == nil {
		g.spend(p, g.costs.MutexHandoff)
	}
}

func (m *RuntimeMutex) Line() *Line { return m.line }
