// Package quiet tells timing tests whether the machine was left to them:
// how much CPU other processes, and the hypervisor, took while a test
// measured. A structural result that fails on a quiet machine is a bug; one
// that fails while something else ran on the same cores says nothing, and a
// test should measure again rather than fail or pass on it.
package quiet

import (
	"time"
)

// Sample is a reading of the machine's CPU accounting at one instant.
type Sample struct {
	at    time.Time
	busy  time.Duration // CPU time all processes and the hypervisor used, summed over CPUs
	steal time.Duration // of which the hypervisor gave to other machines
	self  time.Duration // CPU time this process and its waited-for children used
	cpus  int           // the machine's CPUs
	valid bool
}

// Take reads the machine's CPU accounting now. Where the system does not
// expose it (anything but Linux), the sample is invalid and [Others]
// reports 0: the test then runs unguarded, as it would without this package.
func Take() Sample {
	t0 := time.Now()
	c, ok := readCPU()
	// The readings fell somewhere between t0 and now.
	at := t0.Add(time.Since(t0) / 2)
	return Sample{at: at, busy: c.busy, steal: c.steal, self: c.self, cpus: c.cpus, valid: ok}
}

// counters are what readCPU reads.
type counters struct {
	busy, steal, self time.Duration
	cpus              int
}

// Others returns how many CPUs' worth of time processes other than this one
// (including time stolen by the hypervisor) used between two samples: 0.5
// means half of one CPU on average. The kernel counts in 10 ms ticks per
// CPU, so over a few hundred milliseconds the figure is good to about a
// tenth of a CPU.
func Others(before, after Sample) float64 {
	others, steal := Split(before, after)
	return others + steal
}

// Split is Others in its two parts: the CPUs' worth of time other
// processes used, and the time the hypervisor gave to other machines
// (steal), which no process of this machine could use. Each lies between
// 0 and the machine's CPUs: the kernel counts in ticks, so that over a
// short interval one tick more or less can read as more CPUs than there
// are, which is clamped.
func Split(before, after Sample) (others, steal float64) {
	if !before.valid || !after.valid {
		return 0, 0
	}
	wall := after.at.Sub(before.at)
	if wall <= 0 {
		return 0, 0
	}
	cpus := float64(max(after.cpus, 1))
	stolen := after.steal - before.steal
	used := (after.busy - before.busy) - stolen - (after.self - before.self)
	clamp := func(d time.Duration) float64 { return min(max(float64(d)/float64(wall), 0), cpus) }
	return clamp(used), clamp(stolen)
}

// Since is Others from before to now.
func Since(before Sample) float64 { return Others(before, Take()) }

// Probe samples for d and returns how many CPUs' worth other processes used
// meanwhile.
func Probe(d time.Duration) float64 {
	before := Take()
	time.Sleep(d)
	return Since(before)
}
