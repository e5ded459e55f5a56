//go:build !js

package sweep

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/brewput/brewput/internal/base/exitcode"
	"github.com/brewput/brewput/measure/quiet"
	"github.com/brewput/brewput/results"
)

// MeasureRest measures with r what have, the points of a run cut short,
// lack of st, telling log its progress in words, and hands each point to
// add as soon as it is measured. It returns the points measured, also when
// it stops early; a profile folder not made, or add's error, is an
// exitcode.Failure.
func (r Runner[S]) MeasureRest(ctx context.Context, st *Batch[S], have []results.Point, log io.Writer, words Words, add func(*results.Point) error) ([]results.Point, error) {
	if st.Profile != "" {
		if err := os.MkdirAll(st.Profile, 0o755); err != nil {
			return nil, exitcode.Failure{Err: fmt.Errorf("--profile: create %s: %w", st.Profile, err)}
		}
	}
	tasks := st.Remaining(have)
	prog := NewProgress(log, words, *st, len(st.Tasks())-len(tasks))
	retried := func(p results.Point, attempt int, waited time.Duration, quiet bool) {
		prog.Say(words.Remeasure(results.Remeasure{Point: p, Waited: waited, Quiet: quiet, Attempt: attempt + 1, Attempts: st.Retry.Attempts}))
	}
	var points []results.Point
	defer func() { prog.Finish(points) }()
	for _, t := range tasks {
		e := t.Spec.Entry()
		prog.Start(e, t.Rep)
		s := t.Spec.WithProfile(ProfileIn(st.Profile, e.Name, e.Load.CPUs, t.Rep, st.Count))
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

// Quietly measures, again as rt says while the point is disturbed, and
// returns the least disturbed point, with its Attempts where rt allows
// more than one. tell, if not nil, hears of each new attempt.
func Quietly(ctx context.Context, rt Retry, measure func(context.Context) (results.Point, error), tell func(p results.Point, attempt int, waited time.Duration, quiet bool)) (results.Point, error) {
	var best results.Point
	for attempt := 1; ; attempt++ {
		began := time.Now()
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
		if !rt.Until.IsZero() && time.Now().Add(rt.Wait+time.Since(began)).After(rt.Until) {
			return best, nil
		}
		// Quiet: others take at most DisturbedCPUs beyond the cores p left.
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

// interference is how much CPU others and the hypervisor took from p: of
// its own CPUs where they were read apart.
func interference(p results.Point) float64 {
	if on := p.OnCPUs; on != nil {
		return on.OthersCPUs + on.StealCPUs
	}
	return p.OthersCPUs + p.StealCPUs
}
