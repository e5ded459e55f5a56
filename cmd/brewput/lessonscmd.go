package main

import (
	"context"
	"fmt"
	"io/fs"
	"runtime"
	"strings"
	"time"

	"github.com/brewput/brewput/internal/exitcode"
	"github.com/brewput/brewput/lessons"
	"github.com/spf13/cobra"
)

func newLessonsCmd(e *env) *cobra.Command {
	var quick bool
	var only, format, out string
	cmd := &cobra.Command{
		Use:   "lessons [--quick] [--only NAME,...] [--format table|json] [--out FILE]",
		Short: "Measure the seeds' claims on this machine, each with a verdict: reproduced, not reproduced or inconclusive",
		Long: `lessons measures the claims of the talks and articles brewput was built from
(the coffee shop talk, the workloads article, the channels article, the
profiling talk, the journal of posts on streams, actors and synchronized
writes) on this machine, and gives each a verdict with its figures.

Each claim is sampled repeatedly -- the shop through child processes pinned
to their CPUs, the labs with small configurations, the model where the
claim needs more CPUs than the machine has -- and its figure is the median
of the samples with its 95 % confidence interval (benchmath, as brewput
compare uses). The verdict is reproduced when the whole interval lies on
the claim's side of its threshold, not reproduced when it lies wholly on
the other side, and inconclusive when it straddles the threshold (the row
says about how many more samples would tell) or when there were too few
samples. A sample taken while other processes took more than 0.3 CPUs is
discarded and taken again as time allows; a claim left with too few quiet
samples is inconclusive and says it was disturbed. The model's claims are
deterministic (fifo policy) and marked "model".

--quick gives every claim a verdict in about a minute on 2 cores (6 samples
each); the full run takes up to 10 minutes (10 samples each, up to 20 while
a claim is inconclusive). Each row names the claim, its seed file, the
claim in one line, the seed's own figure, brewput's figure with its
interval, the claim's threshold, the CPU counts and how busy the machine
was. --format json writes one JSON object per claim (JSON Lines), each as
soon as its verdict is reached, so that Ctrl-C keeps every verdict reached
(brewput report reads the file beside results files).`,
		Example: `  brewput lessons --quick
  brewput lessons --only talk,workloads/find-1cpu
  brewput lessons --format json --out lessons.json
  brewput report lessons.json brewput-report/results.json`,
		Args: unknownArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if format != "table" && format != "json" {
				return fmt.Errorf("--format: unknown format %q; accepted: table, json", format)
			}
			claims, err := lessons.Select(lessons.Claims(runtime.NumCPU()), splitList(only))
			if err != nil {
				return fmt.Errorf("--only: %w", err)
			}
			w, err := lessons.NewOutput(e.stdout, e.stderr, out, format == "json")
			if err != nil {
				return fmt.Errorf("--out %s: %w", out, err)
			}
			level := lessons.Full
			if quick {
				level = lessons.Quick
			}
			rs, runErr := e.runLessons(cmd.Context(), claims, level, func(r lessons.Result) error {
				err := w.Emit(r)
				if _, ok := err.(*fs.PathError); ok { // the file could not be created
					err = fmt.Errorf("--out: %w", err)
				}
				if err != nil {
					return failure{Err: err}
				}
				return nil
			})
			if err := w.Finish(rs); err != nil {
				return failure{Err: err}
			}
			return exitcode.Ended(runErr, len(rs), len(claims), "claims", "the verdicts reached")
		},
	}
	cmd.Flags().BoolVar(&quick, "quick", false, "a verdict for every claim in about a minute on 2 cores (6 samples each, small configurations)")
	cmd.Flags().StringVar(&only, "only", "", "measure only these claims or groups, comma-separated (talk, workloads, channels, profiling, journal, or a claim such as talk/ideal-scales)")
	cmd.Flags().StringVar(&format, "format", "table", "output format: table, or json (JSON Lines, a line per claim as its verdict is reached)")
	cmd.Flags().StringVar(&out, "out", "", "write the verdicts to FILE instead of stdout")
	return cmd
}

// splitList splits a comma-separated flag value, "" giving none.
func splitList(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// runLessons measures claims at level, the shop's points in child
// processes pinned to their CPUs as a sweep does, saying on stderr what it
// measures and each verdict as it is reached (lessons.RunTelling), and
// calling emit with it.
func (e *env) runLessons(ctx context.Context, claims []lessons.Claim, level lessons.Level, emit func(lessons.Result) error) ([]lessons.Result, error) {
	runner, err := e.runner()
	if err != nil {
		return nil, err
	}
	opt := lessons.Options{Level: level, Shop: runner.Run}
	if e.lessonsTiny {
		opt.Level, opt.Samples, opt.Budget = lessons.Tiny, 1, 10*time.Second
	}
	return lessons.RunTelling(ctx, claims, opt, e.stderr, emit)
}

// mainLessons is the main job's --lessons: every claim, quick, after the
// study; the verdicts go into the report (and its lessons.json).
func (e *env) mainLessons(ctx context.Context) ([]lessons.Result, error) {
	claims := lessons.Claims(runtime.NumCPU())
	rs, err := e.runLessons(ctx, claims, lessons.Quick, func(lessons.Result) error { return nil })
	fmt.Fprintln(e.stderr, lessons.Tally(rs))
	return rs, exitcode.Ended(err, len(rs), len(claims), "claims", "the verdicts reached")
}
