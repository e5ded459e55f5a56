package coffee

import (
	"context"
	"runtime/trace"
	"sync"
	"time"

	"github.com/brewput/brewput/measure/burn"
)

// Machine is one appliance: a grinder, an espresso machine or a steamer.
// Like a real one it can serve one person at a time, and it does nothing to
// enforce that: keeping two goroutines off it at once is the job of the
// shop's structure, and the race detector tells when a structure fails.
type Machine struct {
	Meter
	clock burn.Clock

	// served is the machine's own counter of drinks. It is deliberately not
	// atomic: it is the machine's state that only a correct structure keeps
	// consistent (ideal races on it, every other mode must not).
	served int
}

func newMachine(name string, clock burn.Clock) *Machine {
	return &Machine{Meter: Meter{name: name}, clock: clock}
}

// run runs one step of d on the machine and returns how long the step
// really ran: see work. The caller must hold the machine. The step is a
// region of the execution trace named after the machine, when one is
// being recorded (--profile): what brewput schedule draws from a trace.
// Without a trace a region costs a check of a flag.
func (m *Machine) run(d time.Duration) time.Duration {
	r := trace.StartRegion(context.Background(), m.name)
	w := work(m.clock, d)
	r.End()
	m.served++
	return w
}

// use runs one step of d on a machine nobody guards (ideal, or locking,
// whose kitchen lock guards them all), metering the step as the time held,
// and returns how long it really ran.
func (m *Machine) use(d time.Duration) time.Duration {
	start := time.Now()
	w := m.run(d)
	m.used(time.Since(start), w)
	return w
}

// work burns d with clock and returns how much of it the thread really
// ran: its CPU time over the burn, which falls short of the wall time when
// other threads took the CPU meanwhile (the step's wall time where the
// system has no thread CPU clock).
func work(clock burn.Clock, d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	cpu0, ok := burn.ThreadTime()
	start := time.Now()
	clock.Burn(d)
	if !ok {
		return time.Since(start)
	}
	cpu1, _ := burn.ThreadTime()
	return cpu1 - cpu0
}

// lockedMachine is a machine with its own mutex, as in finelocking.
type lockedMachine struct {
	mu sync.Mutex
	*Machine
}

// use waits for the machine's lock, runs one step, and lets go; the
// machine is held from getting the lock to letting go.
func (m *lockedMachine) use(d time.Duration) {
	asked := time.Now()
	m.mu.Lock()
	got := time.Now()
	m.waited(got.Sub(asked))
	w := m.run(d)
	m.used(time.Since(got), w)
	m.mu.Unlock()
}
