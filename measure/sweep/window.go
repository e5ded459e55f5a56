//go:build !js

package sweep

import (
	"time"

	"github.com/brewput/brewput/measure/harness"
	"github.com/brewput/brewput/measure/quiet"
	"github.com/brewput/brewput/results"
)

// Window is what one measured window, or several added up, read: when it
// began, its wall time, the process's usage over it and what other
// processes took of the machine: the harness's (MeasureTarget), a lab's
// or a Go benchmark's child's (Stopwatch). Mark gives it to a point.
type Window struct {
	Start time.Time
	Wall  time.Duration
	harness.Usage
	Others quiet.Tally
}

// Add adds window o to w, one timed in parts: w starts when its first
// part did.
func (w *Window) Add(o Window) {
	if w.Start.IsZero() {
		w.Start = o.Start
	}
	w.Wall += o.Wall
	w.Usage.Add(o.Usage)
	w.Others.Merge(o.Others)
}

// CPUsUsed is the process's CPU time over the wall time: 1.5 means one
// and a half CPUs were busy on average; 0 for no time.
func (w Window) CPUsUsed() float64 {
	if w.Wall <= 0 {
		return 0
	}
	return w.CPU.Seconds() / w.Wall.Seconds()
}

// Mark gives p, on p.CPUs CPUs, what w measured: its CPU use as
// results.CPUUsed, as results.Util the share of its CPUs busy, at most 1
// (the runtime's threads outside GOMAXPROCS add a few percent), and what
// other processes took beside it.
func (w Window) Mark(p *results.Point) {
	used, util := w.CPUsUsed(), 0.0
	if p.CPUs > 0 {
		util = min(used/float64(p.CPUs), 1)
	}
	p.Set(results.CPUUsed, used)
	p.Set(results.Util, util)
	w.Others.Mark(p)
}

// Stopwatch times a window from when it started: the clock, the
// process's usage and the machine's CPU accounting.
type Stopwatch struct {
	start   time.Time
	usage   harness.Usage
	machine quiet.Sample
	on      *quiet.CPUs // the window's own CPUs; nil: the process's
}

// StartStopwatch starts a Stopwatch on the process's CPUs.
func StartStopwatch() Stopwatch { return startOn(nil) }

// StartStopwatchOn is StartStopwatch with on as the window's own CPUs:
// those a pinned child runs on.
func StartStopwatchOn(on quiet.CPUs) Stopwatch { return startOn(&on) }

func startOn(on *quiet.CPUs) Stopwatch {
	machine := quiet.TakeOn(on)
	usage := harness.ReadUsage()
	return Stopwatch{start: time.Now(), usage: usage, machine: machine, on: on}
}

// Start is when s started.
func (s Stopwatch) Start() time.Time { return s.start }

// Stop is the window since the start, read in the reverse order of
// startOn, so that the machine's window holds the process's.
func (s Stopwatch) Stop() Window {
	w := Window{Start: s.start, Wall: time.Since(s.start)}
	w.Usage = harness.ReadUsage().Sub(s.usage)
	w.Others.Add(s.machine, quiet.TakeOn(s.on))
	return w
}
