package coffee

import (
	"sync"
	"time"

	"github.com/brewput/brewput/burn"
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

// use runs one step of d on the machine. The caller must hold the machine.
func (m *Machine) use(d time.Duration) {
	start := time.Now()
	m.clock.Burn(d)
	m.served++
	m.worked(time.Since(start))
}

// lockedMachine is a machine with its own mutex, as in finelocking.
type lockedMachine struct {
	mu sync.Mutex
	*Machine
}

// use waits for the machine's lock, runs one step, and lets go.
func (m *lockedMachine) use(d time.Duration) {
	asked := time.Now()
	m.mu.Lock()
	m.waited(time.Since(asked))
	m.Machine.use(d)
	m.mu.Unlock()
}
