package verdict

import (
	"cmp"
	"math"
	"slices"

	"github.com/brewput/brewput/explain/compare"
	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
	"github.com/brewput/brewput/results/stats"
)

// versus is pa's median throughput over pb's (analysis.Versus).
func versus(variant string, pa, pb []results.Point) analysis.Versus {
	a, b := collect.Mapped(pa, throughput), collect.Mapped(pb, throughput)
	sa, sb := stats.Values(a), stats.Values(b)
	v := analysis.Versus{Variant: variant, Throughput: sa.Median, Ratio: math.NaN(), Runs: [2]int{len(a), len(b)},
		Disturbed: slices.ContainsFunc(pa, measuredDisturbed) || slices.ContainsFunc(pb, measuredDisturbed)}
	if sb.Median > 0 {
		v.Ratio = sa.Median / sb.Median
	}
	v.Lo, v.Hi = compare.RatioRange(sa, sb)
	return v
}

// series is one variant's runs at one CPU count.
type series struct {
	variant string
	points  []results.Point
}

// standing answers one CPU count from each variant's runs there;
// host is the machine they were measured on (see analysis.Standing);
// countFlag is how the measuring command spells --count.
func standing(cpus int, host, unit, countFlag string, variants []series) analysis.Standing {
	s := analysis.Standing{CPUs: cpus, Host: host, Unit: unit, CountFlag: countFlag, RunsForInterval: stats.RunsForInterval()}
	// The top is the most of the variants with no disturbed run; where
	// every variant has one, the most of all, inconclusive.
	top, clean := -1, -1
	medians := make([]float64, len(variants))
	s.Every = len(variants) > 0
	for i, v := range variants {
		medians[i] = median(v.points, throughput)
		if top < 0 || medians[i] > medians[top] {
			top = i
		}
		d, disturbed := disturbedRuns(v.variant, v.points)
		if disturbed {
			s.Disturbed = append(s.Disturbed, d)
		} else if clean < 0 || medians[i] > medians[clean] {
			clean = i
		}
		for _, p := range v.points {
			s.Every = s.Every && measuredDisturbed(p)
		}
	}
	if top < 0 {
		return s
	}
	if clean >= 0 {
		top = clean
	} else {
		s.Inconclusive = analysis.InconclusiveDisturbed
	}
	s.Top, s.TopThroughput = variants[top].variant, medians[top]
	s.TopP50 = median(variants[top].points, p50)
	var all []analysis.Versus
	for i, v := range variants {
		if i != top {
			all = append(all, versus(v.variant, v.points, variants[top].points))
		}
	}
	slices.SortStableFunc(all, func(a, b analysis.Versus) int { return cmp.Compare(b.Throughput, a.Throughput) })
	for _, v := range all {
		switch {
		case v.Disturbed:
			s.Untold = append(s.Untold, v)
		case !v.Known():
			s.Unknown = append(s.Unknown, v)
		case v.Differs():
			s.Less = append(s.Less, v)
		default:
			s.Same = append(s.Same, v)
		}
	}
	return s
}

// disturbedRuns are a variant's disturbed runs; ok is false for none.
func disturbedRuns(variant string, points []results.Point) (analysis.Runs, bool) {
	r := analysis.Runs{Variant: variant, Of: len(points)}
	for i, p := range points {
		if measuredDisturbed(p) {
			r.Reps = append(r.Reps, cmp.Or(p.Rep, i+1))
		}
	}
	return r, len(r.Reps) > 0
}

// scalingFrom is how each variant's median throughput changed from one
// CPU count to another (at gives its runs); nil where none has both.
func scalingFrom(from, to int, variants []string, countFlag string, at func(variant string, cpus int) []results.Point) *analysis.Scaling {
	s := &analysis.Scaling{From: from, To: to, CountFlag: countFlag, RunsForInterval: stats.RunsForInterval()}
	for _, v := range variants {
		a, b := at(v, from), at(v, to)
		if len(a) > 0 && len(b) > 0 {
			s.Changes = append(s.Changes, versus(v, b, a))
		}
	}
	if len(s.Changes) == 0 {
		return nil
	}
	return s
}

// countsOfInterest are the CPU counts an answer speaks of: up to four.
func countsOfInterest(counts []int) []int {
	if len(counts) <= 4 {
		return counts
	}
	n := len(counts)
	return []int{counts[0], counts[(n-1)/3], counts[2*(n-1)/3], counts[n-1]}
}

// A point's figures, for median.
func throughput(p results.Point) float64 { return p.Throughput }
func p50(p results.Point) float64        { return p.Latency.P50 }
func p99(p results.Point) float64        { return p.Latency.P99 }
func util(p results.Point) float64       { return p.Metrics[results.Util] }

// median is the median of f over points.
func median(points []results.Point, f func(results.Point) float64) float64 {
	return results.Median(collect.Mapped(points, f))
}
