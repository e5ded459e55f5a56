package coffee

import (
	"sync/atomic"
	"time"

	"github.com/brewput/brewput/measure/meter"
)

// Meter is a meter.Meter of no kind for a shop's resource: uses, the time
// held, the part of that its step ran on a CPU (see work), and the time
// callers waited. It may be read while the shop runs.
type Meter struct {
	name                      string
	uses, held, working, wait atomic.Int64
}

// Name is the resource's name, e.g. "grinder" or "grinder#2".
func (m *Meter) Name() string { return m.name }

// Kind is empty: a shop's machines are none of package meter's kinds.
func (m *Meter) Kind() string { return "" }

func (m *Meter) Read() meter.Reading {
	return meter.Reading{
		Uses: m.uses.Load(), Held: time.Duration(m.held.Load()),
		Working: time.Duration(m.working.Load()), Waited: time.Duration(m.wait.Load()),
	}
}

// used records one use held for held, of which working ran.
func (m *Meter) used(held, working time.Duration) {
	m.uses.Add(1)
	m.held.Add(int64(held))
	m.working.Add(int64(min(max(working, 0), held)))
}

func (m *Meter) waited(d time.Duration) { m.wait.Add(int64(d)) }
