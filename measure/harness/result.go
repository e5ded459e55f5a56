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

	// Drops is the number of open-loop arrivals inside the window that found
	// the queue full. Always zero in a closed loop.
	Drops int64

	// Window is the length of the measured window, as it really fell: from
	// when the run reached the end of the warm-up to when it reached the
	// end of the window, which on a busy machine can each be late, so that
	// it is about, not exactly, the Dur asked for.
	Window time.Duration

	// Latency holds every counted operation's latency in nanoseconds: the
	// call's duration in a closed loop, the time from intended arrival to
	// completion in an open loop.
	Latency *hdrhistogram.Histogram

	// Service holds, for an open loop, each counted operation's time from the
	// start of its service to its completion, in nanoseconds; nil for a
	// closed loop, where it would equal Latency.
	Service *hdrhistogram.Histogram

	// CPU is the user+system CPU time the whole process used over CPUWall,
	// the span over which it was read: the window itself.
	CPU, CPUWall time.Duration

	// EdgeSlack is how far apart, at the worse of the window's two edges,
	// the wall clock's readings around the reading of the CPU time lay:
	// the most by which the CPU time's interval and the window's can
	// differ at each end. It is a few microseconds unless the reading
	// goroutine could not get a CPU for long (see CheckCPU).
	EdgeSlack time.Duration
}

// CheckCPU refuses a result whose CPU time is more than cpus CPUs could
// have used over its window, the sign of readings that did not cover one
// interval: it says what was read. Up to tolerance (2 %, and two kernel
// ticks of 4 ms for each CPU: the kernel brings a running thread's CPU
// time up to date only at its ticks and switches) the excess is the
// accounting's and is not refused.
func (r Result) CheckCPU(cpus int) error {
	if r.CPUWall <= 0 || cpus < 1 {
		return nil
	}
	limit := time.Duration(float64(cpus)*float64(r.CPUWall)*1.02) + time.Duration(cpus)*8*time.Millisecond
	if r.CPU <= limit {
		return nil
	}
	return fmt.Errorf("impossible CPU use: %v of CPU time over a %v window is %.0f %% of %d CPU(s) (its clock readings lay up to %v apart); not saved",
		r.CPU.Round(time.Microsecond), r.CPUWall.Round(time.Microsecond), 100*r.CPUsUsed()/float64(cpus), cpus, r.EdgeSlack.Round(time.Microsecond))
}

// Throughput is the number of operations completed per second of window.
func (r Result) Throughput() float64 {
	if r.Window <= 0 {
		return 0
	}
	return float64(r.Ops) / r.Window.Seconds()
}

// CPUsUsed is the process's CPU time over wall time: 1.5 means one and a
// half CPUs were busy on average.
func (r Result) CPUsUsed() float64 {
	if r.CPUWall <= 0 {
		return 0
	}
	return r.CPU.Seconds() / r.CPUWall.Seconds()
}
