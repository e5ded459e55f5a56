package model

import (
	"time"

	"github.com/brewput/brewput/sim"
)

// meter mirrors coffee.Meter: how many times a shared resource was used,
// how long it was busy, and how long callers waited to get it, each
// recorded at the moments coffee records them. Only one process runs at a
// time, so plain counters do what coffee's atomics do.
type meter struct {
	name       string
	uses       int64
	busy, wait time.Duration
}

// read returns the meter's totals so far.
func (m *meter) read() sim.Reading { return sim.Reading{Uses: m.uses, Busy: m.busy, Wait: m.wait} }

// worked records one use that kept the resource busy for d.
func (m *meter) worked(d time.Duration) {
	m.uses++
	m.busy += d
}

// waited records that a caller waited d to get the resource.
func (m *meter) waited(d time.Duration) { m.wait += d }

// machine mirrors coffee.Machine: one appliance, which serves one customer
// at a time only as far as the shop's structure keeps the others off it.
// (coffee's machine also counts the drinks it served, a deliberately racy
// counter for the race detector; virtual time has no races to detect.)
type machine struct {
	meter
	cpus *sim.CPUs
}

func newMachine(name string, cpus *sim.CPUs) *machine {
	return &machine{meter: meter{name: name}, cpus: cpus}
}

// use runs one step of d on the machine. The caller must hold the machine.
// The busy time is the step's span, as coffee's time.Since around Burn;
// it includes any wait for a CPU, the model's counterpart of a step that is
// slowed down by other threads.
func (m *machine) use(p *sim.Proc, d time.Duration) {
	start := p.Now()
	m.cpus.Burn(p, d)
	m.worked(p.Now() - start)
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
	m.waited(p.Now() - asked)
	m.machine.use(p, d)
	m.mu.Unlock(p)
}
