package harness

import (
	"fmt"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Result is what one Run measured inside its window.
type Result struct {
	// Ops is the number of operations that completed inside the window,
	// Errors how many of them returned an error.
	Ops, Errors int64

	// Drops is the number of open-loop arrivals inside the window that
	// found the queue full.
	Drops int64

	// Window is the measured window as it really fell, about the Dur asked
	// for: each edge can be late on a busy machine.
	Window time.Duration

	// Latency holds every counted operation's latency in nanoseconds: the
	// call in a closed loop, from intended arrival to completion in an
	// open one.
	Latency *hdrhistogram.Histogram

	// Service holds an open loop's times from start of service to
	// completion; nil for a closed loop.
	Service *hdrhistogram.Histogram

	// Usage is the process's over the window, read at its edges.
	Usage Usage

	// EdgeSlack is the most by which the CPU time's interval and the
	// window's can differ at an edge: a few microseconds unless the
	// reading goroutine waited long for a CPU.
	EdgeSlack time.Duration
}

// CheckCPU refuses a result whose CPU time is more than cpus CPUs could
// have used over its window, the sign of readings that did not cover one
// interval. It tolerates 2 % and two 4 ms kernel ticks per CPU: the kernel
// brings a running thread's CPU time up to date only at ticks and
// switches.
func (r Result) CheckCPU(cpus int) error {
	if r.Window <= 0 || cpus < 1 {
		return nil
	}
	limit := time.Duration(float64(cpus)*float64(r.Window)*1.02) + time.Duration(cpus)*8*time.Millisecond
	if r.Usage.CPU <= limit {
		return nil
	}
	return fmt.Errorf("impossible CPU use: %v of CPU time over a %v window is %.0f %% of %d CPU(s) (its clock readings lay up to %v apart); not saved",
		r.Usage.CPU.Round(time.Microsecond), r.Window.Round(time.Microsecond), 100*r.CPUsUsed()/float64(cpus), cpus, r.EdgeSlack.Round(time.Microsecond))
}

// Throughput is the number of operations completed per second of window.
func (r Result) Throughput() float64 {
	if r.Window <= 0 {
		return 0
	}
	return float64(r.Ops) / r.Window.Seconds()
}

// CPUsUsed is the process's CPU time over the window: 1.5 means one and a
// half CPUs were busy on average.
func (r Result) CPUsUsed() float64 {
	if r.Window <= 0 {
		return 0
	}
	return r.Usage.CPU.Seconds() / r.Window.Seconds()
}
