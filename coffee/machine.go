package coffee

import (
	"context"
	"runtime/trace"
	"sync"
	"time"

	"github.com/brewput/brewput/measure/burn"
)

// Machine is one appliance: a grinder, an espresso machine or a steamer.
// It serves one person at a time and does nothing to enforce that: that is
// the structure's job, and the race detector tells when one fails.
type Machine struct {
	Meter
	clock burn.Clock

	// served counts drinks, deliberately not atomic: state only a correct
	// structure keeps consistent (ideal races on it).
	served int
}

func newMachine(name string, clock burn.Clock) *Machine {
	return &Machine{Meter: Meter{name: name}, clock: clock}
}

// run runs one step of d on the held machine, a trace region named after
// it (brewput schedule draws them), and returns how long it really ran.
func (m *Machine) run(d time.Duration) time.Duration {
	r := trace.StartRegion(context.Background(), m.name)
	w := work(m.clock, d)
	r.End()
	m.served++
	return w
}

// use runs one step of d on a machine with no lock of its own, metered as
// held for the step, and returns how long it ran.
func (m *Machine) use(d time.Duration) time.Duration {
	start := time.Now()
	w := m.run(d)
	m.used(time.Since(start), w)
	return w
}

// work burns d with clock and returns how much the thread really ran: its
// CPU time, short of the wall time when others took the CPU meanwhile (the
// wall time where there is no thread CPU clock).
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

func (m *lockedMachine) use(d time.Duration) time.Duration {
	asked := time.Now()
	m.mu.Lock()
	got := time.Now()
	m.waited(got.Sub(asked))
	w := m.run(d)
	m.used(time.Since(got), w)
	m.mu.Unlock()
	return w
}
