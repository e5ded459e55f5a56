package compare

import (
	"slices"

	"golang.org/x/perf/benchmath"
)

// SummarizeValues summarizes repeated measurements of one figure as
// Compare summarizes a side: their median with its 95 % interval, infinite
// with fewer values than RunsForInterval. values is left as it is.
func SummarizeValues(values []float64) Summary {
	return summarize(benchmath.NewSample(slices.Clone(values), &benchmath.Thresholds{CompareAlpha: Options{}.alpha()}))
}

// RunsForInterval is the fewest values whose median SummarizeValues can
// bound and Compare can tell apart at its default alpha: 6.
func RunsForInterval() int {
	alpha := Options{}.alpha()
	return need(alpha, &benchmath.Thresholds{CompareAlpha: alpha})
}
