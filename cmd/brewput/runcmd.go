package main

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/brewput/brewput/causal"
	"github.com/brewput/brewput/internal/atomicfile"
	"github.com/brewput/brewput/results"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func newRunCmd(e *env) *cobra.Command {
	sf := &studyFlags{}
	var format, out string
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
with its full latency histogram, to re-render (brewput report), merge and
compare (brewput compare) later. --count N measures the whole study N times
over, so that compare can tell a real change from noise; --format bench
writes Go benchmark lines that benchstat reads.

--profile DIR traces and profiles each point's measured window into DIR,
named by mode and CPU count (with -rep2 and so on under --count):
finelocking-2cpu.trace, .cpu.pprof, .block.pprof and .mutex.pprof. Each
point then says where its goroutines waited, from the block profile: which
lock or channel, how often, how long in total and per latte (in JSON, its
"waits"; in the report of the main job, each mode's section). Open the
files with
  go tool trace DIR/finelocking-2cpu.trace
  go tool pprof -top DIR/finelocking-2cpu.block.pprof
Profiling costs some throughput: compare points measured the same way.

Ctrl-C stops measuring, writes the points already measured and exits 130.`,
		Example: `  brewput run --modes ideal,locking,multi-2 --cpus 1,2 --dur 2s
  brewput run --modes finelocking --cpus 2 --rate 800 --maxq 10
  brewput run --modes linearpipe-0,linearpipe-1 --jitter 1ms --format json --out pipes.json
  brewput run --modes finelocking --count 6 --format bench --out old.bench
  brewput run --modes finelocking,linearpipe-0 --cpus 2 --profile prof --format json`,
		Args: unknownArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, err := sf.plan(cmd.Flags(), runtime.NumCPU())
			if err != nil {
				return err
			}
			f, dest, err := outputOf(cmd.Flags(), format, out)
			if err != nil {
				return err
			}
			points, runErr := e.measure(cmd.Context(), st)
			if err := emit(e, f, dest, points); err != nil {
				return failure{err}
			}
			return measureError(runErr, len(points), st.Total())
		},
	}
	sf.register(cmd.Flags(), defaultStudy())
	cmd.Flags().StringVar(&format, "format", "table", "output format: "+strings.Join(results.Formats(), ", ")+" (with --out, guessed from its extension)")
	cmd.Flags().StringVar(&out, "out", "", "write the results to this file (the table still goes to stdout)")
	return cmd
}

// outputOf checks run's --format and --out. A file given without a format
// takes the one its extension names, or JSON, which can be read back.
func outputOf(fs *pflag.FlagSet, format, out string) (results.Format, *atomicfile.File, error) {
	f, err := results.ParseFormat(format)
	if err != nil {
		return f, nil, fmt.Errorf("--format: %w", err)
	}
	if out == "" {
		return f, nil, nil
	}
	if !fs.Changed("format") {
		f = results.JSON
		if guess, ok := results.FormatForFile(out); ok {
			f = guess
		}
	}
	dest, err := atomicfile.Create(out)
	if err != nil {
		return f, nil, fmt.Errorf("--out %s: %w", out, err)
	}
	return f, dest, nil
}

// emit writes the results: format f to stdout, or, with a file, the file
// in format f and the table to stdout.
//
// Every point of the shop without a causal profile gets one first, under
// the fifo policy (causal.Annotate).
func emit(e *env, f results.Format, dest *atomicfile.File, points []results.Point) error {
	if err := causal.Annotate(points, causal.Fifo()); err != nil {
		return err
	}
	if dest == nil {
		if len(points) == 0 {
			return nil
		}
		return results.Write(e.stdout, f, points)
	}
	if len(points) == 0 {
		dest.Discard()
		return nil
	}
	if err := results.Write(dest, f, points); err != nil {
		dest.Discard()
		return fmt.Errorf("write %s: %w", dest.Path(), err)
	}
	if err := dest.Commit(); err != nil {
		return fmt.Errorf("write %s: %w", dest.Path(), err)
	}
	fmt.Fprintf(e.stderr, "wrote %s to %s\n", plural(len(points), "point"), dest.Path())
	return results.WriteTable(e.stdout, points)
}

// plural writes a count with its noun: "1 point", "12 points".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
