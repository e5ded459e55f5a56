package model

import (
	"fmt"
	"time"

	"github.com/brewput/brewput/model/sim"
)

// meter mirrors coffee.Meter: how many times a shared resource was used,
// how long it was held, how much of that its step was really running on a
// CPU (working), and how long callers waited to get it, each recorded at
// the moments coffee records them. Held counts from getting the resource
// to letting go, so under the go policy it includes the time a holder
// waits for a P or pays for a handoff; working is the CPU time of the
// holder's own burns meanwhile. Only one process runs at a time, so plain
// counters do what coffee's atomics do.
type meter struct {
	name                string
	uses                int64
	held, working, wait time.Duration
}

// reading is a meter's totals at one moment.
type reading struct {
	uses                int64
	held, working, wait time.Duration
}

func (r reading) sub(earlier reading) reading {
	return reading{r.uses - earlier.uses, r.held - earlier.held, r.working - earlier.working, r.wait - earlier.wait}
}

// read returns the meter's totals so far.
func (m *meter) read() reading { return reading{m.uses, m.held, m.working, m.wait} }

// used records one use by p that got the resource at got and lets go now,
// having burned burned0 before it got it: the time held, and the CPU
// time p burned meanwhile.
func (m *meter) used(p *sim.Proc, got, burned0 time.Duration) {
	m.uses++
	m.held += p.Now() - got
	m.working += p.Burned() - burned0
}

// waited records that a caller waited d to get the resource.
func (m *meter) waited(d time.Duration) { m.wait += d }

// machine mirrors coffee.Machine: one appliance, which serves one customer
// at a time only as far as the shop's structure keeps the others off it.
// (coffee's machine also counts the drinks it served, a deliberately racy
// counter for the race detector; virtual time has no races to detect.)
type machine struct {
	meter
	cpus clock
}

func newMachine(name string, cpus clock) *machine {
	return &machine{meter: meter{name: name}, cpus: cpus}
}

// use runs one step of d on a machine nobody guards (ideal, or locking,
// whose kitchen lock guards them all), metering the step's span as held.
func (m *machine) use(p *sim.Proc, d time.Duration) {
	got, b0 := p.Now(), p.Burned()
	m.cpus.note(p, m.name, p.ID())
	m.cpus.Burn(p, d)
	m.cpus.done(p)
	m.used(p, got, b0)
}

// station mirrors coffee's station: where a customer uses one kind of
// machine, one machine behind its own lock or a pool of copies.
type station interface {
	use(p *sim.Proc, d time.Duration)
}

// stationOf makes the station of n machines of kind, adding their meters
// to meters, as coffee's stationOf.
func stationOf(s *sim.Sim, kind string, n int, cpus clock, meters *[]*meter) station {
	if n <= 1 {
		m := newLockedMachine(s, newMachine(kind, cpus))
		*meters = append(*meters, &m.meter)
		return m
	}
	return stock(s, kind, n, cpus, meters)
}

// lockedMachine mirrors coffee's lockedMachine: a machine with its own
// mutex, as in finelocking.
type lockedMachine struct {
	mu *sim.Mutex
	*machine
}

func newLockedMachine(s *sim.Sim, m *machine) *lockedMachine {
	return &lockedMachine{mu: sim.NewMutex(s, m.name), machine: m}
}

// use waits for the machine's lock, runs one step, and lets go.
func (m *lockedMachine) use(p *sim.Proc, d time.Duration) {
	asked := p.Now()
	m.mu.Lock(p)
	got, b0 := p.Now(), p.Burned()
	m.waited(got - asked)
	m.cpus.note(p, m.name, p.ID())
	m.cpus.Burn(p, d)
	m.cpus.done(p)
	m.used(p, got, b0)
	m.mu.Unlock(p)
}

// pool mirrors coffee's pool: the free machines of one kind in a buffered
// channel, which is both the queue and the lock.
type pool struct {
	ch *sim.Chan[*machine]
}

// stock fills a pool with n machines of one kind, kind#1 to kind#n. A send
// needs a process, so a process started before any customer's fills it,
// at time zero, before any customer asks (coffee fills it in the
// constructor).
func stock(s *sim.Sim, kind string, n int, cpus clock, meters *[]*meter) pool {
	ch := sim.NewChan[*machine](s, n)
	var machines []*machine
	for i := 1; i <= n; i++ {
		mc := newMachine(fmt.Sprintf("%s#%d", kind, i), cpus)
		*meters = append(*meters, &mc.meter)
		machines = append(machines, mc)
	}
	s.Go(func(p *sim.Proc) {
		for _, mc := range machines {
			ch.Send(p, mc)
		}
	})
	return pool{ch}
}

// use takes a free machine from the pool, runs one step on it, and puts
// it back.
func (pl pool) use(p *sim.Proc, d time.Duration) {
	asked := p.Now()
	mc := pl.ch.Recv(p)
	got, b0 := p.Now(), p.Burned()
	mc.waited(got - asked)
	mc.cpus.note(p, mc.name, p.ID())
	mc.cpus.Burn(p, d)
	mc.cpus.done(p)
	mc.used(p, got, b0)
	pl.ch.Send(p, mc)
}
