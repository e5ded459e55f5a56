// Package stats summarizes repeated measurements of one figure: their
// median and its confidence interval, assuming nothing of how they are
// distributed, as benchstat does; every part of brewput summarizes here,
// so that they agree.
package stats

import (
	"math"
	"slices"

	"golang.org/x/perf/benchmath"

	"github.com/brewput/brewput/internal/base/jsonout"
)

// Confidence is the level of a median's interval, as in benchstat.
const Confidence = 0.95

// Alpha is the significance level a comparison uses unless told another.
const Alpha = 0.05

// Summary summarizes one side's samples of a metric.
type Summary struct {
	N int `json:"n"`
	// Median is the sample median; Lo and Hi bound its confidence
	// interval, infinite with too few samples (fewer than 6 at 95 %).
	Median float64 `json:"median"`
	Lo     float64 `json:"lo"`
	Hi     float64 `json:"hi"`
	// Values are the samples, ascending.
	Values []float64 `json:"values"`
	// Warnings say what is wrong with the interval, if anything.
	Warnings []string `json:"warnings,omitempty"`
	// Disturbed counts the samples disturbed (results.Point.IsDisturbed).
	Disturbed int `json:"disturbed,omitempty"`
}

// Of summarizes a sample: its median and the median's interval.
func Of(s *benchmath.Sample) Summary {
	sum := benchmath.AssumeNothing.Summary(s, Confidence)
	out := Summary{N: len(s.Values), Median: sum.Center, Lo: sum.Lo, Hi: sum.Hi, Values: s.Values}
	for _, w := range sum.Warnings {
		out.Warnings = append(out.Warnings, w.Error())
	}
	return out
}

// Values summarizes repeated measurements of one figure as a comparison
// summarizes a side, leaving values as they are.
func Values(values []float64) Summary {
	return Of(benchmath.NewSample(slices.Clone(values), &benchmath.Thresholds{CompareAlpha: Alpha}))
}

// RunsForInterval is the fewest values whose median Values can bound and
// a comparison can tell apart at Alpha: 6.
func RunsForInterval() int { return RunsFor(Alpha) }

// RunsFor is the fewest runs per side that can both show a difference at
// alpha and bound the median's interval: 6 at 0.05 and 95 %.
func RunsFor(alpha float64) int {
	const most = 50
	t := &benchmath.Thresholds{CompareAlpha: alpha}
	for n := 2; n < most; n++ {
		ci := benchmath.AssumeNothing.Summary(benchmath.NewSample(seq(0, n), t), Confidence)
		if MinP(n, n, alpha) < alpha && !math.IsInf(ci.Lo, 0) && !math.IsInf(ci.Hi, 0) {
			return n
		}
	}
	return most
}

// MinP is the smallest p-value benchmath's U test gives samples of n1 and
// n2 values, that of two samples with no overlap.
func MinP(n1, n2 int, alpha float64) float64 {
	t := &benchmath.Thresholds{CompareAlpha: alpha}
	return benchmath.AssumeNothing.Compare(benchmath.NewSample(seq(0, n1), t), benchmath.NewSample(seq(n1, n2), t)).P
}

func seq(from, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = float64(from + i)
	}
	return out
}

// MarshalJSON writes infinite interval bounds as null.
func (s Summary) MarshalJSON() ([]byte, error) {
	type plain Summary // without this method
	return jsonout.Marshal(struct {
		plain
		Lo *float64 `json:"lo"`
		Hi *float64 `json:"hi"`
	}{plain(s), jsonout.Finite(s.Lo), jsonout.Finite(s.Hi)})
}
