package compare

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/brewput/brewput/results"

	"golang.org/x/perf/benchmath"
	"golang.org/x/perf/benchunit"
)

// WriteTable writes the comparison for people, in benchstat's manner: a
// line naming the two sides, then a table per metric (and, for throughput,
// per unit) with a row per configuration: OLD's and NEW's medians ± their
// confidence intervals, the change of the median, the p-value, the sample
// sizes and the verdict, footnotes under it. The configurations only one
// side has come last.
func (c Comparison) WriteTable(w io.Writer) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "old: %s   new: %s\n", c.Old.describe(), c.New.describe())
	if c.Changed != "" {
		fmt.Fprintf(&b, "compared across a change of %s\n", c.Changed)
	}
	if c.Old.ModelPoints+c.New.ModelPoints > 0 && !(c.Old.allModel() && c.New.allModel()) {
		b.WriteString("model predictions are matched only with model predictions, measurements only with measurements\n")
	}
	for _, bl := range c.blocks() {
		b.WriteString("\n")
		c.writeBlock(&b, bl)
	}
	if len(c.Rows) == 0 {
		b.WriteString("\nno configuration is in both old and new\n")
	}
	writeKeys(&b, "only in old", c.OnlyOld)
	writeKeys(&b, "only in new", c.OnlyNew)
	_, err := w.Write(b.Bytes())
	return err
}

// describe says where a side's points come from and how many there are:
// "hostA (54 points, count 6)".
func (s Side) describe() string {
	sources := make([]string, len(s.Sources))
	for i, src := range s.Sources {
		sources[i] = src
		if src == "" {
			sources[i] = "(no source)"
		}
	}
	count := fmt.Sprintf("count %d", s.MaxCount)
	if s.MinCount != s.MaxCount {
		count = fmt.Sprintf("count %d-%d", s.MinCount, s.MaxCount)
	}
	if s.Points == 0 {
		return "no points"
	}
	points := "points"
	if s.Points == 1 {
		points = "point"
	}
	return fmt.Sprintf("%s (%d %s, %s)", strings.Join(sources, ", "), s.Points, points, count)
}

// allModel reports whether every point of the side is the model's.
func (s Side) allModel() bool { return s.Points > 0 && s.ModelPoints == s.Points }

// block is one table: a metric in one unit, over the rows that have it.
type block struct {
	name, unit, better string
	keys               []Key
	metrics            []Metric
}

// blocks splits the rows into tables, metrics in Row order and units in the
// order first seen: throughputs in different units do not mix.
func (c Comparison) blocks() []*block {
	var out []*block
	index := map[[2]string]*block{}
	names := []string{}
	for _, def := range metricDefs() {
		names = append(names, def.name)
	}
	for _, r := range c.Rows { // and the units of Go benchmarks' lines
		for _, m := range r.Metrics {
			if !slices.Contains(names, m.Name) {
				names = append(names, m.Name)
			}
		}
	}
	for _, name := range names {
		for _, r := range c.Rows {
			for _, m := range r.Metrics {
				if m.Name != name {
					continue
				}
				k := [2]string{m.Name, m.Unit}
				if index[k] == nil {
					index[k] = &block{name: m.Name, unit: m.Unit, better: m.Better}
					out = append(out, index[k])
				}
				index[k].keys = append(index[k].keys, r.Key)
				index[k].metrics = append(index[k].metrics, m)
			}
		}
	}
	return out
}

func (c Comparison) writeBlock(b *bytes.Buffer, bl *block) {
	if !slices.ContainsFunc(bl.keys, func(k Key) bool { return !k.Bench }) {
		c.writeBenchBlock(b, bl)
		return
	}
	title := bl.name + ", " + bl.unit
	switch bl.name {
	case "throughput":
	case "p50", "p99":
		title = bl.name + " latency, " + bl.unit
	default: // a unit of Go benchmarks' lines
		title = bl.name
	}
	fmt.Fprintf(b, "%s (%s is better)\n", title, bl.better)

	open, steps, modeWidth := false, false, len("geomean")
	for _, k := range bl.keys {
		open = open || k.Rate > 0
		steps = steps || len(k.Steps.NonDefault()) > 0
		modeWidth = max(modeWidth, len(k.modeLabel()))
	}
	// Numbers align right; padding the mode to the widest one makes its
	// column read left-aligned all the same.
	left := func(s string) string { return fmt.Sprintf("%-*s", modeWidth, s) }
	var notes footnotes
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', tabwriter.AlignRight)
	// Every cell ends in a tab, so that tabwriter aligns it; the verdict,
	// last and left-aligned, follows the cells.
	line := func(cells []string, verdict string) {
		fmt.Fprint(tw, strings.Join(cells, "\t")+"\t")
		if verdict != "" {
			fmt.Fprint(tw, "  "+verdict)
		}
		fmt.Fprintln(tw)
	}
	configCells := func(k Key) []string {
		cells := []string{left(k.modeLabel()), fmt.Sprint(k.CPUs), fmt.Sprint(k.Par)}
		if open && k.Rate > 0 {
			cells = append(cells, fmt.Sprintf("%.6g", k.Rate), fmt.Sprint(k.MaxQ))
		} else if open {
			cells = append(cells, "-", "-")
		}
		if steps {
			cells = append(cells, stepsCell(k.Steps))
		}
		return cells
	}

	head := []string{left("mode"), "cpus", "par"}
	if open {
		head = append(head, "rate/s", "maxq")
	}
	if steps {
		head = append(head, "steps")
	}
	line(append(head, "old", "new", "delta", "p", "n"), "verdict")
	for i, m := range bl.metrics {
		cells := append(configCells(bl.keys[i]),
			notes.cell(m.Old), notes.cell(m.New), formatDelta(m.DeltaPct), fmt.Sprintf("%.3f", m.P), sizes(m.Old.N, m.New.N))
		verdict := "~"
		switch {
		case m.Significant:
			verdict = changeWord(m.Change)
		case m.TooFew:
			verdict = "~ (too few runs)" + notes.mark(fmt.Sprintf(
				"n=%s: too few runs for a verdict, as no difference could reach p < %g; use --count %d",
				sizes(m.Old.N, m.New.N), c.Alpha, m.Need))
		}
		line(cells, verdict)
	}
	for _, g := range c.Geomeans {
		if g.Name == bl.name && g.Unit == bl.unit && g.Rows > 1 {
			cells := []string{left("geomean")}
			for range len(head) - 1 {
				cells = append(cells, "")
			}
			line(append(cells, formatNum(g.Old), formatNum(g.New), formatDelta(g.DeltaPct)), "")
		}
	}
	tw.Flush()
	for i, n := range notes {
		fmt.Fprintf(b, "%s %s\n", superscript(i+1), n)
	}
}

// writeBenchBlock writes a table of Go benchmarks as benchstat does: a
// row per benchmark (its -N suffix the CPU count), OLD's and NEW's
// medians ± their confidence intervals in the unit tidied (sec/op for
// ns/op) with SI prefixes, and the change of the median with its p-value
// and the runs, "~" where it is not significant; the geomean under them.
func (c Comparison) writeBenchBlock(b *bytes.Buffer, bl *block) {
	_, unit := benchunit.Tidy(1, bl.name)
	fmt.Fprintf(b, "%s (%s is better)\n", unit, bl.better)
	width := len("benchmark")
	for _, k := range bl.keys {
		width = max(width, len(k.String()))
	}
	var notes footnotes
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', tabwriter.AlignRight)
	line := func(cells ...string) {
		cells[0] = fmt.Sprintf("%-*s", width, cells[0])
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
	}
	cell := func(s Summary) string {
		v, _ := results.FormatBenchValue(s.Median, bl.name)
		out := v + " ± " + benchmath.Summary{Center: s.Median, Lo: s.Lo, Hi: s.Hi}.PctRangeString()
		for _, w := range s.Warnings {
			out += notes.mark(w)
		}
		return out
	}
	line("benchmark", "old", "new", "vs old")
	for i, m := range bl.metrics {
		vs := fmt.Sprintf("~ (p=%.3f n=%s)", m.P, sizes(m.Old.N, m.New.N))
		if m.Significant {
			vs = fmt.Sprintf("%s (p=%.3f n=%s)", formatDelta(m.DeltaPct), m.P, sizes(m.Old.N, m.New.N))
		} else if m.TooFew {
			vs += notes.mark(fmt.Sprintf("need >= %d runs (--count) to detect a difference at alpha level %g", m.Need, c.Alpha))
		}
		line(bl.keys[i].String(), cell(m.Old), cell(m.New), vs)
	}
	for _, g := range c.Geomeans {
		if g.Name == bl.name && g.Unit == bl.unit && g.Rows > 1 {
			o, _ := results.FormatBenchValue(g.Old, bl.name)
			n, _ := results.FormatBenchValue(g.New, bl.name)
			line("geomean", o, n, formatDelta(g.DeltaPct))
		}
	}
	tw.Flush()
	for i, n := range notes {
		fmt.Fprintf(b, "%s %s\n", superscript(i+1), n)
	}
}

// footnotes collects a table's notes, each once, numbered in order.
type footnotes []string

// mark returns the marker for note, adding it if new.
func (f *footnotes) mark(note string) string {
	for i, n := range *f {
		if n == note {
			return " " + superscript(i+1)
		}
	}
	*f = append(*f, note)
	return " " + superscript(len(*f))
}

// cell formats a summary as "498.3 ± 2%", with a note on an interval
// that is unbounded for too few samples.
func (f *footnotes) cell(s Summary) string {
	ci := benchmath.Summary{Center: s.Median, Lo: s.Lo, Hi: s.Hi}.PctRangeString()
	cell := formatNum(s.Median) + " ± " + ci
	for _, w := range s.Warnings {
		cell += f.mark(w)
	}
	return cell
}

// stepsCell names the steps that are not the default, if any.
func stepsCell(s results.Steps) string {
	if labels := s.NonDefault(); len(labels) > 0 {
		return strings.Join(labels, " ")
	}
	return "default"
}

func superscript(n int) string {
	digits := []rune("⁰¹²³⁴⁵⁶⁷⁸⁹")
	var s []rune
	for _, d := range fmt.Sprint(n) {
		s = append(s, digits[d-'0'])
	}
	return string(s)
}

// formatNum formats v with four significant digits and no exponent, as
// benchstat does, without its SI prefixes, which would make "m" of a ms.
func formatNum(v float64) string {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Sprint(v)
	}
	intDigits := int(math.Floor(math.Log10(math.Abs(v)))) + 1
	return fmt.Sprintf("%.*f", max(0, 4-intDigits), v)
}

func writeKeys(b *bytes.Buffer, title string, keys []Key) {
	if len(keys) == 0 {
		return
	}
	fmt.Fprintf(b, "\n%s (%d):\n", title, len(keys))
	for _, k := range keys {
		fmt.Fprintf(b, "  %s\n", k)
	}
}
