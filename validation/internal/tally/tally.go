// Package tally counts predicted speed-ups against measured ones, as
// reallibs and pubtables report them: how many lie in their bands, how
// far off the points are, and the naive guess's error beside them.
package tally

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
)

// Slack is how far outside its band a measured speed-up may lie and still
// count as held.
const Slack = 0.10

// Within says whether got lies in [lo, hi], Slack outside it allowed.
func Within(got, lo, hi float64) bool { return got >= lo*(1-Slack) && got <= hi*(1+Slack) }

// Off is how far got is from p, either way: 2 is twice or half.
func Off(p, got float64) float64 { return math.Max(got/p, p/got) }

// Stats are the totals of some predicted points.
type Stats struct {
	Points, In, Off2 int
	logErr, logNaive float64
	widths           []float64
	Worst            float64
	WorstAt          string
}

// Add counts a point predicted at point in [lo, hi], the naive guess
// naive, against got measured; where names it, should it be the worst.
func (s *Stats) Add(point, lo, hi, naive, got float64, where string) {
	s.Points++
	if Within(got, lo, hi) {
		s.In++
	}
	e := Off(point, got)
	if e > 2 {
		s.Off2++
	}
	if e > s.Worst {
		s.Worst, s.WorstAt = e, where
	}
	s.logErr += math.Log(e)
	s.logNaive += math.Log(Off(naive, got))
	s.widths = append(s.widths, hi/lo)
}

// Err is the points' geometric mean error, Naive the naive guess's.
func (s Stats) Err() float64   { return math.Exp(s.logErr / float64(max(s.Points, 1))) }
func (s Stats) Naive() float64 { return math.Exp(s.logNaive / float64(max(s.Points, 1))) }

// Width is the median band's width, high over low.
func (s Stats) Width() float64 {
	if len(s.widths) == 0 {
		return 0
	}
	w := slices.Clone(s.widths)
	slices.Sort(w)
	return w[len(w)/2]
}

// WriteKinds prints each kind's totals, a line each.
func WriteKinds(w io.Writer, byKind map[string]*Stats) {
	for _, k := range slices.Sorted(maps.Keys(byKind)) {
		s := byKind[k]
		fmt.Fprintf(w, "  %-15s%3d/%-3d held, %2d >2× off, error ×%.2f (naive ×%.2f), band ×%.2f\n",
			k+":", s.In, s.Points, s.Off2, s.Err(), s.Naive(), s.Width())
	}
}
