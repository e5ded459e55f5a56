package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/sweep"
	"github.com/spf13/cobra"
)

func newRunCmd(e *env) *cobra.Command {
	sf := &studyFlags{}
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Measure modes of the coffee shop over CPU counts and print or save the results",
		Long: `run measures each mode at each CPU count in a child process restricted to that
many CPUs (affinity) with GOMAXPROCS set to match, the way the talk's runs
used taskset. Each point has an uncounted warm-up, then a measured window.

A closed loop (the default) has --par customers, each ordering again as soon
as served. An open loop (--rate or --interval) has orders arriving on a fixed
schedule into a queue of at most --maxq; an arrival that finds it full is
dropped and counted, and latency runs from the order's intended arrival.

The table goes to stdout, progress to stderr. --out FILE saves every point,
with its full latency histogram, to re-read, merge and compare later.`,
		Example: `  brewput run --modes ideal,locking,multi-2 --cpus 1,2 --dur 2s
  brewput run --modes finelocking --cpus 2 --rate 800 --maxq 10
  brewput run --modes linearpipe-0,linearpipe-1 --jitter 1ms --format json --out pipes.json`,
		Args: unknownArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runStudy(cmd, e, sf)
		},
	}
	sf.register(cmd.Flags(), studyDefaults{
		modes:  "ideal,locking,finelocking,parsteam,multi-2,linearpipe-0,linearpipe-1,linearpipe-10,multipipe-2",
		dur:    time.Second,
		warmup: 200 * time.Millisecond,
	})
	return cmd
}

// runStudy measures the planned points one by one, reports progress on
// stderr, and writes what it measured, even when interrupted part way.
func runStudy(cmd *cobra.Command, e *env, sf *studyFlags) error {
	st, err := sf.plan(cmd.Flags())
	if err != nil {
		return err
	}
	runner, err := e.runner()
	if err != nil {
		if st.out != nil {
			st.out.discard()
		}
		return failure{err}
	}
	total := time.Duration(len(st.specs)) * (st.specs[0].Warmup + st.specs[0].Dur)
	fmt.Fprintf(e.stderr, "measuring %s, about %v\n", plural(len(st.specs), "point"), total.Round(100*time.Millisecond))

	var points []results.Point
	var runErr error
	for i, s := range st.specs {
		p, err := runner.Run(cmd.Context(), s)
		if err != nil {
			runErr = err
			break
		}
		points = append(points, p)
		fmt.Fprintf(e.stderr, "[%d/%d] %s cpus=%d: %.1f %s, p50 %.2f ms\n",
			i+1, len(st.specs), p.Mode, p.CPUs, p.Throughput, p.Unit, p.Latency.P50)
	}
	if err := emit(e, st, points); err != nil {
		return failure{err}
	}
	switch {
	case errors.Is(runErr, context.Canceled):
		return failure{fmt.Errorf("interrupted after %d of %d points; kept what was measured", len(points), len(st.specs))}
	case runErr != nil:
		return failure{fmt.Errorf("after %d of %d points: %w", len(points), len(st.specs), runErr)}
	}
	return nil
}

// emit writes the results: the chosen format to stdout, or, with --out, the
// file in its format and the table to stdout.
func emit(e *env, st *study, points []results.Point) error {
	if st.out == nil {
		return results.Write(e.stdout, st.format, points)
	}
	if len(points) == 0 {
		st.out.discard()
		return nil
	}
	if err := results.Write(st.out.tmp, st.format, points); err != nil {
		st.out.discard()
		return fmt.Errorf("write %s: %w", st.out.path, err)
	}
	if err := st.out.commit(); err != nil {
		return fmt.Errorf("write %s: %w", st.out.path, err)
	}
	fmt.Fprintf(e.stderr, "wrote %s to %s\n", plural(len(points), "point"), st.out.path)
	return results.WriteTable(e.stdout, points)
}

// runner returns the Runner that measures each point in a child process.
func (e *env) runner() (sweep.Runner, error) {
	if e.child.path != "" {
		return sweep.Runner{Path: e.child.path, Args: e.child.args, Env: e.child.env}, nil
	}
	self, err := os.Executable()
	if err != nil {
		return sweep.Runner{}, fmt.Errorf("find brewput's own executable to measure in a child process: %w", err)
	}
	return sweep.Runner{Path: self, Args: []string{"point"}}, nil
}

// plural writes a count with its noun: "1 point", "12 points".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
