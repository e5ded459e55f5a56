package calibrate

import (
	"math"
	"slices"
	"time"

	"golang.org/x/perf/benchmath"
)

// interval is the median of the repeats' medians and its 95 % confidence
// interval by order statistics (benchmath, as benchstat); the least and
// the most with too few repeats for 95 %.
func interval(medians []time.Duration) (mid, lo, hi time.Duration) {
	xs := make([]float64, len(medians))
	for i, m := range medians {
		xs[i] = float64(m)
	}
	s := benchmath.AssumeNothing.Summary(benchmath.NewSample(xs, &benchmath.DefaultThresholds), 0.95)
	mid = time.Duration(math.Round(s.Center))
	lo, hi = time.Duration(math.Round(s.Lo)), time.Duration(math.Round(s.Hi))
	if math.IsInf(s.Lo, 0) || math.IsInf(s.Hi, 0) || math.IsNaN(s.Lo) || math.IsNaN(s.Hi) {
		lo, hi = slices.Min(medians), slices.Max(medians)
	}
	return mid, min(lo, mid), max(hi, mid)
}

// percentiles returns the 0th to the 100th percentile of xs, nearest rank.
func percentiles(xs []time.Duration) []time.Duration {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	out := make([]time.Duration, 101)
	for q := range out {
		i := (q*(len(xs)-1) + 50) / 100
		out[q] = xs[i]
	}
	return out
}

// less is xs each less d, at least zero.
func less(xs []time.Duration, d time.Duration) []time.Duration {
	out := make([]time.Duration, len(xs))
	for i, x := range xs {
		out[i] = max(x-d, 0)
	}
	return out
}

func median(xs []time.Duration) time.Duration {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	return xs[len(xs)/2]
}
