//go:build !js

package sweep

import (
	"context"
	"time"

	"github.com/brewput/brewput/internal/quiet"
	"github.com/brewput/brewput/results"
)

// Hooks are what Measure tells as it goes; each may be nil.
type Hooks struct {
	// Start is called before each point with its round.
	Start func(s Spec, rep int)
	// Retry is called when a disturbed measurement, the attempt-th, is
	// about to be taken again, after waiting waited for a quiet machine
	// (quiet says whether it became quiet).
	Retry func(p results.Point, attempt int, waited time.Duration, quiet bool)
	// Done is called after each point with the points measured so far;
	// its error stops Measure, which returns it (a journal that could not
	// be written).
	Done func(points []results.Point) error
}

// Measure measures tasks of st (st.Tasks(), or what Remaining left of
// them) with r, in order, until the end or the first error, and returns
// what it measured, also then. A disturbed measurement is taken again as
// st.Retry says, and the least disturbed one kept, with its Attempts.
func (r Runner) Measure(ctx context.Context, st Batch, tasks []Task, h Hooks) ([]results.Point, error) {
	var points []results.Point
	for _, t := range tasks {
		if h.Start != nil {
			h.Start(t.Spec, t.Rep)
		}
		s := t.Spec
		s.Profile = st.ProfileBase(s, t.Rep)
		p, err := Quietly(ctx, st.Retry, func(ctx context.Context) (results.Point, error) { return r.Run(ctx, s) }, h.Retry)
		if err != nil {
			return points, err
		}
		if st.Count > 1 {
			p.Rep = t.Rep
		}
		points = append(points, p)
		if h.Done != nil {
			if err := h.Done(points); err != nil {
				return points, err
			}
		}
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
