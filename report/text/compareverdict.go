package text

import (
	"fmt"
	"strings"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results/comparison"
)

// MetricVerdict says a compared metric's verdict: "+25.2% better",
// "-20.1% worse", "~", "~ (n=1: too few runs …)", "inconclusive: …".
func MetricVerdict(m comparison.Metric) string {
	switch {
	case m.Inconclusive != "":
		return fmt.Sprintf("inconclusive: disturbed (%s); %s", DisturbedText(m), Remedy)
	case m.Significant:
		return format.Delta(m.DeltaPct) + " " + ChangeWord(m.Change)
	case m.TooFew:
		return fmt.Sprintf("~ (n=%s: too few runs for a verdict; use --count %d)", comparison.Sizes(m.Old.N, m.New.N), m.Need)
	}
	return "~"
}

// Remedy says what gives a disturbed comparison a verdict.
const Remedy = "measure both again while nothing else runs (by default brewput measures a " +
	"disturbed point again, up to 3 times)"

// DisturbedText says which side's samples were disturbed: "old 6 of 6, new 1 of 6".
func DisturbedText(m comparison.Metric) string {
	var parts []string
	if m.Old.Disturbed > 0 {
		parts = append(parts, fmt.Sprintf("old %d of %d", m.Old.Disturbed, m.Old.N))
	}
	if m.New.Disturbed > 0 {
		parts = append(parts, fmt.Sprintf("new %d of %d", m.New.Disturbed, m.New.N))
	}
	return strings.Join(parts, ", ")
}

// ChangeWord says a Change in a word; 0 for a significant change is a
// shift that leaves the medians equal.
func ChangeWord(change int) string {
	switch change {
	case 1:
		return "better"
	case -1:
		return "worse"
	}
	return "(medians equal)"
}
