package verdict

import (
	"strconv"

	"github.com/brewput/brewput/results"
)

func itoa(n int) string     { return strconv.Itoa(n) }
func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// A point's figures, for values and median.
func throughput(p results.Point) float64 { return p.Throughput }
func p50(p results.Point) float64        { return p.Latency.P50 }
func p99(p results.Point) float64        { return p.Latency.P99 }
func util(p results.Point) float64       { return p.Util }

// values are f of each point.
func values(points []results.Point, f func(results.Point) float64) []float64 {
	out := make([]float64, len(points))
	for i, p := range points {
		out[i] = f(p)
	}
	return out
}

// median is the median of f over points.
func median(points []results.Point, f func(results.Point) float64) float64 {
	return results.Median(values(points, f))
}

// groupBy groups points by key, leaving out those key refuses: the keys
// in the order their first point comes, and each key's points in theirs.
func groupBy[K comparable](points []results.Point, key func(results.Point) (K, bool)) ([]K, map[K][]results.Point) {
	var keys []K
	by := map[K][]results.Point{}
	for _, p := range points {
		k, ok := key(p)
		if !ok {
			continue
		}
		if _, seen := by[k]; !seen {
			keys = append(keys, k)
		}
		by[k] = append(by[k], p)
	}
	return keys, by
}
