//go:build !js

package main

import (
	"context"
	"fmt"
	"os"

	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/results"
)

// measure measures what the points have of a run cut short lack of st, in
// child processes (sweep.Runner.MeasureRest).
func (e *env) measure(ctx context.Context, st *sweep.Batch, have []results.Point, add func(*results.Point) error) ([]results.Point, error) {
	runner, err := e.runner()
	if err != nil {
		return nil, err
	}
	return runner.MeasureRest(ctx, st, have, e.stderr, add)
}

// runner returns the Runner that measures each point in a child process.
func (e *env) runner() (sweep.Runner, error) {
	if e.child.path != "" {
		return sweep.Runner{Path: e.child.path, Args: e.child.args, Env: e.child.env}, nil
	}
	self, err := os.Executable()
	if err != nil {
		return sweep.Runner{}, failure{Err: fmt.Errorf("find brewput's own executable to measure in a child process: %w", err)}
	}
	return sweep.Runner{Path: self, Args: []string{"point"}}, nil
}
