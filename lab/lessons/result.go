package lessons

import (
	"fmt"

	"github.com/brewput/brewput/results/lesson"
)

// Follows reports whether r's the verdict follows from the figure by the
// rule, as Run decides it: a figure that is disturbed, failed or has too
// few samples gives lesson.Inconclusive; any other gives Rule.Decide of its
// interval.
func Follows(r lesson.Result) error {
	want := r.Rule.Decide(r.Figure.Lo, r.Figure.Hi)
	if r.Disturbed || r.Error != "" || r.Figure.N == 0 || (!r.Model && r.Figure.N < minRuns()) {
		want = lesson.Inconclusive
	}
	if r.Verdict != want {
		return fmt.Errorf("%s: verdict %q, but the figure %s against %s gives %q", r.Claim, r.Verdict, r.FigureText(), r.RuleText(), want)
	}
	return nil
}
