package sweep

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/brewput/brewput/results"
)

// Study is a whole sweep: its points, measured Count times over in rounds
// (as go test -count; round-robin keeps a slow spell of the machine from
// landing on one configuration), and the folder their profiles go to, if
// any.
type Study struct {
	Specs []Spec
	// Count is the rounds, at least 1; with more than one, each point
	// says its round in Rep.
	Count int
	// Profile, when set, is the folder of the points' profiles (see
	// ProfileBase); it must exist.
	Profile string
}

// Total is the number of points the study measures.
func (st Study) Total() int { return len(st.Specs) * st.Count }

// CPUs lists the study's CPU counts, ascending.
func (st Study) CPUs() []int {
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
func (st Study) ProfileBase(s Spec, rep int) string {
	if st.Profile == "" {
		return ""
	}
	name := fmt.Sprintf("%s-%dcpu", s.Mode, s.CPUs)
	if st.Count > 1 {
		name += fmt.Sprintf("-rep%d", rep)
	}
	return filepath.Join(st.Profile, name)
}

// Measure measures every point of st with r, round by round, until the
// end or the first error, and returns what it measured, also then. start,
// if not nil, is called before each point with its round, and done after
// it with the points so far.
func (r Runner) Measure(ctx context.Context, st Study, start func(s Spec, rep int), done func(points []results.Point)) ([]results.Point, error) {
	var points []results.Point
	for rep := 1; rep <= st.Count; rep++ {
		for _, s := range st.Specs {
			if start != nil {
				start(s, rep)
			}
			s.Profile = st.ProfileBase(s, rep)
			p, err := r.Run(ctx, s)
			if err != nil {
				return points, err
			}
			if st.Count > 1 {
				p.Rep = rep
			}
			points = append(points, p)
			if done != nil {
				done(points)
			}
		}
	}
	return points, nil
}
