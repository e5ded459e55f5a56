package driver

import (
	"context"
	"fmt"
	"io/fs"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/brewput/brewput/internal/base/cliflag"
	"github.com/brewput/brewput/internal/base/exitcode"
	"github.com/brewput/brewput/lab/lessons"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results/lesson"
)

func newLessonsCmd(e *env) *cobra.Command {
	var quick bool
	var only, format, out string
	var quietWait time.Duration
	cmd := &cobra.Command{
		Use:   "lessons [--quick] [--only NAME,...] [--out FILE]",
		Short: "Measure the seeds' claims on this machine: reproduced or not",
		Args:  unknownArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if quietWait < 0 || quietWait > maxQuietWait {
				return fmt.Errorf("--quiet-wait %v: want 0 (no wait) to %v, such as 30s", quietWait, maxQuietWait)
			}
			var names []string // none: every claim
			if strings.TrimSpace(only) != "" {
				names = strings.Split(only, ",")
			}
			claims, err := lessons.Select(lessons.Claims(runtime.NumCPU()), names)
			if err != nil {
				return fmt.Errorf("--only: %w", err)
			}
			w, err := lessons.NewOutput(e.stdout, e.stderr, out, format == "json", text.LessonWords{})
			if err != nil {
				return fmt.Errorf("--out %s: %w", out, err)
			}
			level := lessons.Full
			if quick {
				level = lessons.Quick
			}
			rs, runErr := e.runLessons(cmd.Context(), claims, level, quietWait, func(r lesson.Result) error {
				err := w.Emit(r)
				if _, ok := err.(*fs.PathError); ok { // the file could not be created
					err = fmt.Errorf("--out: %w", err)
				}
				return failed(err)
			})
			if err := w.Finish(rs); err != nil {
				return failure{Err: err}
			}
			return exitcode.Ended(runErr, len(rs), len(claims), "claims", "the verdicts reached")
		},
	}
	cmd.Flags().BoolVar(&quick, "quick", false, "a verdict for every claim in about a minute\n(on 2 cores; 6 samples each, up to 10 while inconclusive; small configurations)")
	cmd.Flags().StringVar(&only, "only", "", "measure only these claims or groups,\ncomma-separated (talk, workloads, channels, profiling, journal, or a claim such as talk/ideal-scales)")
	formatVar(cmd.Flags(), &format, "\n(JSON Lines, a line per claim as its verdict is reached)")
	cmd.Flags().StringVar(&out, "out", "", "write the verdicts to FILE instead of stdout")
	cmd.Flags().Var((*cliflag.Duration)(&quietWait), "quiet-wait", "longest a claim waits for a quiet machine\n(in all, for other processes to leave its CPUs free after a sample they disturbed; the run takes that much longer at most per claim)")
	return cmd
}

// maxQuietWait is the longest --quiet-wait: a claim's wait for quiet.
const maxQuietWait = time.Hour

// runLessons measures claims at level, telling each verdict on stderr and
// to emit as it is reached.
func (e *env) runLessons(ctx context.Context, claims []lessons.Claim, level lessons.Level, quietWait time.Duration, emit func(lesson.Result) error) ([]lesson.Result, error) {
	runner, err := e.runner()
	if err != nil {
		return nil, err
	}
	opt := lessons.Options{Level: level, Shop: runner.Run, QuietWait: quietWait}
	if e.lessonsTiny {
		opt.Level, opt.Samples, opt.Budget = lessons.Tiny, 1, 10*time.Second
	}
	return lessons.RunTelling(ctx, claims, opt, text.LessonsLog{W: e.stderr}, emit)
}

// mainLessons is the main job's --lessons: every claim, quick.
func (e *env) mainLessons(ctx context.Context) ([]lesson.Result, error) {
	claims := lessons.Claims(runtime.NumCPU())
	rs, err := e.runLessons(ctx, claims, lessons.Quick, 0, func(lesson.Result) error { return nil })
	fmt.Fprintln(e.stderr, text.LessonTally(rs))
	return rs, exitcode.Ended(err, len(rs), len(claims), "claims", "the verdicts reached")
}
