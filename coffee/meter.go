package coffee

import (
	"sync/atomic"
	"time"
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
type Meter struct {
	name                      string
	uses, held, working, wait atomic.Int64
}

// Name is the resource's name, e.g. "grinder" or "grinder#2".
func (m *Meter) Name() string { return m.name }

// Read returns the meter's totals so far.
func (m *Meter) Read() Reading {
	return Reading{
		Uses: m.uses.Load(), Held: time.Duration(m.held.Load()),
		Working: time.Duration(m.working.Load()), Wait: time.Duration(m.wait.Load()),
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

// Reading is a Meter's totals at one moment.
type Reading struct {
	Uses int64
	// Held is the time the resource was held; Working the part of it its
	// step was really running.
	Held, Working, Wait time.Duration
}

// Sub returns the change from an earlier reading to r.
func (r Reading) Sub(earlier Reading) Reading {
	return Reading{Uses: r.Uses - earlier.Uses, Held: r.Held - earlier.Held,
		Working: r.Working - earlier.Working, Wait: r.Wait - earlier.Wait}
}
