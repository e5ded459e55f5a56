package report

import (
	"slices"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/results"
)

// groupBy splits xs by key, the keys in the order they first appear.
func groupBy[K comparable, T any](xs []T, key func(T) K) ([]K, map[K][]T) {
	return collect.GroupBy(xs, func(x T) (K, bool) { return key(x), true })
}

// distinct lists the values of f over xs, each once, in order of appearance.
func distinct[T any, V comparable](xs []T, f func(T) V) []V {
	keys, _ := groupBy(xs, f)
	return keys
}

// varies reports whether f differs among xs.
func varies[T any, V comparable](xs []T, f func(T) V) bool {
	return slices.ContainsFunc(xs, func(x T) bool { return f(x) != f(xs[0]) })
}

// cpusOf lists the points' CPU counts, each once, ascending.
func cpusOf(points []results.Point) []int {
	cpus := distinct(points, func(p results.Point) int { return p.CPUs })
	slices.Sort(cpus)
	return cpus
}

// medianOf is the median of f over points.
func medianOf(points []results.Point, f func(results.Point) float64) float64 {
	return results.Median(collect.Mapped(points, f))
}
