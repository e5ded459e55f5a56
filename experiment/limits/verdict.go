package limits

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

func verdict(t target, pr *CausalProfile) results.Bottleneck {
	b := results.Bottleneck{Model: t.model()}
	for _, tr := range pr.Trials {
		b.Experiments = append(b.Experiments, tr.Experiment)
	}
	switch {
	case len(pr.Trials) > 0 && pr.Trials[0].Gain > MinGain:
		for _, tr := range topTier(pr.Trials) {
			b.Resources = collect.AppendNew(b.Resources, tr.named...)
			b.Recommend = append(b.Recommend, tr.Change)
		}
		b.Gain = pr.Trials[0].Gain
	case pr.Combined != nil:
		b.Resources = pr.Combined.named
		b.Gain = pr.Combined.Gain
		b.Recommend = []string{pr.Combined.Change}
		e := pr.Combined.Experiment
		b.Combined = &e
	case t.openLoop() > 0 && pr.Now.Metrics[results.Drops] == 0:
		b.Resources = []string{"arrivals"}
	default:
		b.Resources = []string{"none"}
	}
	b.Resource = strings.Join(b.Resources, "+")
	b.Named = labels(t, b.Resources)
	b.Utilization, b.Working, b.Bound = jointUsage(pr.Now, b.Resources)
	b.Text = words(t, pr, b)
	return b
}

// topTier is the trials within Tie of the best, gaining more than MinGain,
// less those naming more than another of the tier (where twice the customers
// gains as much as a CPU and a customer, the customers alone limit).
func topTier(ts []Trial) []Trial {
	var tier []Trial
	for _, tr := range ts {
		if tr.Gain > MinGain && tr.Gain >= ts[0].Gain-Tie {
			tier = append(tier, tr)
		}
	}
	var out []Trial
	for _, tr := range tier {
		if !slices.ContainsFunc(tier, func(o Trial) bool { return len(o.named) < len(tr.named) && collect.Subset(o.named, tr.named) }) {
			out = append(out, tr)
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

// bestAlone names the single relief that gains most, "(best: grinding 10 %
// faster, +0.4 %)", where it gains 0.1 % or more: one that gains nothing
// is the best of nothing, and not called so (it read "+0.0 %").
func bestAlone(trials []Trial) (string, bool) {
	if len(trials) == 0 || trials[0].Gain < 0.001 {
		return "", false
	}
	return fmt.Sprintf("(best: %s, %s)", trials[0].Change, format.Gain(trials[0].Gain)), true
}

// words says the verdict with the experiments' figures.
func words(t target, pr *CausalProfile, b results.Bottleneck) string {
	unit := pr.Now.Unit
	var s strings.Builder
	switch {
	case b.Combined != nil:
		if best, ok := bestAlone(pr.Trials); ok {
			fmt.Fprintf(&s, "No single relief gains more than 1 %% %s. ", best)
		} else {
			s.WriteString("No single relief raises throughput: each gains under 0.1 %. ")
		}
		fmt.Fprintf(&s, "%s bind together: %s: %s", format.Capital(labels(t, b.Resources)), pr.Combined.Change, gainText(pr.Combined.Experiment, unit))
		if len(b.Resources) > 1 {
			s.WriteString("; without any one of them, 1 % or less")
		}
		s.WriteString(".")
	case b.Resource == "arrivals":
		fmt.Fprintf(&s, "%s limit it: it keeps up with the %g %s arriving, and no relief tried raises throughput by more than 1 %%", format.Capital(b.Named), t.openLoop(), unit)
		if best, ok := bestAlone(pr.Trials); ok {
			s.WriteString(" " + best)
		}
		if tr, ok := bestLatency(pr.Trials); ok {
			fmt.Fprintf(&s, "; %s cuts the p99 latency most, %s", tr.Change, format.Gain(tr.P99Change))
		}
		s.WriteString(".")
	case b.Resource == "none":
		s.WriteString("Nothing tried raises throughput by more than 1 %, alone or all together")
		if best, ok := bestAlone(pr.Trials); ok {
			s.WriteString(" " + best)
		}
		s.WriteString(".")
	default:
		best := topTier(pr.Trials)[0]
		names := labels(t, b.Resources)
		verb, together := "limits", ""
		if len(b.Resources) > 1 || strings.HasSuffix(names, "s") && !strings.HasSuffix(names, "ss") { // "the 2 grinders"
			verb = "limit"
		}
		if len(b.Resources) > 1 {
			together = " together"
		}
		fmt.Fprintf(&s, "%s %s it%s: %s: %s", format.Capital(names), verb, together, best.Change, gainText(best.Experiment, unit))
		// The others on the named resources, then the best elsewhere.
		shown := 0
		for _, tr := range pr.Trials {
			if tr.Change != best.Change && shown < 4 && overlaps(tr.named, b.Resources) {
				fmt.Fprintf(&s, "; %s: %s", tr.Change, format.Gain(tr.Gain))
				shown++
			}
		}
		for _, tr := range pr.Trials {
			if !overlaps(tr.named, b.Resources) {
				fmt.Fprintf(&s, ". Next best elsewhere: %s, %s", tr.Change, format.Gain(tr.Gain))
				break
			}
		}
		s.WriteString(".")
	}
	if u := usageText(t, pr.Now, b.Resources); u != "" {
		s.WriteString(" " + format.Capital(u) + ".")
	}
	return s.String()
}

// usageText gives each named resource's time held and working.
func usageText(t target, p results.Point, resources []string) string {
	var parts []string
	for _, r := range resources {
		held, working, _ := usage(p, r)
		switch {
		case r == "cpus":
			parts = append(parts, fmt.Sprintf("%s %s used", t.label(r), format.Percent(held, 0)))
		case held > 0:
			parts = append(parts, fmt.Sprintf("%s held %s of the time, working %s", t.label(r), format.Percent(held, 0), format.Percent(working, 0)))
		}
	}
	if util := p.Metrics[results.Util]; !slices.Contains(resources, "cpus") && util > 0 {
		parts = append(parts, fmt.Sprintf("%s %s used", t.label("cpus"), format.Percent(util, 0)))
	}
	return strings.Join(parts, "; ")
}

// bestLatency is the trial that cuts the p99 latency most, by 5 % or more.
func bestLatency(ts []Trial) (best Trial, ok bool) {
	for _, tr := range ts {
		if tr.P99Change <= -0.05 && (!ok || tr.P99Change < best.P99Change) {
			best, ok = tr, true
		}
	}
	return best, ok
}

// gainText says an experiment's gain: "+9.8 % (1098 lattes/s)".
func gainText(e results.Experiment, unit string) string {
	s := fmt.Sprintf("%s (%.0f %s", format.Gain(e.Gain), e.Throughput, unit)
	if math.Abs(e.P99Change) >= 0.05 {
		s += ", p99 " + format.Gain(e.P99Change)
	}
	return s + ")"
}

// labels names resources for people: "the grinder and the steamer".
func labels(t target, rs []string) string { return format.JoinAnd(collect.Mapped(rs, t.label)) }

func overlaps(a, b []string) bool {
	return slices.ContainsFunc(a, func(x string) bool { return slices.Contains(b, x) })
}
