// Package quiet answers whether the machine was left to this process: how
// much CPU other processes and the hypervisor took while it measured
// (Split), and waiting until they take little (Wait).
package quiet

import (
	"context"
	"time"
)

// Sample is a reading of the machine's CPU accounting at one instant.
type Sample struct {
	at time.Time
	counters
	valid bool
}

// counters are what readCPU reads.
type counters struct {
	busy  time.Duration // CPU time all processes and the hypervisor used, summed over CPUs
	steal time.Duration // of which the hypervisor gave to other machines
	self  time.Duration // CPU time this process and its waited-for children used
	cpus  int           // the machine's CPUs
}

// Take reads the machine's CPU accounting now; where the system does not
// expose it (not Linux), the sample is invalid and Others reports 0.
func Take() Sample {
	t0 := time.Now()
	c, ok := readCPU()
	// The readings fell somewhere between t0 and now.
	return Sample{at: t0.Add(time.Since(t0) / 2), counters: c, valid: ok}
}

// Others returns how many CPUs' worth of time other processes and the
// hypervisor took between two samples: 0.5 is half a CPU. The kernel
// counts 10 ms ticks, so over a few hundred milliseconds it is good to a
// tenth of a CPU.
func Others(before, after Sample) float64 {
	others, steal := Split(before, after)
	return others + steal
}

// Split is Others in its two parts, other processes' and the time the
// hypervisor gave to other machines (steal), each clamped to between 0 and
// the machine's CPUs (a tick more or less can read as more).
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

// Wait probes, probe at a time, until others take less than below CPUs
// or wait has passed, and returns the last probe's reading and how long it
// waited; early, with ctx's error, if ctx ends.
func Wait(ctx context.Context, wait, probe time.Duration, below float64) (others float64, waited time.Duration, err error) {
	start := time.Now()
	for {
		before := Take()
		select {
		case <-ctx.Done():
			return 0, time.Since(start), ctx.Err()
		case <-time.After(probe):
		}
		others = Since(before)
		if others < below || time.Since(start) >= wait {
			return others, time.Since(start), nil
		}
	}
}
