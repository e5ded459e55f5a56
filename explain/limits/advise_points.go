package limits

import (
	"context"
	"fmt"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
)

// Points advises on each shop mode among points under policy (seed at
// least 1), at its measured point on the most CPUs, else its predicted
// one; repetitions are passed over, and skipped says why a mode the model
// cannot advise on is left out.
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
		cfg := policy.Apply(cfgs[m])
		if cfg.Par == cfg.CPUs {
			cfg.Par = 0 // points count their workers out: as many as CPUs is --par 0
		}
		a, err := Advise(context.Background(), cfg)
		if err != nil {
			skipped = append(skipped, fmt.Errorf("no advice for %s: %w", m, err))
			continue
		}
		out = append(out, a)
	}
	return out, skipped
}
