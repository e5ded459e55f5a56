package limits

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
)

// Fifo is the idealized policy, which needs no calibration.
func Fifo() model.Policy { return model.Policy{Policy: results.Policy{Sched: "fifo"}} }

// Point is the point as it is, with the verdict as its Bottleneck.
func (pr *CausalProfile) Point() results.Point {
	p := pr.Now
	if pr.Bottleneck.Model == "" {
		return p
	}
	b := pr.Bottleneck
	p.Bottleneck = &b
	return p
}

// Annotate gives every shop point without a causal verdict its causal
// profile's bottleneck: a model point's under its own policy, a measured
// one's under policy with its own machines' times and the model's
// throughput. Lab and YAML systems' points stay as they are; the user's
// own code's lose any verdict. It returns the first error, having
// annotated the others.
func Annotate(points []results.Point, policy model.Policy) error {
	var idx []int
	var ts []target
	var cfgs []model.Config
	for i, p := range points {
		if p.IsUserCode() {
			points[i].Bottleneck = nil
			continue
		}
		if p.Kind == results.KindLab || (p.Bottleneck != nil && p.Bottleneck.Model != "") {
			continue
		}
		cfg, ok := model.ConfigOf(p)
		if !ok {
			continue // a YAML system's point: its file is not at hand
		}
		cfg.CPUs = max(cfg.CPUs, 1)
		switch {
		case !p.IsModel():
			cfg.Policy.Sched, cfg.Costs, cfg.Policy.Seed = policy.Sched, policy.Costs, 1
			cfg.Warmup = max(cfg.Warmup, 100*time.Millisecond)
			cfg.Dur = min(max(cfg.Dur, 500*time.Millisecond), 2*time.Second)
		case p.Sched == "go" && policy.Sched == "go":
			cfg.Policy.Sched, cfg.Costs, cfg.Policy.Seed = "go", policy.Costs, max(p.Seed, 1)
		default: // fifo, or go with costs unknown here
			cfg.Policy.Sched, cfg.Policy.Seed = "fifo", max(p.Seed, 1)
		}
		t, err := newTarget(cfg)
		if err != nil { // such as noop in a closed loop, which takes no virtual time
			points[i].Bottleneck = &results.Bottleneck{Resource: "unknown", Model: ModelLabel(cfg.Policy.Sched, cfg.Costs),
				Unsimulated: err.Error()}
			continue
		}
		idx, ts, cfgs = append(idx, i), append(ts, t), append(cfgs, cfg)
	}
	var first error
	CausalProfiles(context.Background(), cfgs, EveryRelief, func(j int, pr *CausalProfile, err error) error {
		if err != nil {
			first = cmp.Or(first, err)
			return nil
		}
		p := &points[idx[j]]
		b := pr.Bottleneck
		if !p.IsModel() {
			b = measured(ts[j], pr, *p)
		}
		p.Bottleneck = &b
		return nil
	})
	return first
}

// measured is measured point p's bottleneck from its causal profile pr.
func measured(t target, pr *CausalProfile, p results.Point) results.Bottleneck {
	own := *pr
	own.Now.Shop = &results.Shop{Machines: p.Machines(), Steps: own.Now.Steps()}
	own.Now.Set(results.Util, p.Metrics[results.Util])
	b := pr.Bottleneck
	b.Utilization, b.Working, _ = jointUsage(own.Now, b.Resources)
	b.ModelThroughput = pr.Now.Throughput
	b.Parts = parts(t, own.Now, b.Resources)
	return b
}

// Points advises on each shop mode among points under policy, at its
// measured point on the most CPUs, else its predicted one; skipped says
// why a mode the model cannot advise on is left out.
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
