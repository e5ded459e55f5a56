package coffee

import (
	"sync/atomic"
	"time"
)

// Meter counts how a shared resource was used: how many times, how long it
// was busy, and how long callers waited to get it. It is safe for concurrent
// use, and reading it while the shop runs is what lets a caller take
// snapshots at the edges of a measured window.
type Meter struct {
	name             string
	uses, busy, wait atomic.Int64
}

// Name is the resource's name, e.g. "grinder" or "grinder#2".
func (m *Meter) Name() string { return m.name }

// Read returns the meter's totals so far.
func (m *Meter) Read() Reading {
	return Reading{Uses: m.uses.Load(), Busy: time.Duration(m.busy.Load()), Wait: time.Duration(m.wait.Load())}
}

// worked records one use that kept the resource busy for d.
func (m *Meter) worked(d time.Duration) {
	m.uses.Add(1)
	m.busy.Add(int64(d))
}

// waited records that a caller waited d to get the resource.
func (m *Meter) waited(d time.Duration) { m.wait.Add(int64(d)) }

// Reading is a Meter's totals at one moment.
type Reading struct {
	Uses       int64
	Busy, Wait time.Duration
}

// Sub returns the change from an earlier reading to r.
func (r Reading) Sub(earlier Reading) Reading {
	return Reading{Uses: r.Uses - earlier.Uses, Busy: r.Busy - earlier.Busy, Wait: r.Wait - earlier.Wait}
}
