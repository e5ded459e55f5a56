package main

import (
	"fmt"
	"slices"
	"time"

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

// adviceConfig is the model configuration of p's mode, load and steps. A
// point with one customer per CPU keeps that rule, so that "twice the
// CPUs" doubles the customers as the study's --par 0 would.
func adviceConfig(p results.Point, pr prediction) model.Config {
	ms := func(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }
	cfg := model.Config{
		Mode: p.Mode, CPUs: p.CPUs, Customers: p.Par, Rate: p.Rate, MaxQ: p.MaxQ,
		Sched: pr.sched, Costs: pr.costs, Seed: max(pr.seed, 1),
		Grind: ms(p.Steps.GrindMs), Press: ms(p.Steps.PressMs), Steam: ms(p.Steps.SteamMs),
		Combine: ms(p.Steps.LatteMs), Jitter: ms(p.Steps.JitterMs),
		Warmup: time.Duration(p.WarmupS * float64(time.Second)), Duration: time.Duration(p.DurS * float64(time.Second)),
	}
	if p.Par == p.CPUs {
		cfg.Customers = 0
	}
	if cfg.Duration <= 0 {
		cfg.Duration = time.Second
	}
	return cfg
}
