package sweep

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"time"

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
	return p.Kind == results.KindShop && !p.IsModel() && p.Mode == t.Spec.Mode.String() && p.CPUs == t.Spec.CPUs &&
		p.Par == t.Spec.Workers(t.Spec.CPUs) && p.Rate == t.Spec.Rate && p.MaxQ == maxq && p.Rep == rep
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

// Plan is the journal's plan of st, measured by brewput command ("run",
// or "brewput" for the main job): what a run cut short needs to finish.
func (st Batch) Plan(command string) results.Plan {
	js, _ := json.Marshal(st) // a Batch is plain data
	return results.Plan{Command: command, Points: st.Total(), Study: js}
}

// BatchOf is the study a journal's plan holds, for resuming it with brewput
// command on this machine: it refuses a plan of another command, one with
// no study or an invalid point, and one that measures on more CPUs than
// this machine has.
func BatchOf(plan *results.Plan, command string) (*Batch, error) {
	if plan.Command != command {
		return nil, fmt.Errorf("a journal of brewput %s; resume it with that command", plan.Command)
	}
	var st Batch
	if err := json.Unmarshal(plan.Study, &st); err != nil || len(st.Specs) == 0 || st.Count < 1 {
		return nil, fmt.Errorf("its plan holds no study to measure")
	}
	for _, s := range st.Specs {
		if err := s.Validate(); err != nil {
			return nil, fmt.Errorf("its plan: %w", err)
		}
		if s.CPUs > runtime.NumCPU() {
			return nil, fmt.Errorf("its plan measures on %d CPUs; this machine has %d", s.CPUs, runtime.NumCPU())
		}
	}
	return &st, nil
}
