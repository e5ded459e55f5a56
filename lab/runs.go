package lab

import (
	"time"

	"github.com/brewput/brewput/measure/harness"
	"github.com/brewput/brewput/results"
)

// Stopwatch times a stretch of a lab's work: the wall time from its
// Start, and the process's CPU time over it (harness.ProcessCPU), which a
// point's CPUUsed and Util come from.
type Stopwatch struct {
	// Start is when the stretch began.
	Start time.Time
	cpu0  time.Duration
}

// StartStopwatch starts a Stopwatch: it reads the process's CPU time,
// then the clock.
func StartStopwatch() Stopwatch {
	cpu0 := harness.ProcessCPU()
	return Stopwatch{Start: time.Now(), cpu0: cpu0}
}

// Stop returns the wall time since the start, then the process's CPU
// time over it, read in that order.
func (s Stopwatch) Stop() (wall, cpu time.Duration) {
	wall = time.Since(s.Start)
	return wall, harness.ProcessCPU() - s.cpu0
}

// Runs are the timed runs of one variant at one CPU count, as a lab that
// repeats each variant keeps them.
type Runs struct {
	Times []time.Duration // the wall time of each run
	CPU   time.Duration   // CPU time over the runs
	Start time.Time       // when the first began
}

// Add records a run of wall time d that took cpu of CPU time and began at
// start.
func (r *Runs) Add(start time.Time, d, cpu time.Duration) {
	if r.Start.IsZero() {
		r.Start = start
	}
	r.Times = append(r.Times, d)
	r.CPU += cpu
}

// Median is the middle run's time in seconds, the mean of the two middle
// ones for an even count: unlike the mean, one run slowed by the machine
// does not move it. It is the Latency's P50, to the last bit.
func (r Runs) Median() float64 { return r.Latency().P50 / 1000 }

// Latency is the distribution of the runs' times, in ms.
func (r Runs) Latency() results.Latency { return results.RunLatency(r.Times) }

// CPUsUsed is the CPU time over the runs' wall time, in CPUs; 0 without
// runs.
func (r Runs) CPUsUsed() float64 {
	var wall time.Duration
	for _, d := range r.Times {
		wall += d
	}
	if wall <= 0 {
		return 0
	}
	return r.CPU.Seconds() / wall.Seconds()
}
