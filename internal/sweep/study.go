package sweep

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/brewput/brewput/internal/quiet"
	"github.com/brewput/brewput/results"
)

// Batch is a whole sweep: its points, measured Count times over in rounds
// (as go test -count; round-robin keeps a slow spell of the machine from
// landing on one configuration), and the folder their profiles go to, if
// any.
type Batch struct {
	Specs []Spec
	// Count is the rounds, at least 1; with more than one, each point
	// says its round in Rep.
	Count int
	// Profile, when set, is the folder of the points' profiles (see
	// ProfileBase); it must exist.
	Profile string
	// Retry says what Measure does with a disturbed measurement.
	Retry Retry
}

// Total is the number of points the study measures.
func (st Batch) Total() int { return len(st.Specs) * st.Count }

// CPUs lists the study's CPU counts, ascending.
func (st Batch) CPUs() []int {
	var out []int
	for _, s := range st.Specs {
		if !slices.Contains(out, s.CPUs) {
			out = append(out, s.CPUs)
		}
	}
	slices.Sort(out)
	return out
}

// ProfileBase is where a point's profile files go, named by mode and CPU
// count, and round with Count: DIR/finelocking-6cpu(-rep2).trace and so
// on. It is empty without a Profile folder.
func (st Batch) ProfileBase(s Spec, rep int) string {
	if st.Profile == "" {
		return ""
	}
	name := fmt.Sprintf("%s-%dcpu", s.Mode, s.CPUs)
	if st.Count > 1 {
		name += fmt.Sprintf("-rep%d", rep)
	}
	return filepath.Join(st.Profile, name)
}

// Task is one measurement of a study: a point in its round.
type Task struct {
	Spec Spec
	Rep  int
}

// Tasks lists st's measurements in the order Measure takes them, round by
// round.
func (st Batch) Tasks() []Task {
	var ts []Task
	for rep := 1; rep <= st.Count; rep++ {
		for _, s := range st.Specs {
			ts = append(ts, Task{s, rep})
		}
	}
	return ts
}

// Holds reports whether p is the measurement of t in st: the same mode,
// CPU count, customers, load and round.
func (st Batch) Holds(t Task, p results.Point) bool {
	rep := 0
	if st.Count > 1 {
		rep = t.Rep
	}
	maxq := 0
	if t.Spec.Rate > 0 {
		maxq = t.Spec.MaxQ
	}
	return p.Kind() == results.KindMeasured && p.Mode == t.Spec.Mode.String() && p.CPUs == t.Spec.CPUs &&
		p.Par == t.Spec.Load().Workers() && p.Rate == t.Spec.Rate && p.MaxQ == maxq && p.Rep == rep
}

// Remaining lists the tasks of st that points do not hold, in order: what
// is left to measure of a study cut short, whose journal holds points.
// Each point holds at most one task, so that a study that measures a
// configuration twice (--modes noop,noop) needs two points of it.
func (st Batch) Remaining(points []results.Point) []Task {
	used := make([]bool, len(points))
	var left []Task
	for _, t := range st.Tasks() {
		found := false
		for i, p := range points {
			if !used[i] && st.Holds(t, p) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			left = append(left, t)
		}
	}
	return left
}

// Retry says what Measure does with a disturbed measurement (see
// results.Point.IsDisturbed): measure it again, up to Attempts times in
// all, first waiting at most Wait for the machine to be quiet. The zero
// Retry keeps every first measurement.
type Retry struct {
	Attempts int           `json:"attempts,omitempty"`
	Wait     time.Duration `json:"wait,omitempty"`
}

// DefaultRetry is brewput's: a disturbed point is measured again up to 3
// times, each after waiting up to 5 s for a quiet machine.
func DefaultRetry() Retry { return Retry{Attempts: 4, Wait: 5 * time.Second} }

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
		began := time.Now()
		quiet, err := waitQuiet(ctx, spareCores(p), rt.Wait)
		if err != nil {
			return best, err
		}
		if tell != nil {
			tell(p, attempt, time.Since(began), quiet)
		}
	}
}

// interference is how much CPU others and the hypervisor took from p.
func interference(p results.Point) float64 { return p.OthersCPUs + p.StealCPUs }

// spareCores is how many of the machine's cores p left to others.
func spareCores(p results.Point) float64 {
	return float64(max(p.Host.Cores-p.CPUs, 0))
}

// waitQuiet waits, at most wait, until other processes and the hypervisor
// take no more than results.DisturbedCPUs beyond spare cores, probing 200 ms
// at a time; it reports whether they did.
func waitQuiet(ctx context.Context, spare float64, wait time.Duration) (bool, error) {
	if wait <= 0 {
		return false, ctx.Err()
	}
	deadline := time.Now().Add(wait)
	for {
		before := quiet.Take()
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(min(200*time.Millisecond, max(time.Until(deadline), 10*time.Millisecond))):
		}
		if quiet.Since(before) <= spare+results.DisturbedCPUs {
			return true, nil
		}
		if !time.Now().Before(deadline) {
			return false, nil
		}
	}
}
