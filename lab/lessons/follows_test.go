package lessons

import (
	"fmt"

	"github.com/brewput/brewput/results/lesson"
)

// Follows checks that r's verdict follows from its figure by its rule, as
// Run decides: inconclusive for a figure disturbed, failed or of too few
// samples, else Rule.Decide of its interval.
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
