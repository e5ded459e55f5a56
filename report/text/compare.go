package text

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/comparison"
	"github.com/brewput/brewput/results/stats"

	"golang.org/x/perf/benchmath"
	"golang.org/x/perf/benchunit"
)

// WriteComparison writes the comparison for people: the two sides, the
// answer, a table per metric and unit (blocksOf), the keys of one side.
func WriteComparison(w io.Writer, c comparison.Comparison) error {
	var b bytes.Buffer
	width := format.Width(w)
	sides := fmt.Sprintf("old: %s   new: %s", describeSide(c.Old), describeSide(c.New))
	if utf8.RuneCountInString(sides) > width {
		sides = format.Wrap("old: "+describeSide(c.Old), width, "  ") + "\n" + format.Wrap("new: "+describeSide(c.New), width, "  ")
	}
	b.WriteString(sides + "\n")
	if c.Changed != "" {
		fmt.Fprintf(&b, "compared across a change of %s\n", c.Changed)
	}
	if c.Old.ModelPoints+c.New.ModelPoints > 0 && !(allModel(c.Old) && allModel(c.New)) {
		b.WriteString(format.Wrap("predictions are matched only with predictions, measurements with measurements", width, "") + "\n")
	}
	for _, a := range c.Answers {
		b.WriteString(format.Wrap(answerWords(a), width, "") + "\n")
	}
	blocks, left := blocksOf(c)
	for _, bl := range blocks {
		b.WriteString("\n")
		writeBlock(&b, c, bl)
	}
	if left > 0 {
		b.WriteString("\n" + format.Wrap(fmt.Sprintf("The figures of %s with too few runs for a verdict are summed up above; --all shows them.",
			format.Count(left, "configuration")), width, "") + "\n")
	}
	if len(c.Rows) == 0 {
		b.WriteString("\nno configuration is in both old and new\n")
	}
	writeKeys(&b, "only in old", c.OnlyOld)
	writeKeys(&b, "only in new", c.OnlyNew)
	_, err := w.Write(b.Bytes())
	return err
}

// describeSide says where a side's points come from: "hostA (54 points, count 6)".
func describeSide(s comparison.Side) string {
	if s.Points == 0 {
		return "no points"
	}
	sources := collect.Mapped(s.Sources, func(src string) string { return cmp.Or(src, "(no source)") })
	count := fmt.Sprintf("count %d", s.MaxCount)
	if s.MinCount != s.MaxCount {
		count = fmt.Sprintf("count %d-%d", s.MinCount, s.MaxCount)
	}
	if s.Disturbed > 0 {
		count += fmt.Sprintf(", %d disturbed", s.Disturbed)
	}
	return fmt.Sprintf("%s (%s, %s)", strings.Join(sources, ", "), format.Count(s.Points, "point"), count)
}

// block is one table: a metric in one unit; partial says rows were left out.
type block struct {
	name, unit, better string
	keys               []comparison.Key
	metrics            []comparison.Metric
	partial            bool
}

// blocksOf splits the rows into tables, throughput, p50 and p99 first;
// without All it leaves out (and counts) those with too few runs.
func blocksOf(c comparison.Comparison) (out []*block, left int) {
	for _, r := range c.Rows {
		dropped := false
		for _, m := range r.Metrics {
			i := slices.IndexFunc(out, func(b *block) bool { return b.name == m.Name && b.unit == m.Unit })
			if i < 0 {
				i = len(out)
				out = append(out, &block{name: m.Name, unit: m.Unit, better: m.Better})
			}
			if !c.All && !r.Key.Bench && m.TooFew {
				out[i].partial, dropped = true, true
				continue
			}
			out[i].keys = append(out[i].keys, r.Key)
			out[i].metrics = append(out[i].metrics, m)
		}
		if dropped {
			left++
		}
	}
	out = slices.DeleteFunc(out, func(b *block) bool { return len(b.keys) == 0 })
	first := []string{"throughput", "p50", "p99"}
	rank := func(b *block) int { return cmp.Or(slices.Index(first, b.name)+1, len(first)+1) }
	slices.SortStableFunc(out, func(a, b *block) int { return rank(a) - rank(b) })
	return out, left
}

func writeBlock(b *bytes.Buffer, c comparison.Comparison, bl *block) {
	if !slices.ContainsFunc(bl.keys, func(k comparison.Key) bool { return !k.Bench }) {
		writeBenchBlock(b, c, bl)
		return
	}
	title := metricWords(bl.name)
	if bl.name == "throughput" || title != bl.name { // not a unit of Go benchmarks' lines
		title += ", " + bl.unit
	}
	fmt.Fprintf(b, "%s (%s is better)\n", title, bl.better)

	// Only the columns some configuration needs: the table fits 80 columns more often.
	open, steps, pars := false, false, false
	for _, k := range bl.keys {
		open = open || k.Rate > 0
		steps = steps || len(k.Steps.NonDefault()) > 0
		pars = pars || k.Par != k.CPUs
	}
	t := format.Table{Align: []format.Align{format.Left, format.Right}, Indent: true, Ragged: true}
	on := []bool{true, true, pars, open, open, steps}
	configCells := func(k comparison.Key) []string {
		rate, maxq := "-", "-"
		if k.Rate > 0 {
			rate, maxq = fmt.Sprintf("%.6g", k.Rate), fmt.Sprint(k.MaxQ)
		}
		return cellsOn(on, k.ModeLabel(), fmt.Sprint(k.CPUs), fmt.Sprint(k.Par), rate, maxq, cmp.Or(strings.Join(k.Steps.NonDefault(), " "), "default"))
	}
	// The mode column is as wide as "geomean", with one or without.
	head := cellsOn(on, fmt.Sprintf("%-7s", "mode"), "cpus", "par", "rate/s", "maxq", "steps")
	t.Row(append(head, "old", "new", "delta", "p", "n", "verdict")...)
	for i, m := range bl.metrics {
		cells := append(configCells(bl.keys[i]), cell(&t, m.Old, format.Digits(m.Old.Median, 4)), cell(&t, m.New, format.Digits(m.New.Median, 4)),
			format.Delta(m.DeltaPct), fmt.Sprintf("%.3f", m.P), comparison.Sizes(m.Old.N, m.New.N))
		verdict := "~"
		switch {
		case m.Inconclusive != "":
			verdict = "inconclusive" + t.Mark(fmt.Sprintf("disturbed (%s): %s", DisturbedText(m), Remedy))
		case m.Significant:
			verdict = ChangeWord(m.Change)
		case m.TooFew:
			verdict = "~ (too few runs)" + t.Mark(fmt.Sprintf(
				"n=%s: too few runs for a verdict, as no difference could reach p < %g; use --count %d",
				comparison.Sizes(m.Old.N, m.New.N), c.Alpha, m.Need))
		}
		t.Row(append(cells, verdict)...)
	}
	if g, ok := geomeanOf(c, bl); ok && !bl.partial {
		cells := append([]string{"geomean"}, make([]string, len(head)-1)...)
		t.Row(append(cells, format.Digits(g.Old, 4), format.Digits(g.New, 4), format.Delta(g.DeltaPct))...)
	}
	t.Write(b)
}

// writeBenchBlock writes a table of Go benchmarks as benchstat does.
func writeBenchBlock(b *bytes.Buffer, c comparison.Comparison, bl *block) {
	_, unit := benchunit.Tidy(1, bl.name)
	fmt.Fprintf(b, "%s (%s is better)\n", unit, bl.better)
	t := format.Table{Align: []format.Align{format.Left, format.Right}, Indent: true}
	value := func(v float64) string {
		s, _ := results.FormatBenchValue(v, bl.name)
		return s
	}
	t.Row("benchmark", "old", "new", "vs old")
	for i, m := range bl.metrics {
		pn := fmt.Sprintf(" (p=%.3f n=%s)", m.P, comparison.Sizes(m.Old.N, m.New.N))
		vs := "~" + pn
		if m.Inconclusive != "" {
			vs = "inconclusive" + pn + t.Mark(fmt.Sprintf("disturbed (%s): %s", DisturbedText(m), Remedy))
		} else if m.Significant {
			vs = format.Delta(m.DeltaPct) + pn
		} else if m.TooFew {
			vs += t.Mark(fmt.Sprintf("need >= %d runs (--count) to detect a difference at alpha level %g", m.Need, c.Alpha))
		}
		t.Row(bl.keys[i].String(), cell(&t, m.Old, value(m.Old.Median)), cell(&t, m.New, value(m.New.Median)), vs)
	}
	if g, ok := geomeanOf(c, bl); ok {
		t.Row("geomean", value(g.Old), value(g.New), format.Delta(g.DeltaPct))
	}
	t.Write(b)
}

// geomeanOf is the block's geomean row, where it summarizes several rows.
func geomeanOf(c comparison.Comparison, bl *block) (comparison.Geomean, bool) {
	i := slices.IndexFunc(c.Geomeans, func(g comparison.Geomean) bool { return g.Name == bl.name && g.Unit == bl.unit && g.Rows > 1 })
	if i < 0 {
		return comparison.Geomean{}, false
	}
	return c.Geomeans[i], true
}

// cell writes a median ± its interval, "498.3 ± 2%", warnings as t's footnotes.
func cell(t *format.Table, s stats.Summary, median string) string {
	cell := median + " ± " + benchmath.Summary{Center: s.Median, Lo: s.Lo, Hi: s.Hi}.PctRangeString()
	for _, w := range s.Warnings {
		cell += t.Mark(w)
	}
	return cell
}

func writeKeys(b *bytes.Buffer, title string, keys []comparison.Key) {
	if len(keys) == 0 {
		return
	}
	fmt.Fprintf(b, "\n%s (%d):\n", title, len(keys))
	// A configuration on several CPU counts, a customer per CPU, is one
	// line: "finelocking (model go) cpus=3,4,6,8 par=cpus".
	names, by := collect.GroupBy(keys, func(k comparison.Key) (string, bool) {
		if !k.Bench && k.Par == k.CPUs {
			k.CPUs, k.Par = 0, 0
		}
		return k.String(), true
	})
	for _, name := range names {
		if ks := by[name]; len(ks) == 1 {
			name = ks[0].String()
		} else {
			cpus := collect.Mapped(ks, func(k comparison.Key) int { return k.CPUs })
			slices.Sort(cpus)
			name = strings.Replace(name, "cpus=0 par=0", "cpus="+format.Ints(cpus, ",")+" par=cpus", 1)
		}
		fmt.Fprintf(b, "  %s\n", name)
	}
}

// answerWords says an answer: "Measured, 3 configurations in both, 6 runs
// each: finelocking on 2 CPUs, throughput +24.4% better; …".
func answerWords(a comparison.Answer) string {
	runs := format.Count(a.MinRuns, "run") + " each"
	if a.MinRuns != a.MaxRuns {
		runs = fmt.Sprintf("%d to %d runs each", a.MinRuns, a.MaxRuns)
	}
	head := map[string]string{"measured": "Measured", "model": "Predicted by the model", "bench": "Benchmarks"}[a.Kind] +
		", " + format.Count(a.Configs, "configuration") + " in both"
	if a.Equal == a.Configs {
		return head + ", " + runs + ": the same figures in both files."
	}
	if a.TooFew == a.Configs {
		s := fmt.Sprintf("%s, %s: too few runs for any verdict (--count %d gives one).", head, runs, a.Need)
		if len(a.Largest) > 0 {
			s += fmt.Sprintf(" The largest changes in %s: %s.", metricWords(a.Largest[0].Metrics[0].Name), changesWords(a.Largest, false))
		}
		return s
	}
	var parts []string
	if n := len(a.Changed); n > 0 {
		parts = append(parts, changesWords(a.Changed[:min(n, comparison.MaxNamed)], true))
		if n > comparison.MaxNamed {
			parts = append(parts, fmt.Sprintf("%d more changed (the tables below)", n-comparison.MaxNamed))
		}
	}
	rest := ""
	if len(a.Changed) > 0 {
		rest = " other"
	}
	if a.Same > 0 {
		parts = append(parts, fmt.Sprintf("no significant difference in %d%s", a.Same, rest))
	}
	if a.Inconclusive > 0 {
		parts = append(parts, fmt.Sprintf("inconclusive in %d: a change, but disturbed samples", a.Inconclusive))
	}
	if a.TooFew > 0 {
		parts = append(parts, fmt.Sprintf("too few runs for a verdict in %d (--count %d gives one)", a.TooFew, a.Need))
	}
	return head + ", " + runs + ": " + strings.Join(parts, "; ") + "."
}

// metricWords names a metric: "throughput", "p50 latency", "B/op".
func metricWords(name string) string {
	switch name {
	case "p50", "p99":
		return name + " latency"
	}
	return name
}

// changesWords lists changes: "linearpipe-10 on 2 CPUs +194.4%, …", or with
// their verdicts, "finelocking on 2 CPUs, throughput +24.4% better; …".
func changesWords(cs []comparison.ConfigChange, verdicts bool) string {
	words := make([]string, len(cs))
	for i, c := range cs {
		if !verdicts {
			words[i] = brief(c.Key) + " " + format.Delta(c.Metrics[0].DeltaPct)
			continue
		}
		ms := collect.Mapped(c.Metrics, func(m comparison.MetricDelta) string {
			return metricWords(m.Name) + " " + format.Delta(m.DeltaPct) + " " + ChangeWord(m.Change)
		})
		words[i] = brief(c.Key) + ", " + strings.Join(ms, ", ")
	}
	if verdicts {
		return strings.Join(words, "; ")
	}
	return strings.Join(words, ", ")
}

// brief names a configuration in words: "multi-2 on 4 CPUs with 8 customers".
func brief(k comparison.Key) string {
	if k.Bench {
		return results.BenchName(k.Mode, k.CPUs)
	}
	s := k.Mode + " on " + format.Count(k.CPUs, "CPU")
	if k.Par != k.CPUs {
		s += " with " + format.Count(k.Par, "customer")
	}
	if k.Rate > 0 {
		s += " at " + format.Number(k.Rate) + " orders/s"
	}
	if labels := k.Steps.NonDefault(); len(labels) > 0 {
		s += " (" + strings.Join(labels, " ") + ")"
	}
	if k.Model && k.Sched != "" {
		s += " (" + k.Sched + ")"
	}
	return s
}

// allModel reports whether every point of the side is the model's.
func allModel(s comparison.Side) bool { return s.Points > 0 && s.ModelPoints == s.Points }

// WriteCompared writes c in format, "table" (WriteComparison) or "json".
func WriteCompared(w io.Writer, c comparison.Comparison, format string) error {
	if format == "json" {
		return c.WriteJSON(w)
	}
	return WriteComparison(w, c)
}
