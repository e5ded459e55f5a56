package text

import (
	"fmt"
	"io"
	"strings"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results/analysis"
)

// FigureTable is a lab figure's numbers as a table: Title says what they
// are; Head names the columns, the x values (none for bars); each row is
// a line's name and its y at each x, "-" where it has none.
type FigureTable struct {
	Title string
	Head  []string
	Rows  [][]string
}

// LabSentences say what makes the most and the least at each count of interest.
func LabSentences(a analysis.LabAnswer) []string {
	name := func(p analysis.LabPoint) string {
		s := p.Variant
		if p.Par > 0 {
			s += fmt.Sprintf(" (par %d)", p.Par)
		}
		return s
	}
	// The CPU time is said in CPUs, not as a share of the count: the
	// process's threads outside GOMAXPROCS can take more than that.
	figures := func(p analysis.LabPoint) string {
		return fmt.Sprintf("%s at a median %s, keeping %s busy", format.Rate(p.Throughput, p.Unit), format.Wait(p.P50), cpusText(p.CPUUsed))
	}
	var out []string
	for _, c := range a.Counts {
		what := ""
		if c.Unit != "" {
			what = " " + c.Unit
		}
		if c.Inconclusive() {
			s := fmt.Sprintf("On %s, inconclusive%s: other processes took CPU from %s while measured, so which makes the most is not known (measure again on a quieter machine)",
				cpus(c.CPUs), what, format.JoinAnd(collect.Mapped(c.Disturbed, name)))
			switch {
			case c.Ranked == 1:
				s += fmt.Sprintf("; %s, not disturbed, makes %s", name(c.Most), figures(c.Most))
			case c.Ranked > 1:
				s += fmt.Sprintf("; of the %d not disturbed, %s makes the most, %s; %s the least, %s", c.Ranked, name(c.Most), figures(c.Most),
					name(c.Least), format.Rate(c.Least.Throughput, c.Least.Unit))
			}
			out = append(out, s+".")
			continue
		}
		if c.Single {
			out = append(out, fmt.Sprintf("On %s, %s makes %s.", cpus(c.CPUs), name(c.Most), figures(c.Most)))
			continue
		}
		out = append(out, fmt.Sprintf("On %s, %s makes the most%s, %s; %s the least, %s (×%s of the most).", cpus(c.CPUs), name(c.Most), what, figures(c.Most),
			name(c.Least), format.Rate(c.Least.Throughput, c.Least.Unit), format.Digits(c.Least.Throughput/c.Most.Throughput, 3)))
	}
	return out
}

// WriteLab writes a lab's answer for a terminal, then the figure's table.
func WriteLab(w io.Writer, a analysis.LabAnswer, table FigureTable) error {
	head := fmt.Sprintf("lab %s, %s: %s on %s", a.Lab, MeasuredOnHosts(a.Origins), format.Count(a.Points, "point"), cpuList(a.CPUs))
	if a.Disturbed > 0 {
		names := format.JoinAnd(a.DisturbedPoints)
		if n := len(a.DisturbedPoints); n > mostNamed {
			names = strings.Join(a.DisturbedPoints[:mostNamed], ", ") + fmt.Sprintf(" and %d more (--format table marks each)", n-mostNamed)
		}
		head += fmt.Sprintf(", %d disturbed (other processes took CPU while they ran): %s", a.Disturbed, names)
	}
	fmt.Fprintln(w, format.Wrap(head, format.Width(w), "  "))
	for _, s := range LabSentences(a) {
		fmt.Fprintln(w, format.Wrap(s, format.Width(w), "  "))
	}
	if len(table.Rows) == 0 {
		return nil
	}
	fmt.Fprintln(w, format.Wrap(table.Title+":", format.Width(w), ""))
	t := format.Table{Align: []format.Align{format.Left, format.Right}, Indent: true}
	if len(table.Head) > 0 {
		t.Row(append([]string{""}, table.Head...)...)
	}
	for _, r := range table.Rows {
		t.Row(r...)
	}
	return t.Write(w)
}

// mostNamed is how many disturbed points the head line names.
const mostNamed = 6
