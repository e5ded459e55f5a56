package verdict

import (
	"fmt"
	"strconv"

	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/results"
)

func itoa(n int) string     { return strconv.Itoa(n) }
func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// rate writes a throughput for people: "498", "1000", "59.9M".
func rate(v float64) string {
	if v >= 1e5 {
		return format.Number(v)
	}
	return fmt.Sprintf("%.0f", v)
}

// rateRange writes "488–498", or one figure where they round alike.
func rateRange(lo, hi float64) string {
	if rate(lo) == rate(hi) {
		return rate(lo)
	}
	return rate(lo) + "–" + rate(hi)
}

// ms writes a latency in ms: "4.00", "12.0", "0.420", "0.0000167".
func ms(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	case v >= 1:
		return fmt.Sprintf("%.2f", v)
	case v >= 0.1 || v <= 0:
		return fmt.Sprintf("%.3f", v)
	}
	return format.Number(v) // three significant digits, as small as it is
}

// msRange writes "4.01–4.21", or one figure.
func msRange(lo, hi float64) string {
	if ms(lo) == ms(hi) {
		return ms(lo)
	}
	return ms(lo) + "–" + ms(hi)
}

// FormatGain writes a relative gain as the verdict does: "+50 %",
// "+7.3 %".
func FormatGain(g float64) string { return format.Gain(g) }

// cpus writes "1 CPU", "6 CPUs".
func cpus(n int) string {
	if n == 1 {
		return "1 CPU"
	}
	return fmt.Sprintf("%d CPUs", n)
}

// cpuSpan writes "1–3", "4", for the counts from a to b of a mode.
func cpuSpan(a, b int) string {
	if a == b {
		return itoa(a)
	}
	return itoa(a) + "–" + itoa(b)
}

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
