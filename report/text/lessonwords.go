package text

import (
	"fmt"
	"math"

	"github.com/brewput/brewput/results/lesson"
)

// LessonFigure says a claim's figure in its unit with its interval:
// "×1.99 [1.97, 2.00]", "1000 lattes/s (model, exact)".
func LessonFigure(r lesson.Result) string {
	f, unit := r.Figure, r.Unit
	switch {
	case f.N == 0 || math.IsNaN(f.Median):
		return "no sample"
	case r.Model:
		return lesson.FormatValue(f.Median, unit) + " (model, exact)"
	case math.IsInf(f.Lo, 0) || math.IsInf(f.Hi, 0):
		return fmt.Sprintf("%s (n=%d: too few for an interval)", lesson.FormatValue(f.Median, unit), f.N)
	}
	return fmt.Sprintf("%s [%s, %s]", lesson.FormatValue(f.Median, unit), lesson.Bare(f.Lo, unit), lesson.Bare(f.Hi, unit))
}

// LessonTally counts the verdicts of rs in one line: "31 claims: 12
// reproduced, …".
func LessonTally(rs []lesson.Result) string {
	var rep, not, inc, dist int
	for _, r := range rs {
		switch r.Verdict {
		case lesson.Reproduced:
			rep++
		case lesson.NotReproduced:
			not++
		default:
			inc++
			if r.Disturbed {
				dist++
			}
		}
	}
	s := fmt.Sprintf("%d claims: %d reproduced, %d not reproduced, %d inconclusive", len(rs), rep, not, inc)
	if dist > 0 {
		s += fmt.Sprintf(" (%d disturbed)", dist)
	}
	return s
}
