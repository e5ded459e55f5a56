package text

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// PartName names a resource as its system does: "the CPUs", "the 2
// grinders", "the order queue", "stage grind", "the cache line of mu".
func PartName(p results.Part) string {
	r := p.Key
	switch r {
	case "cpus":
		return "the CPUs"
	case "customers", "servers", "arrivals":
		return "the " + r
	}
	if name, ok := strings.CutPrefix(r, "channel:"); ok {
		return cmp.Or(p.Queue, "the channel into stage "+name)
	}
	if name, ok := strings.CutPrefix(r, "step:"); ok {
		if p.Step {
			return "the " + name + " step"
		}
		return "step " + name
	}
	if name, ok := strings.CutPrefix(r, "line:"); ok {
		return "the cache line of " + name
	}
	switch {
	case p.Noun != "" && p.Count > 1:
		return fmt.Sprintf("the %d %ss", p.Count, p.Noun)
	case p.Noun != "":
		return "the " + p.Noun
	case p.Stage:
		return "stage " + r
	}
	return "the " + r
}

// LimitName names what limits a point, as every surface says it: its
// resources ("… together" for several), "nothing tried", NoCausalProfile.
func LimitName(n results.Named) string {
	switch {
	case n.Resource == "" || n.Resource == "unknown":
		return results.NoCausalProfile
	case n.Resource == "none":
		return "nothing tried"
	}
	named := limitParts(n)
	if len(n.Resources) > 1 {
		named += " together"
	}
	return named
}

// BottleneckName is LimitName of b's names.
func BottleneckName(b *results.Bottleneck) string { return LimitName(b.Names()) }

// limitParts names n's resources, joined: "the grinder and the steamer".
func limitParts(n results.Named) string {
	if len(n.Parts) > 0 {
		return format.JoinAnd(collect.Mapped(n.Parts, PartName))
	}
	if n.Said != "" { // a file written before Parts
		return n.Said
	}
	rs := n.Resources
	if len(rs) == 0 {
		rs = []string{n.Resource}
	}
	return strings.Join(rs, ", ")
}

// ChangeText says what an experiment changed: "grinding 10 % faster",
// "another grinder + one more CPU and one more customer".
func ChangeText(e results.Experiment) string {
	if len(e.Reliefs) == 0 {
		return e.Change // a file written before Reliefs
	}
	return strings.Join(collect.Mapped(e.Reliefs, ReliefText), " + ")
}

// ReliefText says one relief: "one more grinder (2 → 3)".
func ReliefText(r results.Relief) string {
	switch r.Kind {
	case "shorter":
		return cmp.Or(r.Doing, r.Of) + " 10 % faster"
	case "copy":
		switch {
		case r.Noun != "":
			return oneMore(r.Noun, r.Count, max(r.Lines, 1))
		case r.Stage:
			return fmt.Sprintf("one more worker at stage %s (%d → %d)", r.Of, r.Count*r.Lines, (r.Count+1)*r.Lines)
		}
		return fmt.Sprintf("one more %s (%d → %d)", r.Of, r.Count, r.Count+1)
	case "split":
		return partOf(r) + " held for less: " + r.Doing + " outside it"
	case "line":
		return fmt.Sprintf("%s's cache line moving 10 %% faster between cores", r.Of)
	case "shard":
		if r.Word {
			return fmt.Sprintf("%s striped over the CPUs, a copy on each", r.Of)
		}
		return fmt.Sprintf("%s split in two, each use taking one (%d → %d locks)", r.Of, r.Count, 2*r.Count)
	case "buffer":
		return bufferText(r)
	case "cpu":
		return "one more CPU, the same " + format.Count(r.Count, r.Who)
	case "cpu+customer":
		return "one more CPU and one more " + r.Who
	case "customers":
		return fmt.Sprintf("twice the %ss (%d → %d)", r.Who, r.Count, 2*r.Count)
	case analysis.TwiceCPUs:
		return "twice the CPUs"
	case analysis.Buffers:
		return fmt.Sprintf("buffers of %d between the stages", r.Count)
	case analysis.EveryResource:
		return "one more of every resource"
	}
	return r.Kind + " " + r.Of
}

// partOf names the part r relieves, else what it changes.
func partOf(r results.Relief) string {
	if r.Part != nil {
		return PartName(*r.Part)
	}
	return r.Of
}

// bufferText says a buffer doubled (one where there was none): into a
// stage, or of the shop's channel as it is named.
func bufferText(r results.Relief) string {
	to := max(1, 2*r.Count)
	switch {
	case r.Noun == "" && r.Count == 0:
		return "a buffer of 1 into stage " + r.Of
	case r.Noun == "":
		return fmt.Sprintf("twice the buffer into stage %s (%d → %d)", r.Of, r.Count, to)
	case r.Count == 0:
		return "a buffer of 1 in " + partOf(r)
	}
	return fmt.Sprintf("twice the buffer of %s (%d → %d)", partOf(r), r.Count, to)
}

// oneMore is the change of one more of n of the shop's machines, on each
// of lines: "another grinder", "one more grinder (2 → 3)".
func oneMore(noun string, n, lines int) string {
	switch {
	case lines > 1:
		return fmt.Sprintf("one more %s on each of the %d lines (%d → %d)", noun, lines, n*lines, (n+1)*lines)
	case n > 1:
		return fmt.Sprintf("one more %s (%d → %d)", noun, n, n+1)
	}
	return "another " + noun
}

// OptionChange says what an advised change changes: a design's declared
// words, or its reliefs.
func OptionChange(o analysis.Option) string {
	if o.Design != "" {
		return o.Design
	}
	return strings.Join(collect.Mapped(o.Reliefs, ReliefText), " + ")
}

// Becomes says what a change makes of the system: "finelocking, 2
// grinders", "cafe, barista: capacity 3", "16 CPUs, one customer each".
func Becomes(set []analysis.Setting) string {
	return strings.Join(collect.Mapped(set, setting), ", ")
}

func setting(s analysis.Setting) string {
	n := int(s.N)
	switch s.Kind {
	case analysis.SetCPUs:
		return format.Count(n, "CPU")
	case analysis.SetLoad:
		return format.Count(n, s.Who)
	case analysis.SetEach:
		return strings.Join(slices.DeleteFunc([]string{"one", s.Who, "each"}, func(w string) bool { return w == "" }), " ")
	case analysis.SetStep:
		return fmt.Sprintf("%s %v", s.Of, s.Dur)
	case analysis.SetScale:
		return fmt.Sprintf("%s ×%g", s.Of, s.N)
	case analysis.SetMachines:
		if s.Lines {
			return format.Count(n, s.Of) + " a line"
		}
		return format.Count(n, s.Of)
	case analysis.SetCapacity:
		return fmt.Sprintf("%s: capacity %d", s.Of, n)
	case analysis.SetWorkers:
		return fmt.Sprintf("%s: workers %d", s.Of, n)
	case analysis.SetLine:
		return fmt.Sprintf("%s's line ×%g", s.Of, s.N)
	case analysis.SetShards:
		if n == 0 { // the model gives a sharded word a copy on each CPU
			return s.Of + ": a copy on each CPU"
		}
		return fmt.Sprintf("%s: %d shards", s.Of, n)
	case analysis.SetBuffer:
		return fmt.Sprintf("%s: buffer %d", s.Of, n)
	case analysis.SetInto:
		return fmt.Sprintf("buffer %d into the %s", n, s.Of)
	case analysis.SetSplit:
		return "combining outside the kitchen lock"
	case analysis.SetEvery:
		return fmt.Sprintf("%d resources, each +1", n)
	}
	return s.Of
}

// BottleneckText says what limits p, with its causal profile's figures,
// each resource's use, and how a measurement compares with the model.
func BottleneckText(p results.Point) string {
	b := p.Bottleneck
	switch {
	case b == nil:
		return ""
	case b.Text != "": // a file written before the facts
		return b.Text
	case b.Resource == "unknown":
		return "No causal profile: the model cannot simulate this configuration: " + b.Unsimulated + "."
	}
	var s strings.Builder
	s.WriteString(verdictText(p))
	if u := usageText(p); u != "" {
		s.WriteString(" " + format.Capital(u) + ".")
	}
	if b.ModelThroughput > 0 && !p.IsModel() {
		s.WriteString(" " + Measured(p, b.ModelThroughput))
	}
	return s.String()
}

// verdictText says b's verdict on p with the experiments' figures.
func verdictText(p results.Point) string {
	b, unit := p.Bottleneck, p.Unit
	ts := b.Experiments
	var s strings.Builder
	switch {
	case b.Combined != nil && len(ts) > 0:
		if best := bestTried(ts); best != "" {
			fmt.Fprintf(&s, "No single relief gains more than 1 %%%s. ", best)
		} else {
			s.WriteString("No single relief raises throughput: each gains under 0.1 %. ")
		}
		fmt.Fprintf(&s, "%s bind together: %s: %s", format.Capital(limitParts(b.Names())), ChangeText(*b.Combined), gainText(*b.Combined, unit))
		if len(b.Resources) > 1 {
			s.WriteString("; without any one of them, 1 % or less")
		}
	case b.Resource == "arrivals":
		fmt.Fprintf(&s, "%s limit it: it keeps up with the %g %s arriving, and no relief tried raises throughput by more than 1 %%%s", format.Capital(limitParts(b.Names())), p.Rate, unit, bestTried(ts))
		if tr, ok := bestLatency(ts); ok {
			fmt.Fprintf(&s, "; %s cuts the p99 latency most, %s", ChangeText(tr), format.Gain(tr.P99Change))
		}
	case b.Resource == "none" || len(b.Tier) == 0:
		s.WriteString("Nothing tried raises throughput by more than 1 %, alone or all together" + bestTried(ts))
	default:
		s.WriteString(limitedText(b, unit))
	}
	return s.String() + "."
}

// bestTried says the best relief tried, " (best: …, +0.3 %)", where one
// gains 0.1 % or more: one that gains nothing is the best of nothing, and
// not called so (the playground read "best: grinding 10 % faster, +0.0 %").
func bestTried(ts []results.Experiment) string {
	if len(ts) == 0 || ts[0].Gain < 0.001 {
		return ""
	}
	return fmt.Sprintf(" (best: %s, %s)", ChangeText(ts[0]), format.Gain(ts[0].Gain))
}

// limitedText says what limits b's point and what relieving it gains, the
// other reliefs of the same resources, and the best elsewhere.
func limitedText(b *results.Bottleneck, unit string) string {
	top := b.Tier[0]
	best := b.Experiments[top]
	names := limitParts(b.Names())
	verb, together := "limits", ""
	if len(b.Resources) > 1 || strings.HasSuffix(names, "s") && !strings.HasSuffix(names, "ss") { // "the 2 grinders"
		verb = "limit"
	}
	if len(b.Resources) > 1 {
		together = " together"
	}
	var s strings.Builder
	fmt.Fprintf(&s, "%s %s it%s: %s: %s", format.Capital(names), verb, together, ChangeText(best), gainText(best, unit))
	shown := 0
	for i, tr := range b.Experiments {
		if i != top && shown < 4 && overlaps(tr.Named(), b.Resources) {
			fmt.Fprintf(&s, "; %s: %s", ChangeText(tr), format.Gain(tr.Gain))
			shown++
		}
	}
	for _, tr := range b.Experiments {
		if !overlaps(tr.Named(), b.Resources) {
			fmt.Fprintf(&s, ". Next best elsewhere: %s, %s", ChangeText(tr), format.Gain(tr.Gain))
			break
		}
	}
	return s.String()
}

// usageText gives each named resource's time held and working, and the
// CPUs' use.
func usageText(p results.Point) string {
	b := p.Bottleneck
	var parts []string
	for _, r := range b.Parts {
		switch {
		case r.Key == "cpus":
			parts = append(parts, fmt.Sprintf("%s %s used", PartName(r), format.Percent(r.Held, 0)))
		case r.Held > 0:
			parts = append(parts, fmt.Sprintf("%s held %s of the time, working %s", PartName(r), format.Percent(r.Held, 0), format.Percent(r.Working, 0)))
		}
	}
	if util := p.Metrics[results.Util]; !slices.Contains(b.Resources, "cpus") && util > 0 {
		parts = append(parts, fmt.Sprintf("the CPUs %s used", format.Percent(util, 0)))
	}
	return strings.Join(parts, "; ")
}

// bestLatency is the experiment that cuts the p99 latency most, by 5 % or more.
func bestLatency(ts []results.Experiment) (best results.Experiment, ok bool) {
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

func overlaps(a, b []string) bool {
	return slices.ContainsFunc(a, func(x string) bool { return slices.Contains(b, x) })
}
