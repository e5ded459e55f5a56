//go:build !js

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

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

// newPointCmd is the child side of a sweep (sweep.ServeChild), hidden.
func newPointCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:    "point",
		Short:  "Measure one point given as JSON on stdin (used by brewput itself)",
		Hidden: true,
		Args:   unknownArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return failed(sweep.ServeChild(cmd.Context(), e.stdin, e.stdout))
		},
	}
}

// progressAfter is how long a simulation runs before it shows its progress.
const progressAfter = 2 * time.Second

// lateBar is env.progress for stderr w where it is a terminal (a log
// should not depend on the machine's speed): sweep's bar, shown from
// progressAfter on.
func lateBar(w io.Writer) func(*sweep.Batch) (func([]results.Point), func()) {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return func(st *sweep.Batch) (func([]results.Point), func()) { return late(w, st, time.Now(), progressAfter) }
}

// late shows st's progress on w once after has passed since start: done
// takes the points so far, finish clears what was shown.
func late(w io.Writer, st *sweep.Batch, start time.Time, after time.Duration) (done func([]results.Point), finish func()) {
	var bar *sweep.Progress
	done = func(points []results.Point) {
		if bar == nil {
			if time.Since(start) < after {
				return
			}
			bar = sweep.NewBar(w, *st)
		}
		bar.Done(points)
	}
	finish = func() {
		if bar != nil {
			bar.Finish(nil)
		}
	}
	return done, finish
}
