package compare

import (
	"slices"

	"golang.org/x/perf/benchmath"
)

// SummarizeValues summarizes repeated measurements of one figure as Compare
// summarizes each side of a comparison: their median with its 95 %
// confidence interval (benchmath's, which assumes nothing about the
// distribution), infinite at both ends with fewer values than
// RunsForInterval. values is left as it is; the Summary holds a sorted
// copy.
func SummarizeValues(values []float64) Summary {
	return summarize(benchmath.NewSample(slices.Clone(values), &benchmath.Thresholds{CompareAlpha: Options{}.alpha()}))
}

// RunsForInterval is the fewest values whose median SummarizeValues can
// bound at 95 % and that Compare can tell apart from another side's at its
// default significance level, 0.05: 6.
func RunsForInterval() int {
	alpha := Options{}.alpha()
	return need(alpha, &benchmath.Thresholds{CompareAlpha: alpha})
}
