package verdict

import (
	"strconv"

	"github.com/brewput/brewput/results"
)

func itoa(n int) string     { return strconv.Itoa(n) }
func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// most returns the most of f over es, 0 for none: the throughput the best
// of a count are near.
func most[E any](es []E, f func(E) float64) float64 {
	m := 0.0
	for _, e := range es {
		m = max(m, f(e))
	}
	return m
}

// spread is the range of the throughput and of the median latency of the
// best of a count, as they are added.
type spread struct {
	n                    int
	lo, hi, p50Lo, p50Hi float64
}

func (s *spread) add(tput, p50 float64) {
	if s.n == 0 {
		s.lo, s.hi, s.p50Lo, s.p50Hi = tput, tput, p50, p50
	}
	s.n++
	s.lo, s.hi = min(s.lo, tput), max(s.hi, tput)
	s.p50Lo, s.p50Hi = min(s.p50Lo, p50), max(s.p50Hi, p50)
}

// sentences are an answer's sentences: one for each count of interest,
// then the one on scaling, where there is one.
func sentences(counts []Standing, scaling string) []string {
	var out []string
	for _, c := range counts {
		out = append(out, c.Sentence)
	}
	if scaling != "" {
		out = append(out, scaling)
	}
	return out
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
