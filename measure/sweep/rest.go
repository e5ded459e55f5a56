//go:build !js

package sweep

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/brewput/brewput/internal/exitcode"
	"github.com/brewput/brewput/internal/quiet"
	"github.com/brewput/brewput/results"
)

// MeasureRest measures what a study's journal points (have, of a run cut
// short) lack, with r, in rounds when st.Count asks for repetitions
// (round-robin keeps a slow spell of the machine from landing on one
// configuration), telling log its progress, and hands each point to add
// as soon as it is measured. It returns the points it measured, also when
// it stops early on an error or an interruption. A disturbed point is
// measured again as st.Retry says (Quietly), and log says so. With
// st.Profile it makes the folder first. A folder that cannot be made, and
// an error from add, are an exitcode.Failure.
func (r Runner) MeasureRest(ctx context.Context, st *Batch, have []results.Point, log io.Writer, add func(*results.Point) error) ([]results.Point, error) {
	if st.Profile != "" {
		if err := os.MkdirAll(st.Profile, 0o755); err != nil {
			return nil, exitcode.Failure{Err: fmt.Errorf("--profile: create %s: %w", st.Profile, err)}
		}
	}
	tasks := st.Remaining(have)
	prog := NewProgress(log, *st, len(st.Tasks())-len(tasks))
	retried := func(p results.Point, attempt int, waited time.Duration, quiet bool) {
		state := "quiet"
		if !quiet {
			state = "still busy"
		}
		fmt.Fprintf(log, "%s cpus=%d: disturbed (%s): measuring again after waiting %v for a quiet machine (%s), attempt %d of %d\n",
			p.Mode, p.CPUs, p.Interference(), waited.Round(100*time.Millisecond), state, attempt+1, st.Retry.Attempts)
	}
	var points []results.Point
	defer func() { prog.Finish(points) }()
	for _, t := range tasks {
		prog.Start(t.Spec, t.Rep)
		s := t.Spec
		s.Profile = st.ProfileBase(s, t.Rep)
		p, err := Quietly(ctx, st.Retry, func(ctx context.Context) (results.Point, error) { return r.Run(ctx, s) }, retried)
		if err != nil {
			return points, err
		}
		if st.Count > 1 {
			p.Rep = t.Rep
		}
		points = append(points, p)
		if err := add(&points[len(points)-1]); err != nil {
			return points, exitcode.Failure{Err: err}
		}
		prog.Done(points)
	}
	return points, nil
}

// Quietly takes a measurement with measure, and again as rt says while
// it is disturbed (results.Point.IsDisturbed), and returns the least
// disturbed one, with its Attempts where rt allows more than one. tell,
// when not nil, is called before each new attempt with the disturbed
// point, its attempt, how long Quietly waited for a quiet machine and
// whether it became quiet. A measurement's error, or the context's while
// waiting, ends it.
func Quietly(ctx context.Context, rt Retry, measure func(context.Context) (results.Point, error), tell func(p results.Point, attempt int, waited time.Duration, quiet bool)) (results.Point, error) {
	var best results.Point
	for attempt := 1; ; attempt++ {
		p, err := measure(ctx)
		if err != nil {
			return results.Point{}, err
		}
		p.Disturbed = p.IsDisturbed()
		if attempt == 1 || interference(p) < interference(best) {
			best = p
		}
		if rt.Attempts > 1 {
			best.Attempts = attempt
		}
		if !p.Disturbed || attempt >= rt.Attempts {
			return best, nil
		}
		// Quiet is others and the hypervisor taking no more than
		// results.DisturbedCPUs beyond the cores p left them.
		below := float64(max(p.Host.Cores-p.CPUs, 0)) + results.DisturbedCPUs
		others, waited, err := quiet.Wait(ctx, rt.Wait, 200*time.Millisecond, below)
		if err != nil {
			return best, err
		}
		if tell != nil {
			tell(p, attempt, waited, others < below)
		}
	}
}

// interference is how much CPU others and the hypervisor took from p.
func interference(p results.Point) float64 { return p.OthersCPUs + p.StealCPUs }
