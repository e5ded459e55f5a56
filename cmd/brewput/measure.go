package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/sweep"
)

// measure measures what the study's journal points (have, of a run cut
// short) lack, one point at a time, each in a child process, in rounds
// when --count asks for repetitions (round-robin keeps a slow spell of the
// machine from landing on one configuration), and hands each point to add
// as soon as it is measured. It returns the points it measured, also when
// it stops early on an error or an interruption. A disturbed point is
// measured again as st.Retry says, and stderr says so. With --profile it
// makes the folder first, and says at the end where the profiles went.
func (e *env) measure(ctx context.Context, st *sweep.Study, have []results.Point, add func(*results.Point) error) ([]results.Point, error) {
	runner, err := e.runner()
	if err != nil {
		return nil, err
	}
	if st.Profile != "" {
		if err := os.MkdirAll(st.Profile, 0o755); err != nil {
			return nil, failure{Err: fmt.Errorf("--profile: create %s: %w", st.Profile, err)}
		}
	}
	tasks := st.Remaining(have)
	prog := sweep.NewProgress(e.stderr, *st, len(st.Tasks())-len(tasks))
	points, err := runner.Measure(ctx, *st, tasks, sweep.Hooks{
		Start: prog.Start,
		Retry: func(p results.Point, attempt int, waited time.Duration, quiet bool) {
			state := "quiet"
			if !quiet {
				state = "still busy"
			}
			fmt.Fprintf(e.stderr, "%s cpus=%d: disturbed (%s): measuring again after waiting %v for a quiet machine (%s), attempt %d of %d\n",
				p.Mode, p.CPUs, p.Interference(), waited.Round(100*time.Millisecond), state, attempt+1, st.Retry.Attempts)
		},
		Done: func(points []results.Point) error {
			if err := add(&points[len(points)-1]); err != nil {
				return failure{Err: err}
			}
			prog.Done(points)
			return nil
		},
	})
	prog.Finish(points)
	return points, err
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
