package limits

import (
	"slices"
	"strings"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// verdict is what limits t, from its causal profile.
func verdict(t target, pr *CausalProfile) results.Bottleneck {
	b := results.Bottleneck{Model: t.model()}
	for _, tr := range pr.Trials {
		b.Experiments = append(b.Experiments, tr.Experiment)
	}
	switch {
	case len(pr.Trials) > 0 && pr.Trials[0].Gain > MinGain:
		for _, i := range topTier(pr.Trials) {
			b.Resources = collect.AppendNew(b.Resources, pr.Trials[i].named...)
			b.Tier = append(b.Tier, i)
		}
		b.Gain = pr.Trials[0].Gain
	case pr.Combined != nil:
		b.Resources = pr.Combined.named
		b.Gain = pr.Combined.Gain
		e := pr.Combined.Experiment
		b.Combined = &e
	case t.openLoop() > 0 && pr.Now.Metrics[results.Drops] == 0:
		b.Resources = []string{"arrivals"}
	default:
		b.Resources = []string{"none"}
	}
	b.Resource = strings.Join(b.Resources, "+")
	b.Utilization, b.Working, b.Bound = jointUsage(pr.Now, b.Resources)
	b.Parts = parts(t, pr.Now, b.Resources)
	return b
}

// parts are resources as t names them, with their use in p.
func parts(t target, p results.Point, resources []string) []results.Part {
	var out []results.Part
	for _, r := range resources {
		part := t.part(r)
		part.Held, part.Working, _ = usage(p, r)
		out = append(out, part)
	}
	return out
}

// topTier is the trials within Tie of the best, gaining more than MinGain,
// less those naming more than another of the tier (where twice the customers
// gains as much as a CPU and a customer, the customers alone limit): their
// indexes in ts, best first.
func topTier(ts []Trial) []int {
	var tier []int
	for i, tr := range ts {
		if tr.Gain > MinGain && tr.Gain >= ts[0].Gain-Tie {
			tier = append(tier, i)
		}
	}
	var out []int
	for _, i := range tier {
		if !slices.ContainsFunc(tier, func(j int) bool {
			return len(ts[j].named) < len(ts[i].named) && collect.Subset(ts[j].named, ts[i].named)
		}) {
			out = append(out, i)
		}
	}
	return out
}

// usage is resource's time held and working in p (analysis.Resources),
// and its bound: the model's structure's where it knows p's mode, with
// none for a resource the structure does not hold (ideal's machines),
// else the empirical one.
func usage(p results.Point, resource string) (held, working, bound float64) {
	if resource == "customers" || resource == "servers" {
		if p.Bounds != nil && p.Bounds.LatencyMinMs > 0 {
			bound = float64(p.Par) / (p.Bounds.LatencyMinMs / 1000)
		}
		return 0, 0, bound
	}
	found := false
	for _, r := range analysis.Resources(p) {
		if r.Name == resource {
			held, working, bound, found = r.Utilization, r.Working, r.Bound, true
		}
	}
	cfg, known := model.ConfigOf(p)
	if !found || !known {
		return held, working, bound
	}
	cfg.Policy.Sched = "fifo"
	st, err := model.StructureOf(cfg)
	ours := func(d blueprint.Demand) bool { return analysis.Kind(d.Name) == resource }
	switch {
	case err != nil:
	case resource == "cpus":
		if st.CPU > 0 {
			bound = float64(p.CPUs) / st.CPU
		}
	case !slices.ContainsFunc(st.Resources, ours):
		bound = 0
	default:
		for _, d := range st.Resources {
			if ours(d) && d.Hold > 0 {
				bound = float64(d.Copies) / d.Hold
			}
		}
	}
	return held, working, bound
}

// jointUsage is the most held of resources, and the tightest bound.
func jointUsage(p results.Point, resources []string) (held, working, bound float64) {
	for _, r := range resources {
		h, w, b := usage(p, r)
		if h > held {
			held, working = h, w
		}
		if b > 0 && (bound == 0 || b < bound) {
			bound = b
		}
	}
	return held, working, bound
}
