package limits

import (
	"context"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/results"
)

// Simulate simulates cfgs rounds times over, the seed one more each round,
// each point with its causal profile at depth Profiled, all their
// simulations as many at once as there are CPUs (profileEach: a relief
// that is another point of cfgs is that point), handing each point to add as soon as it and those
// before it are simulated, in order. It stops at ctx's end within a few
// milliseconds, returning what it simulated with ctx's error; an error
// from add stops it too and is returned as it is.
func Simulate(ctx context.Context, cfgs []model.Config, rounds int, depth Depth, add func(*results.Point) error) ([]results.Point, error) {
	var ts []target
	for rep := range rounds {
		for _, c := range cfgs {
			c.Seed += uint64(rep)
			c.Cancel = ctx.Done()
			s, err := newShop(c)
			if err != nil {
				return nil, err
			}
			ts = append(ts, s)
		}
	}
	var points []results.Point
	var err error
	profileEach(ts, depth, func(i int, pr *Profile, perr error) bool {
		if ctx.Err() != nil {
			err = ctx.Err()
			return false
		}
		if perr != nil {
			err = perr
			return false
		}
		p := pr.Point()
		if rounds > 1 {
			p.Rep = i/len(cfgs) + 1
		}
		if err = add(&p); err != nil {
			return false
		}
		points = append(points, p)
		return true
	})
	return points, err
}

// SimulateBlueprint simulates b on each CPU count of cpus, rounds times
// over, the seed one more each round, each point with its causal profile
// at depth Profiled, handed to add as soon as it is simulated. It stops at
// ctx's end as Simulate does; a simulation's error is returned after b's
// file name, add's as it is.
func SimulateBlueprint(ctx context.Context, b *blueprint.Blueprint, cpus []int, rounds int, depth Depth, opt blueprint.Options, add func(*results.Point) error) ([]results.Point, error) {
	opt.Cancel = ctx.Done()
	var points []results.Point
	for rep := range rounds {
		for _, n := range cpus {
			o := opt
			o.CPUs, o.Seed = n, opt.Seed+uint64(rep)
			p, err := blueprintAt(b, o, depth)
			if ctx.Err() != nil {
				return points, ctx.Err()
			}
			if err != nil {
				return points, &SimulationError{File: b.File, Err: err}
			}
			if rounds > 1 {
				p.Rep = rep + 1
			}
			if err := add(&p); err != nil {
				return points, err
			}
			points = append(points, p)
		}
	}
	return points, nil
}

// SimulationError is a YAML model's simulation failing in
// SimulateBlueprint, as opposed to the caller's add failing.
type SimulationError struct {
	// File is the YAML model's file.
	File string
	// Err is what failed.
	Err error
}

// Error says the file, then what failed.
func (e *SimulationError) Error() string { return e.File + ": " + e.Err.Error() }

// Unwrap returns what failed.
func (e *SimulationError) Unwrap() error { return e.Err }

// blueprintAt is b's point at opt, with its causal profile at depth
// Profiled.
func blueprintAt(b *blueprint.Blueprint, opt blueprint.Options, depth Depth) (results.Point, error) {
	if depth == PointsOnly {
		if _, err := b.Bounds(opt); err != nil { // as ProfileBlueprint checks them
			return results.Point{}, err
		}
		return blueprintPoint(b, opt)
	}
	prof, err := ProfileBlueprint(b, opt)
	if err != nil {
		return results.Point{}, err
	}
	return prof.Point(), nil
}
