package lab

import (
	"context"
	"runtime"

	"github.com/brewput/brewput/host"
	"github.com/brewput/brewput/results"
)

// Validator is a lab's configuration, which checks itself.
type Validator interface{ Validate() error }

// Check is what a lab's Run checks before any work: its configuration c,
// then the CPU counts (see host.CheckCPUs). Sweep checks both itself; a
// Run that prepares something first (inputs, a folder) calls Check
// before it.
func Check(c Validator, cpus []int) error {
	if err := c.Validate(); err != nil {
		return err
	}
	return host.CheckCPUs(cpus)
}

// Add hands Sweep one point measured, with its line of progress ("" for
// none, where the lab said what it did as it went).
type Add func(p results.Point, progress string)

// Sweep is the frame of a lab's Run over CPU counts. It checks c and cpus
// (Check); then, for each count n of cpus in turn, it sets GOMAXPROCS to
// n and calls at, which measures the lab's points at n and hands each to
// add with its line of progress; each point gets this machine as its
// Host. GOMAXPROCS is restored at the end. progress may be nil.
//
// Sweep returns every point added, also when at fails or ctx is done
// before a CPU count, with that error.
func Sweep(ctx context.Context, c Validator, cpus []int, progress func(line string), at func(n int, add Add) error) ([]results.Point, error) {
	if err := Check(c, cpus); err != nil {
		return nil, err
	}
	if progress == nil {
		progress = func(string) {}
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	h := host.Detect()
	points := []results.Point{}
	add := func(p results.Point, line string) {
		p.Host = h
		points = append(points, p)
		if line != "" {
			progress(line)
		}
	}
	for _, n := range cpus {
		if err := ctx.Err(); err != nil {
			return points, err
		}
		runtime.GOMAXPROCS(n)
		if err := at(n, add); err != nil {
			return points, err
		}
	}
	return points, nil
}
