package harness

import (
	"fmt"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Result is what one Run measured inside its window.
type Result struct {
	// Ops counts the operations completed inside the window, Errors those
	// that returned an error, Drops the open-loop arrivals in it that
	// found the queue full.
	Ops, Errors, Drops int64
	// Window is the window as it fell: about the Dur asked.
	Window time.Duration
	// Latency holds each counted operation's latency in ns: the call in a
	// closed loop, from intended arrival in an open one; Service, an open
	// loop's alone, from start of service.
	Latency, Service *hdrhistogram.Histogram
	// Usage is the process's over the window.
	Usage Usage
	// EdgeSlack is the most the CPU time's interval and the window can
	// differ at an edge.
	EdgeSlack time.Duration
}

// CheckCPU refuses a result whose CPU time is more than cpus CPUs could
// use over its window: readings that did not cover one interval. It allows
// 2 % and two 4 ms ticks per CPU, as the kernel updates a running thread's
// CPU time only at ticks and switches.
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

// CPUsUsed is the process's CPU time over the window: 1.5 is one and a
// half CPUs busy on average.
func (r Result) CPUsUsed() float64 {
	if r.Window <= 0 {
		return 0
	}
	return r.Usage.CPU.Seconds() / r.Window.Seconds()
}
