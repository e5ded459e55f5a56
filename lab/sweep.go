package lab

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/measure/host"
	"github.com/brewput/brewput/measure/quiet"
	"github.com/brewput/brewput/measure/record"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/results"
)

// Check is what a lab's Run checks before any work: c, then the CPU
// counts. Sweep calls it; a Run that prepares something first, too.
func Check(c Validator, cpus []int) error {
	if err := c.Validate(); err != nil {
		return err
	}
	return host.CheckCPUs(cpus)
}

// Add hands Sweep one point measured, with the intervals its line of
// progress tells (results.LabPoint; its Point is p).
type Add func(p results.Point, told results.LabPoint)

// Sweep is the frame of a lab's Run over CPU counts: it checks c and
// cpus, then for each count n sets GOMAXPROCS to n and calls at, which
// measures the points at n and hands each to add, which gives it this
// Host and judges it disturbed or not. A count with a disturbed point is
// measured again as WithRetry says; the points kept go to WithPoints'
// function, if any. Sweep returns every point kept, with the first error.
func Sweep(ctx context.Context, c Validator, cpus []int, progress func(results.LabEvent), at func(n int, add Add) error) ([]results.Point, error) {
	if err := Check(c, cpus); err != nil {
		return nil, err
	}
	progress = Tell(progress)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	h := host.Detect()
	points := []results.Point{}
	var addErr error
	hand, _ := ctx.Value(pointsKey{}).(func(results.Point) error)
	rt, _ := ctx.Value(retryKey{}).(sweep.Retry)
	var round []results.Point
	add := func(p results.Point, told results.LabPoint) {
		p.Host = h
		p.Disturbed = p.IsDisturbed()
		if err := p.Check(); err != nil {
			addErr = cmp.Or(addErr, err)
			return
		}
		round = append(round, p)
		told.Point = p
		progress(results.LabEvent{Measured: &told})
	}
	keep := func(kept []results.Point, attempts int) {
		for _, p := range kept {
			if rt.Attempts > 1 {
				p.Attempts = attempts
			}
			if hand != nil {
				if err := hand(p); err != nil {
					addErr = cmp.Or(addErr, err)
				}
			}
			points = append(points, p)
		}
	}
	for _, n := range cpus {
		if err := ctx.Err(); err != nil {
			return points, err
		}
		runtime.GOMAXPROCS(n)
		// The round with the fewest disturbed points is kept.
		var best []results.Point
		bestBad, attempt := -1, 0
		for {
			attempt++
			round = nil
			err := at(n, add)
			if err != nil || addErr != nil {
				if best == nil {
					best = round
				}
				keep(best, attempt)
				return points, cmp.Or(err, addErr)
			}
			bad := collect.Count(round, func(p results.Point) bool { return p.Disturbed })
			if bestBad < 0 || bad < bestBad {
				best, bestBad = round, bad
			}
			if bad == 0 || attempt >= rt.Attempts || ctx.Err() != nil {
				break
			}
			below := float64(max(h.Cores-n, 0)) + results.DisturbedCPUs
			others, waited, err := quiet.Wait(ctx, rt.Wait, 200*time.Millisecond, below)
			if err != nil {
				break
			}
			progress(results.LabEvent{Again: &results.LabAgain{Disturbed: bad, Of: len(round), CPUs: n, Waited: waited,
				Busy: others >= below, Others: others, Attempt: attempt + 1, Attempts: rt.Attempts}})
		}
		keep(best, attempt)
		if addErr != nil {
			return points, addErr
		}
	}
	return points, nil
}

type retryKey struct{}

// WithRetry returns a context under which Sweep measures a CPU count again
// while a point of it is disturbed: up to rt.Attempts rounds in all, each
// after waiting at most rt.Wait for a quiet machine.
func WithRetry(ctx context.Context, rt sweep.Retry) context.Context {
	return context.WithValue(ctx, retryKey{}, rt)
}

// Tell is progress, or where it is nil a function that tells no one.
func Tell(progress func(results.LabEvent)) func(results.LabEvent) {
	if progress == nil {
		return func(results.LabEvent) {}
	}
	return progress
}

type pointsKey struct{}

// WithPoints returns a context under which Sweep hands each point kept to
// f, for a journal to hold however the run ends.
func WithPoints(ctx context.Context, f func(results.Point) error) context.Context {
	return context.WithValue(ctx, pointsKey{}, f)
}

// RunEach runs each lab in turn on cpus, keeping what was measured when
// one fails or is interrupted, with that error.
func RunEach(ctx context.Context, labs []Lab, cpus []int, progress func(results.LabEvent)) ([]results.Point, error) {
	var points []results.Point
	for _, l := range labs {
		got, err := l.Run(ctx, cpus, progress)
		points = append(points, got...)
		if err != nil {
			return points, err
		}
	}
	return points, nil
}

// Profiled runs l one CPU count at a time, each under a profile session
// whose files are DIR/NAME-Ncpu.*; the block profile's waits and the
// files' path go into each of the count's points. Without a dir, Profiled
// is l.Run.
func Profiled(ctx context.Context, l Lab, cpus []int, dir string, progress func(results.LabEvent)) ([]results.Point, error) {
	if dir == "" {
		return l.Run(ctx, cpus, progress)
	}
	progress = Tell(progress)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var points []results.Point
	for _, n := range cpus {
		base := filepath.Join(dir, fmt.Sprintf("%s-%dcpu", l.Info().Name, n))
		session, err := record.Start(base)
		if err != nil {
			return points, err
		}
		got, runErr := l.Run(ctx, []int{n}, progress)
		if runErr != nil {
			session.Abort()
			return append(points, got...), runErr
		}
		files, err := session.Stop()
		if err != nil {
			return append(points, got...), err
		}
		waits, err := record.SummarizeFile(files.Block, 0, record.Options{})
		if err != nil {
			return append(points, got...), err
		}
		for i := range got {
			got[i].Waits, got[i].Profile = waits, base
		}
		points = append(points, got...)
		progress(results.LabEvent{Profiled: &results.LabProfiled{CPUs: n, Base: base}})
	}
	return points, nil
}
