//go:build !js

package sweep

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/brewput/brewput/internal/exitcode"
	"github.com/brewput/brewput/results"
)

// MeasureRest measures what a study's journal points (have, of a run cut
// short) lack, with r, in rounds when st.Count asks for repetitions
// (round-robin keeps a slow spell of the machine from landing on one
// configuration), telling log its progress, and hands each point to add
// as soon as it is measured. It returns the points it measured, also when
// it stops early on an error or an interruption. A disturbed point is
// measured again as st.Retry says, and log says so. With st.Profile it
// makes the folder first. A folder that cannot be made, and an error from
// add, are an exitcode.Failure.
func (r Runner) MeasureRest(ctx context.Context, st *Batch, have []results.Point, log io.Writer, add func(*results.Point) error) ([]results.Point, error) {
	if st.Profile != "" {
		if err := os.MkdirAll(st.Profile, 0o755); err != nil {
			return nil, exitcode.Failure{Err: fmt.Errorf("--profile: create %s: %w", st.Profile, err)}
		}
	}
	tasks := st.Remaining(have)
	prog := NewProgress(log, *st, len(st.Tasks())-len(tasks))
	points, err := r.Measure(ctx, *st, tasks, Hooks{
		Start: prog.Start,
		Retry: func(p results.Point, attempt int, waited time.Duration, quiet bool) {
			state := "quiet"
			if !quiet {
				state = "still busy"
			}
			fmt.Fprintf(log, "%s cpus=%d: disturbed (%s): measuring again after waiting %v for a quiet machine (%s), attempt %d of %d\n",
				p.Mode, p.CPUs, p.Interference(), waited.Round(100*time.Millisecond), state, attempt+1, st.Retry.Attempts)
		},
		Done: func(points []results.Point) error {
			if err := add(&points[len(points)-1]); err != nil {
				return exitcode.Failure{Err: err}
			}
			prog.Done(points)
			return nil
		},
	})
	prog.Finish(points)
	return points, err
}
