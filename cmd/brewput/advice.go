package main

import (
	"fmt"
	"slices"

	"github.com/brewput/brewput/advise"
	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
)

// adviceFor asks the model, under pr's policy, what would help each mode
// of points, at the largest CPU count it was measured at (or predicted at,
// for a mode with no measurement) under that point's load and steps. A
// mode the model cannot advise on (a YAML system, a closed-loop noop) is
// left out with a note on stderr.
func (e *env) adviceFor(points []results.Point, pr prediction) []*advise.Advice {
	var modes []string
	at := map[string]results.Point{}
	for _, p := range points {
		if _, err := coffee.ParseMode(p.Mode); err != nil || p.Rep > 1 {
			continue
		}
		cur, ok := at[p.Mode]
		if !ok {
			modes = append(modes, p.Mode)
		}
		// A measurement beats a prediction; then the most CPUs.
		if !ok || (cur.IsModel() && !p.IsModel()) || (cur.IsModel() == p.IsModel() && p.CPUs > cur.CPUs) {
			at[p.Mode] = p
		}
	}
	var out []*advise.Advice
	for _, m := range modes {
		a, err := advise.Mode(adviceConfig(at[m], pr))
		if err != nil {
			fmt.Fprintf(e.stderr, "no advice for %s: %v\n", m, err)
			continue
		}
		out = append(out, a)
	}
	return slices.Clip(out)
}

// adviceConfig is the model configuration of p's mode, load and steps
// (model.ConfigOf), under pr's policy.
func adviceConfig(p results.Point, pr prediction) model.Config {
	cfg, _ := model.ConfigOf(p) // p's mode parses: adviceFor checked it
	cfg.Sched, cfg.Costs, cfg.Seed = pr.sched, pr.costs, max(pr.seed, 1)
	return cfg
}
