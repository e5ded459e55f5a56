package coffee

import (
	"sync/atomic"
	"time"

	"github.com/brewput/brewput/measure/meter"
)

// Meter counts how a shared resource was used: how many times, how long it
// was held, how much of that time its step was really running on a CPU
// (working), and how long callers waited to get it. Held counts from the
// moment a customer (or a pipeline's stage) gets the resource until it
// lets go, so it includes the time the holder waits for a CPU, or for the
// next stage to take the order; working is the holder's thread CPU time
// during the step (where the system has no such clock, the step's wall
// time). It is safe for concurrent use, and reading it while the shop runs
// is what lets a caller take snapshots at the edges of a measured window.
// It is a meter.Meter of no kind.
type Meter struct {
	name                      string
	uses, held, working, wait atomic.Int64
}

// Name is the resource's name, e.g. "grinder" or "grinder#2".
func (m *Meter) Name() string { return m.name }

// Kind is empty: a shop's machines are none of package meter's kinds.
func (m *Meter) Kind() string { return "" }

// Read returns the meter's totals so far.
func (m *Meter) Read() meter.Reading {
	return meter.Reading{
		Uses: m.uses.Load(), Held: time.Duration(m.held.Load()),
		Working: time.Duration(m.working.Load()), Waited: time.Duration(m.wait.Load()),
	}
}

// used records one use that held the resource for held, of which its step
// ran for working.
func (m *Meter) used(held, working time.Duration) {
	m.uses.Add(1)
	m.held.Add(int64(held))
	m.working.Add(int64(min(max(working, 0), held)))
}

// waited records that a caller waited d to get the resource.
func (m *Meter) waited(d time.Duration) { m.wait.Add(int64(d)) }
