package compare

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
)

// Answer is what compare says first about one kind of the configurations
// both files have (measured, predicted by the model, or Go benchmarks),
// computed from their rows: which changed, which did not, which cannot
// tell.
type Answer struct {
	// Kind is "measured", "model" or "bench".
	Kind string `json:"kind"`
	// Configs counts the configurations; MinRuns and MaxRuns are the
	// fewest and most repetitions a side had of one.
	Configs int `json:"configs"`
	MinRuns int `json:"min_runs"`
	MaxRuns int `json:"max_runs"`
	// Changed are the configurations with a metric significantly better
	// or worse, the largest change of their first metric first.
	Changed []ConfigChange `json:"changed"`
	// Same counts the configurations with no significant difference in
	// any metric, Inconclusive those with a change their disturbed samples
	// leave untold, TooFew those with too few runs for any verdict (Need
	// runs a side give one), Equal those of them with every median the
	// same on both sides.
	Same         int `json:"same"`
	Inconclusive int `json:"inconclusive"`
	TooFew       int `json:"too_few"`
	Equal        int `json:"equal"`
	Need         int `json:"need,omitempty"`
	// Largest are, where every configuration has too few runs, the
	// largest changes of their first metric (throughput), at most three.
	Largest []ConfigChange `json:"largest,omitempty"`
}

// ConfigChange is a configuration's changes: of its significant metrics,
// or in Answer.Largest of its first.
type ConfigChange struct {
	Key     Key           `json:"key"`
	Metrics []MetricDelta `json:"metrics"`
}

// MetricDelta is one metric's change in percent, and its direction
// (Metric.Change).
type MetricDelta struct {
	Name     string  `json:"name"`
	DeltaPct float64 `json:"delta_pct"`
	Change   int     `json:"change"`
}

// kindOf says which kind of configuration k is, for Answer.
func kindOf(k Key) string {
	switch {
	case k.Bench:
		return "bench"
	case k.Model:
		return "model"
	}
	return "measured"
}

// maxNamed is how many configurations an answer names.
const maxNamed = 3

// answers sums rows up, an Answer per kind, measured first, then the
// model's, then benchmarks.
func answers(rows []Row) []Answer {
	var out []Answer
	for _, kind := range []string{"measured", "model", "bench"} {
		a := Answer{Kind: kind, Changed: []ConfigChange{}, MinRuns: math.MaxInt}
		var untold []ConfigChange
		for _, r := range rows {
			if kindOf(r.Key) != kind || len(r.Metrics) == 0 {
				continue
			}
			a.Configs++
			changed := ConfigChange{Key: r.Key}
			inconclusive, tooFew, equal := false, true, true
			for _, m := range r.Metrics {
				a.MinRuns = min(a.MinRuns, m.Old.N, m.New.N)
				a.MaxRuns = max(a.MaxRuns, m.Old.N, m.New.N)
				if m.Significant && m.Change != 0 {
					changed.Metrics = append(changed.Metrics, MetricDelta{m.Name, m.DeltaPct, m.Change})
				}
				inconclusive = inconclusive || m.Inconclusive != ""
				tooFew = tooFew && m.TooFew
				equal = equal && m.Old.Median == m.New.Median
				if m.TooFew {
					a.Need = max(a.Need, m.Need)
				}
			}
			first := r.Metrics[0]
			switch {
			case len(changed.Metrics) > 0:
				a.Changed = append(a.Changed, changed)
			case inconclusive:
				a.Inconclusive++
			case tooFew:
				a.TooFew++
				if equal {
					a.Equal++
				} else if first.Old.Median != first.New.Median && !math.IsNaN(first.DeltaPct) {
					untold = append(untold, ConfigChange{Key: r.Key, Metrics: []MetricDelta{{first.Name, first.DeltaPct, 0}}})
				}
			default:
				a.Same++
			}
		}
		if a.Configs == 0 {
			continue
		}
		larger := func(a, b ConfigChange) int {
			return cmp.Compare(math.Abs(b.Metrics[0].DeltaPct), math.Abs(a.Metrics[0].DeltaPct))
		}
		slices.SortStableFunc(a.Changed, larger)
		if a.TooFew == a.Configs {
			slices.SortStableFunc(untold, larger)
			a.Largest = untold[:min(len(untold), maxNamed)]
		}
		out = append(out, a)
	}
	return out
}

// answer writes the comparison's answer, a sentence or two per kind of
// configuration, wrapped to width.
func (c Comparison) answer(width int) []string {
	lines := make([]string, len(c.Answers))
	for i, a := range c.Answers {
		lines[i] = format.Wrap(a.words(), width, "")
	}
	return lines
}

// words says an answer: "Measured, 3 configurations in both, 6 runs
// each: finelocking on 2 CPUs, throughput +24.4% better, p50 latency
// -19.6% better; no significant difference in 2."
func (a Answer) words() string {
	runs := fmt.Sprintf("%d runs each", a.MinRuns)
	if a.MinRuns == 1 && a.MaxRuns == 1 {
		runs = "1 run each"
	} else if a.MinRuns != a.MaxRuns {
		runs = fmt.Sprintf("%d to %d runs each", a.MinRuns, a.MaxRuns)
	}
	head := map[string]string{"measured": "Measured", "model": "Predicted by the model", "bench": "Benchmarks"}[a.Kind] +
		", " + format.Count(a.Configs, "configuration") + " in both"
	if a.Equal == a.Configs {
		return head + ", " + runs + ": the same figures in both files."
	}
	if a.TooFew == a.Configs {
		s := fmt.Sprintf("%s, %s: too few runs for any verdict (--count %d gives one).", head, runs, a.Need)
		if len(a.Largest) > 0 {
			s += fmt.Sprintf(" The largest changes in %s: %s.", metricWords(a.Largest[0].Metrics[0].Name), changesWords(a.Largest, false))
		}
		return s
	}
	var parts []string
	if n := len(a.Changed); n > 0 {
		parts = append(parts, changesWords(a.Changed[:min(n, maxNamed)], true))
		if n > maxNamed {
			parts = append(parts, fmt.Sprintf("%d more changed (the tables below)", n-maxNamed))
		}
	}
	rest := ""
	if len(a.Changed) > 0 {
		rest = " other"
	}
	if a.Same > 0 {
		parts = append(parts, fmt.Sprintf("no significant difference in %d%s", a.Same, rest))
	}
	if a.Inconclusive > 0 {
		parts = append(parts, fmt.Sprintf("inconclusive in %d: a change, but disturbed samples", a.Inconclusive))
	}
	if a.TooFew > 0 {
		parts = append(parts, fmt.Sprintf("too few runs for a verdict in %d (--count %d gives one)", a.TooFew, a.Need))
	}
	return head + ", " + runs + ": " + strings.Join(parts, "; ") + "."
}

// metricWords names a metric: "throughput", "p50 latency", "B/op".
func metricWords(name string) string {
	switch name {
	case "p50", "p99":
		return name + " latency"
	}
	return name
}

// changesWords lists changes: "linearpipe-10 on 2 CPUs +194.4%, …", or
// with their metrics and verdicts, "finelocking on 2 CPUs, throughput
// +24.4% better, p50 latency -19.6% better; …".
func changesWords(cs []ConfigChange, verdicts bool) string {
	words := make([]string, len(cs))
	for i, c := range cs {
		if !verdicts {
			words[i] = c.Key.brief() + " " + format.Delta(c.Metrics[0].DeltaPct)
			continue
		}
		ms := make([]string, len(c.Metrics))
		for j, m := range c.Metrics {
			ms[j] = metricWords(m.Name) + " " + format.Delta(m.DeltaPct) + " " + changeWord(m.Change)
		}
		words[i] = c.Key.brief() + ", " + strings.Join(ms, ", ")
	}
	if verdicts {
		return strings.Join(words, "; ")
	}
	return strings.Join(words, ", ")
}

// brief names a configuration in words: "finelocking on 2 CPUs",
// "multi-2 on 4 CPUs with 8 customers", "locking on 8 CPUs (go)" for a
// prediction, a benchmark by its name.
func (k Key) brief() string {
	if k.Bench {
		return results.BenchName(k.Mode, k.CPUs)
	}
	s := k.Mode + " on " + format.Count(k.CPUs, "CPU")
	if k.Par != k.CPUs {
		s += " with " + format.Count(k.Par, "customer")
	}
	if k.Rate > 0 {
		s += " at " + format.Number(k.Rate) + " orders/s"
	}
	if labels := k.Steps.NonDefault(); len(labels) > 0 {
		s += " (" + strings.Join(labels, " ") + ")"
	}
	if k.Model && k.Sched != "" {
		s += " (" + k.Sched + ")"
	}
	return s
}
