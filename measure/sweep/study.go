package sweep

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/results"
)

// Batch is a whole sweep: its points, measured Count times over in rounds
// (as go test -count), each point saying its round in Rep where there are
// several, with their profiles in the folder Profile, if any.
type Batch[S Spec[S]] struct {
	Specs   []S
	Count   int
	Profile string
	Retry   Retry // what to do with a disturbed measurement
}

// Total is the number of points the study measures.
func (st Batch[S]) Total() int { return len(st.Specs) * st.Count }

// CPUs lists the study's CPU counts, ascending.
func (st Batch[S]) CPUs() []int {
	var out []int
	for _, s := range st.Specs {
		out = collect.AppendNew(out, s.Entry().Load.CPUs)
	}
	slices.Sort(out)
	return out
}

// ProfileIn is where the profile files of mode on cpus go in dir, with
// its round of count: DIR/finelocking-6cpu(-rep2).trace and so on; ""
// without dir.
func ProfileIn(dir, mode string, cpus, rep, count int) string {
	if dir == "" {
		return ""
	}
	name := fmt.Sprintf("%s-%dcpu", mode, cpus)
	if count > 1 {
		name += fmt.Sprintf("-rep%d", rep)
	}
	return filepath.Join(dir, name)
}

// Task is one measurement of a study: a point in its round.
type Task[S Spec[S]] struct {
	Spec S
	Rep  int
}

// Tasks lists st's measurements in order, round by round.
func (st Batch[S]) Tasks() []Task[S] {
	var ts []Task[S]
	for rep := 1; rep <= st.Count; rep++ {
		for _, s := range st.Specs {
			ts = append(ts, Task[S]{s, rep})
		}
	}
	return ts
}

// Holds reports whether p is the measurement of t in st: a measured
// point of kind shop with t's name, CPUs, load and round.
func (st Batch[S]) Holds(t Task[S], p results.Point) bool {
	rep := 0
	if st.Count > 1 {
		rep = t.Rep
	}
	e := t.Spec.Entry()
	maxq := 0
	if e.Load.Rate > 0 {
		maxq = e.Load.MaxQ
	}
	return p.Kind == results.KindShop && !p.IsModel() && p.Mode == e.Name && p.CPUs == e.Load.CPUs &&
		p.Par == e.Load.Workers(e.Load.CPUs) && p.Rate == e.Load.Rate && p.MaxQ == maxq && p.Rep == rep
}

// Remaining lists, in order, the tasks of a study cut short that the
// points of its journal do not hold, each point holding at most one.
func (st Batch[S]) Remaining(points []results.Point) []Task[S] {
	unused := slices.Clone(points)
	var left []Task[S]
	for _, t := range st.Tasks() {
		if i := slices.IndexFunc(unused, func(p results.Point) bool { return st.Holds(t, p) }); i >= 0 {
			unused = slices.Delete(unused, i, i+1)
		} else {
			left = append(left, t)
		}
	}
	return left
}

// Retry says what to do with a disturbed measurement: measure it again,
// up to Attempts times in all, first waiting at most Wait for a quiet
// machine. The zero Retry keeps every first measurement.
type Retry struct {
	Attempts int           `json:"attempts,omitempty"`
	Wait     time.Duration `json:"wait,omitempty"`
	// Until, where set, is when a run with a time limit must end: no attempt
	// starts that, as long as the last, would end after it.
	Until time.Time `json:"-"`
}

// DefaultRetry measures a disturbed point again up to 3 times, after 5 s.
func DefaultRetry() Retry { return Retry{Attempts: 4, Wait: 5 * time.Second} }

// Plan is the journal's plan of st for brewput command (run, or brewput).
func (st Batch[S]) Plan(command string) results.Plan {
	js, _ := json.Marshal(st) // a Batch is plain data
	return results.Plan{Command: command, Points: st.Total(), Study: js}
}

// BatchOf is the study a journal's plan holds, to resume on this machine.
func BatchOf[S Spec[S]](plan *results.Plan, command string) (*Batch[S], error) {
	if plan.Command != command {
		return nil, fmt.Errorf("a journal of brewput %s; resume it with that command", plan.Command)
	}
	var st Batch[S]
	if err := json.Unmarshal(plan.Study, &st); err != nil || len(st.Specs) == 0 || st.Count < 1 {
		return nil, fmt.Errorf("its plan holds no study to measure")
	}
	for _, s := range st.Specs {
		if err := s.Validate(); err != nil {
			return nil, fmt.Errorf("its plan: %w", err)
		}
		if n := s.Entry().Load.CPUs; n > runtime.NumCPU() {
			return nil, fmt.Errorf("its plan measures on %d CPUs; this machine has %d", n, runtime.NumCPU())
		}
	}
	return &st, nil
}
