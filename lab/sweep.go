package lab

import (
	"cmp"
	"context"
	"runtime"

	"github.com/brewput/brewput/internal/host"
	"github.com/brewput/brewput/internal/quiet"
	"github.com/brewput/brewput/results"
)

// Check is what a lab's Run checks before any work: c, then the CPU
// counts. Sweep calls it; a Run that prepares something first calls it
// before.
func Check(c Validator, cpus []int) error {
	if err := c.Validate(); err != nil {
		return err
	}
	return host.CheckCPUs(cpus)
}

// Add hands Sweep one point measured, with its line of progress ("" for
// none, where the lab said what it did as it went).
type Add func(p results.Point, progress string)

// Sweep is the frame of a lab's Run over CPU counts. It checks c and cpus;
// then, for each count n in turn, sets GOMAXPROCS to n (restored at the
// end) and calls at, which measures the points at n and hands each to
// add. Each point gets this machine as its Host and the CPU other
// processes and the hypervisor took since the point before (disturbed
// where too much, see results.Point.IsDisturbed); an impossible point
// (results.Point.Check) is refused; each then goes to the function of
// WithPoints, if ctx carries one. progress may be nil.
//
// Sweep returns every point added, with the error of at or ctx, or the
// first of a refused point or of WithPoints' function.
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

// WithPoints returns a context under which Sweep hands each point to f
// as soon as it is measured, so that a journal holds it however the run
// ends; f's error is Run's.
func WithPoints(ctx context.Context, f func(results.Point) error) context.Context {
	return context.WithValue(ctx, pointsKey{}, f)
}
