package compare

import (
	"cmp"
	"math"
	"slices"

	"github.com/brewput/brewput/results/comparison"
)

// kindOf says which kind of configuration k is, for Answer.
func kindOf(k comparison.Key) string {
	switch {
	case k.Bench:
		return "bench"
	case k.Model:
		return "model"
	}
	return "measured"
}

// answers sums rows up, an Answer per kind, measured first, then the
// model's, then benchmarks.
func answers(rows []comparison.Row) []comparison.Answer {
	var out []comparison.Answer
	for _, kind := range []string{"measured", "model", "bench"} {
		a := comparison.Answer{Kind: kind, Changed: []comparison.ConfigChange{}, MinRuns: math.MaxInt}
		var untold []comparison.ConfigChange
		for _, r := range rows {
			if kindOf(r.Key) != kind || len(r.Metrics) == 0 {
				continue
			}
			a.Configs++
			changed := comparison.ConfigChange{Key: r.Key}
			inconclusive, tooFew, equal := false, true, true
			for _, m := range r.Metrics {
				a.MinRuns = min(a.MinRuns, m.Old.N, m.New.N)
				a.MaxRuns = max(a.MaxRuns, m.Old.N, m.New.N)
				if m.Significant && m.Change != 0 {
					changed.Metrics = append(changed.Metrics, comparison.MetricDelta{Name: m.Name, DeltaPct: m.DeltaPct, Change: m.Change})
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
					untold = append(untold, comparison.ConfigChange{Key: r.Key, Metrics: []comparison.MetricDelta{{Name: first.Name, DeltaPct: first.DeltaPct}}})
				}
			default:
				a.Same++
			}
		}
		if a.Configs == 0 {
			continue
		}
		larger := func(a, b comparison.ConfigChange) int {
			return cmp.Compare(math.Abs(b.Metrics[0].DeltaPct), math.Abs(a.Metrics[0].DeltaPct))
		}
		slices.SortStableFunc(a.Changed, larger)
		if a.TooFew == a.Configs {
			slices.SortStableFunc(untold, larger)
			a.Largest = untold[:min(len(untold), comparison.MaxNamed)]
		}
		out = append(out, a)
	}
	return out
}
