package lab

import (
	"cmp"
	"context"
	"runtime"

	"github.com/brewput/brewput/internal/host"
	"github.com/brewput/brewput/internal/quiet"
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
// add with its line of progress. Each point gets this machine as its
// Host, and the CPU other processes and the hypervisor took while it was
// measured (since the point before it, or the count's start), which marks
// it disturbed where that is more than results.DisturbedCPUs beyond the
// cores it left free; a point that is impossible (results.Point.Check)
// is refused. Each point then goes to the function ctx carries
// (WithPoints), if any: a journal, say. GOMAXPROCS is restored at the
// end. progress may be nil.
//
// Sweep returns every point added, also when at fails or ctx is done
// before a CPU count, with that error, or the first error of a refused
// point or of ctx's function.
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
	var last quiet.Sample
	var addErr error
	hand, _ := ctx.Value(pointsKey{}).(func(results.Point) error)
	add := func(p results.Point, line string) {
		now := quiet.Take()
		p.OthersCPUs, p.StealCPUs = quiet.Split(last, now)
		last = now
		p.Host = h
		p.Disturbed = p.IsDisturbed()
		if err := p.Check(); err != nil {
			addErr = cmp.Or(addErr, err)
			return
		}
		if hand != nil {
			if err := hand(p); err != nil {
				addErr = cmp.Or(addErr, err)
			}
		}
		points = append(points, p)
		if line != "" {
			if p.Disturbed {
				line += " (disturbed: " + p.Interference() + ")"
			}
			progress(line)
		}
	}
	for _, n := range cpus {
		if err := ctx.Err(); err != nil {
			return points, err
		}
		runtime.GOMAXPROCS(n)
		last = quiet.Take()
		if err := at(n, add); err != nil {
			return points, err
		}
		if addErr != nil {
			return points, addErr
		}
	}
	return points, nil
}

// pointsKey is the key of WithPoints's function in a context.
type pointsKey struct{}

// WithPoints returns a context under which a lab's Run (through Sweep)
// hands each point to f as soon as it is measured, so that a journal
// holds it however the run ends; f's error is Run's.
func WithPoints(ctx context.Context, f func(results.Point) error) context.Context {
	return context.WithValue(ctx, pointsKey{}, f)
}
