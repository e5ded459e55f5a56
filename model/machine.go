package model

import (
	"time"

	"github.com/brewput/brewput/model/sim"
)

// meter mirrors coffee.Meter (held includes a wait for a P), in plain
// counters: one process runs at a time.
type meter struct {
	name                string
	uses                int64
	held, working, wait time.Duration
}

// read returns the meter's totals so far.
func (m *meter) read() Reading {
	return Reading{Name: m.name, Units: 1, Uses: m.uses, Held: m.held, Working: m.working, Wait: m.wait}
}

// used records p's use from got, having burned burned0 then.
func (m *meter) used(p *sim.Proc, got, burned0 time.Duration) {
	m.uses++
	m.held += p.Now() - got
	m.working += p.Burned() - burned0
}

// waited records that a caller waited d to get the resource.
func (m *meter) waited(d time.Duration) { m.wait += d }

// machine mirrors coffee.Machine: unguarded but by the structure.
type machine struct {
	meter
	cpus clock
}

func newMachine(name string, cpus clock) *machine {
	return &machine{meter: meter{name: name}, cpus: cpus}
}

// use runs one step of d on a machine no lock of its own guards.
func (m *machine) use(p *sim.Proc, d time.Duration) {
	got, b0 := p.Now(), p.Burned()
	m.cpus.note(p, m.name, p.ID())
	m.cpus.Burn(p, d)
	m.cpus.done(p)
	m.used(p, got, b0)
}

// station mirrors coffee's: one machine behind its lock, or a pool.
type station interface {
	use(p *sim.Proc, d time.Duration)
}

// stationOf makes n machines of kind, adding their meters to meters: a
// locked machine, or (more, or pooled) a pool.
func stationOf(s *sim.Sim, kind string, n int, pooled bool, cpus clock, meters *[]*meter) station {
	if n <= 1 && !pooled {
		m := newLockedMachine(s, newMachine(kind, cpus))
		*meters = append(*meters, &m.meter)
		return m
	}
	return stock(s, kind, n, cpus, meters)
}

// lockedMachine mirrors coffee's: a machine with its own mutex.
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
