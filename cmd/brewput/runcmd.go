package main

import (
	"fmt"
	"runtime"
	"slices"
	"strings"

	"github.com/brewput/brewput/internal/exitcode"
	"github.com/brewput/brewput/internal/outfile"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/sweep"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func newRunCmd(e *env) *cobra.Command {
	sf := &studyFlags{}
	var format, outFile, resume string
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

--out FILE gets each point as soon as it is measured, flushed to the disk
(a journal, JSON Lines whose first line is the run's plan), so that a run
stopped any way at all — Ctrl-C, a closed terminal, a kill, running out of
memory — leaves every point it finished. A run that finishes writes FILE
in its format whole; a CSV or bench file's journal is FILE.journal beside
it, removed then. brewput run --resume FILE measures what a run cut short
lacks.

A point from which other processes took more than 0.2 CPU beyond the cores
it left free is disturbed: marked * in the table, "disturbed" in JSON and
CSV, hollow on the page. By default (--noisy retry) it is measured again,
up to 3 times, each after waiting up to 5 s for a quiet machine, and the
least disturbed kept; --noisy ok keeps the first.

Ctrl-C (or SIGTERM, or SIGHUP) stops measuring, writes the points already
measured and exits 128 + the signal (130 for Ctrl-C).`,
		Example: `  brewput run --modes ideal,locking,multi-2 --cpus 1,2 --dur 2s
  brewput run --modes finelocking --cpus 2 --rate 800 --maxq 10
  brewput run --modes linearpipe-0,linearpipe-1 --jitter 1ms --format json --out pipes.json
  brewput run --modes finelocking --count 6 --format bench --out old.bench
  brewput run --modes finelocking,linearpipe-0 --cpus 2 --profile prof --format json`,
		Args: unknownArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var st *sweep.Study
			var have []results.Point
			var out *outfile.Sink
			var err error
			if resume != "" {
				st, have, out, err = e.resumeRun(cmd.Flags(), resume, "run")
			} else {
				if st, err = sf.plan(cmd.Flags(), runtime.NumCPU()); err != nil {
					return err
				}
				out, err = outputOf(e, cmd.Flags(), format, outFile, st.Plan("run"))
			}
			if err != nil {
				return err
			}
			out.ProfileEach, out.Resume = true, "brewput run"
			points, runErr := e.measure(cmd.Context(), st, have, out.Add)
			all := append(have, points...)
			if err := out.Finish(all, runErr == nil); err != nil {
				return failure{Err: err}
			}
			return exitcode.Measured(runErr, len(all), st.Total())
		},
	}
	sf.register(cmd.Flags(), defaultStudy())
	cmd.Flags().StringVar(&format, "format", "table", "output format: "+strings.Join(results.Formats(), ", ")+" (with --out, guessed from its extension)")
	cmd.Flags().StringVar(&outFile, "out", "", "write the results to this file, each point as soon as it is measured (the table still goes to stdout)")
	cmd.Flags().StringVar(&resume, "resume", "", "finish the study that a run cut short left in this file (its --out, or the journal beside a CSV or bench file), measuring only the points it lacks")
	return cmd
}

// resumeRun reads the journal a run of command cut short left at path:
// the study it planned, the points it measured and where its results go.
// The study comes from the journal, so that flags saying what to measure
// are refused.
func (e *env) resumeRun(fs *pflag.FlagSet, path, command string) (*sweep.Study, []results.Point, *outfile.Sink, error) {
	if err := refuseGiven(fs, path); err != nil {
		return nil, nil, nil, err
	}
	o, f, err := outfile.Resume(path)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("--resume: %w", err)
	}
	st, err := sweep.StudyOf(f.Plan, command)
	if err != nil {
		o.Close()
		return nil, nil, nil, fmt.Errorf("--resume %s: %w", path, err)
	}
	return st, f.Points, e.sink(o.Format, o), nil
}

// refuseGiven refuses, for --resume path, every flag given but --resume
// and keep: the journal says what to measure and where.
func refuseGiven(fs *pflag.FlagSet, path string, keep ...string) error {
	var given []string
	fs.Visit(func(f *pflag.Flag) {
		if f.Name != "resume" && !slices.Contains(keep, f.Name) {
			given = append(given, "--"+f.Name)
		}
	})
	if len(given) > 0 {
		return fmt.Errorf("--resume %s: the journal says what to measure and where; drop %s", path, strings.Join(given, ", "))
	}
	return nil
}
