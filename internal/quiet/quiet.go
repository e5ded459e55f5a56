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
	self  time.Duration // CPU time this process and its waited-for children used
	valid bool
}

// Take reads the machine's CPU accounting now. Where the system does not
// expose it (anything but Linux), the sample is invalid and [Others]
// reports 0: the test then runs unguarded, as it would without this package.
func Take() Sample {
	busy, self, ok := readCPU()
	return Sample{at: time.Now(), busy: busy, self: self, valid: ok}
}

// Others returns how many CPUs' worth of time processes other than this one
// (including time stolen by the hypervisor) used between two samples: 0.5
// means half of one CPU on average. The kernel counts in 10 ms ticks per
// CPU, so over a few hundred milliseconds the figure is good to about a
// tenth of a CPU.
func Others(before, after Sample) float64 {
	if !before.valid || !after.valid {
		return 0
	}
	wall := after.at.Sub(before.at)
	if wall <= 0 {
		return 0
	}
	others := (after.busy - before.busy) - (after.self - before.self)
	if others < 0 {
		return 0
	}
	return float64(others) / float64(wall)
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
