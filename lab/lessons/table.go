package lessons

import (
	"fmt"
	"io"
	"strconv"

	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/results/lesson"
)

// WriteTable writes rs for people: for each claim a row of its name,
// verdict, brewput's figure with its 95 % interval, the claim's
// threshold, the samples, the CPU counts and how many CPUs other
// processes took meanwhile, on average over the samples kept and over all
// of them, the discarded included; under it the seed file and the claim in one
// line, the seed's figure, and the reason for the verdict. The tally
// ends it.
func WriteTable(w io.Writer, rs []lesson.Result) error {
	t := format.Table{Ragged: true}
	t.Row("claim", "verdict", "brewput (95 % interval)", "claim's side", "n", "cpus", "others kept/all")
	for _, r := range rs {
		others := fmt.Sprintf("%.2f/%.2f", r.Others, r.OthersAll)
		switch {
		case r.Model:
			others = "model"
		case r.Figure.N == 0:
			others = fmt.Sprintf("–/%.2f", r.OthersAll)
		}
		verdict := string(r.Verdict)
		if r.Disturbed {
			verdict += ", disturbed"
		}
		t.Row(r.Claim, verdict, r.FigureText(), r.RuleText(), strconv.Itoa(r.Figure.N), format.Ints(r.CPUs, ","), others)
		t.Line(fmt.Sprintf("    %s: %s", r.Seed, r.Text))
		t.Line("    seed's figure: " + r.SeedFigure)
		t.Line(fmt.Sprintf("    brewput's: %s; %s", r.Measures, r.Reason))
	}
	t.Line("")
	t.Line(lesson.Tally(rs))
	return t.Write(w)
}

// Line says one result in a line, for progress: "talk/ideal-scales:
// reproduced, ×1.99 [1.97, 2.00] (claim ≥ ×1.70), cpus 1,2, others 0.05
// CPUs".
func Line(r lesson.Result) string {
	s := fmt.Sprintf("%s: %s, %s (claim %s), cpus %s", r.Claim, r.Verdict, r.FigureText(), r.RuleText(), format.Ints(r.CPUs, ","))
	switch {
	case r.Model:
	case r.Error != "":
		s += ": " + r.Reason
	case r.Disturbed:
		s += fmt.Sprintf(", disturbed (others %.2f CPUs)", r.OthersAll)
	default:
		s += fmt.Sprintf(", others %.2f CPUs", r.Others)
	}
	return s
}
