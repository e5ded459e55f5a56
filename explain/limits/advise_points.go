package limits

import (
	"fmt"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
)

// Points advises on each of the shop's modes among points, as Mode does,
// under policy (its seed at least 1), at the largest CPU count the mode
// was measured at, or predicted at where it has no measurement, under
// that point's load and steps. Points of no mode of the shop (a lab's, a
// YAML system's) and repetitions after the first are passed over. A mode
// the model cannot advise on (noop in a closed loop) is left out, and
// skipped says why, one error a mode.
func Points(points []results.Point, policy model.Policy) (out []*Advice, skipped []error) {
	policy.Seed = max(policy.Seed, 1)
	var modes []string
	at := map[string]results.Point{}
	cfgs := map[string]model.Config{}
	for _, p := range points {
		cfg, ok := model.ConfigOf(p)
		if !ok || p.Rep > 1 {
			continue
		}
		cur, seen := at[p.Mode]
		if !seen {
			modes = append(modes, p.Mode)
		}
		// A measurement beats a prediction; then the most CPUs.
		if !seen || (cur.IsModel() && !p.IsModel()) || (cur.IsModel() == p.IsModel() && p.CPUs > cur.CPUs) {
			at[p.Mode], cfgs[p.Mode] = p, cfg
		}
	}
	for _, m := range modes {
		a, err := AdviseMode(policy.Apply(cfgs[m]))
		if err != nil {
			skipped = append(skipped, fmt.Errorf("no advice for %s: %w", m, err))
			continue
		}
		out = append(out, a)
	}
	return out, skipped
}
