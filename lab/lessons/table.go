package lessons

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

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
	rows := [][]string{{"claim", "verdict", "brewput (95 % interval)", "claim's side", "n", "cpus", "others kept/all"}}
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
		rows = append(rows, []string{r.Claim, verdict, r.FigureText(), r.RuleText(), strconv.Itoa(r.Figure.N), cpuList(r.CPUs), others})
	}
	widths := make([]int, len(rows[0]))
	for _, row := range rows {
		for i, cell := range row {
			widths[i] = max(widths[i], utf8.RuneCountInString(cell))
		}
	}
	var b strings.Builder
	line := func(row []string) {
		for i, cell := range row {
			pad := widths[i] - utf8.RuneCountInString(cell)
			if i == len(row)-1 {
				pad = 0
			}
			b.WriteString(cell + strings.Repeat(" ", pad))
			if i < len(row)-1 {
				b.WriteString("  ")
			}
		}
		b.WriteString("\n")
	}
	line(rows[0])
	for i, r := range rs {
		line(rows[i+1])
		fmt.Fprintf(&b, "    %s: %s\n", r.Seed, r.Text)
		fmt.Fprintf(&b, "    seed's figure: %s\n", r.SeedFigure)
		fmt.Fprintf(&b, "    brewput's: %s; %s\n", r.Measures, r.Reason)
	}
	fmt.Fprintf(&b, "\n%s\n", lesson.Tally(rs))
	_, err := io.WriteString(w, b.String())
	return err
}

// Line says one result in a line, for progress: "talk/ideal-scales:
// reproduced, ×1.99 [1.97, 2.00] (claim ≥ ×1.70), cpus 1,2, others 0.05
// CPUs".
func Line(r lesson.Result) string {
	s := fmt.Sprintf("%s: %s, %s (claim %s), cpus %s", r.Claim, r.Verdict, r.FigureText(), r.RuleText(), cpuList(r.CPUs))
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

// cpuList writes CPU counts as "1,2".
func cpuList(cpus []int) string {
	s := make([]string, len(cpus))
	for i, n := range cpus {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}
