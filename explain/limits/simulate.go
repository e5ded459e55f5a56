package limits

import (
	"context"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/results"
)

// Simulate simulates cfgs rounds times over, the seed one more each round,
// each point with its causal profile (Predict), parallel points at a time,
// handing each to add as soon as it is simulated, in order. It stops at
// ctx's end within a few milliseconds, returning what it simulated with
// ctx's error; an error from add stops it too and is returned as it is.
func Simulate(ctx context.Context, cfgs []model.Config, rounds, parallel int, add func(*results.Point) error) ([]results.Point, error) {
	var all []model.Config
	for rep := range rounds {
		for _, c := range cfgs {
			c.Seed += uint64(rep)
			c.Cancel = ctx.Done()
			all = append(all, c)
		}
	}
	var points []results.Point
	for start := 0; start < len(all); start += parallel {
		chunk := all[start:min(start+parallel, len(all))]
		got, err := Predict(chunk)
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			if ctx.Err() != nil {
				err = ctx.Err()
			}
			return points, err
		}
		for i := range got {
			if rounds > 1 {
				got[i].Rep = (start+i)/len(cfgs) + 1
			}
			if err := add(&got[i]); err != nil {
				return points, err
			}
			points = append(points, got[i])
		}
	}
	return points, nil
}

// SimulateBlueprint is Sweep as it goes: b on each CPU count of cpus,
// rounds times over, the seed one more each round, each point with its
// causal profile, handed to add as soon as it is simulated. It stops at
// ctx's end as Simulate does; a simulation's error is returned after b's
// file name, add's as it is.
func SimulateBlueprint(ctx context.Context, b *blueprint.Blueprint, cpus []int, rounds int, opt blueprint.Options, add func(*results.Point) error) ([]results.Point, error) {
	opt.Cancel = ctx.Done()
	var points []results.Point
	for rep := range rounds {
		for _, n := range cpus {
			o := opt
			o.CPUs, o.Seed = n, opt.Seed+uint64(rep)
			prof, err := ProfileBlueprint(b, o)
			if ctx.Err() != nil {
				return points, ctx.Err()
			}
			if err != nil {
				return points, &SimulationError{File: b.File, Err: err}
			}
			p := prof.Point()
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
