package verdict

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/brewput/brewput/results"
)

// measuredDisturbed reports whether p was measured while other processes
// took CPU from it (results.Point.IsDisturbed); a model's point never is.
func measuredDisturbed(p results.Point) bool { return !p.IsModel() && p.IsDisturbed() }

// WriteText writes the verdict for a terminal: its sentences, then a row
// per mode saying what limits it and what the best change gains; then
// each study's sentences, which say what its variants measured and no
// limit.
func (v Verdict) WriteText(w io.Writer) error {
	for _, c := range v.Counts {
		if _, err := fmt.Fprintln(w, wrap(c.Sentence, 110, "")); err != nil {
			return err
		}
	}
	if len(v.Modes) > 0 {
		fmt.Fprintln(w, "What limits each mode at the most CPUs it was run or predicted on, and the best change its causal profile tried:")
	}
	width := 0
	for _, m := range v.Modes {
		width = max(width, len(m.Mode))
	}
	for _, m := range v.Modes {
		head := fmt.Sprintf("  %-*s  ", width, m.Mode)
		text := strings.ReplaceAll(wrap(m.Figures()+": "+m.Says(), 110-len(head), ""), "\n", "\n"+strings.Repeat(" ", len(head)))
		if _, err := fmt.Fprintln(w, head+text); err != nil {
			return err
		}
	}
	for i, d := range v.Studies {
		if i > 0 || len(v.Counts) > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "Study %s, as measured (%s):\n", d.Study, noProfile)
		for _, s := range d.Sentences() {
			if _, err := fmt.Fprintln(w, wrap(s, 110, "")); err != nil {
				return err
			}
		}
	}
	if len(v.Benches) > 0 && (len(v.Counts) > 0 || len(v.Studies) > 0) {
		fmt.Fprintln(w)
	}
	return WriteBenchAnswer(w, v.Benches)
}

// noProfile says in short why a study's verdict names no limit.
const noProfile = "brewput has no model of this code, so it names no limit and recommends no change"

// wrap breaks s into lines of at most width, each after the first
// starting with indent.
func wrap(s string, width int, indent string) string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		if line != "" && len(line)+1+len(word) > width {
			lines = append(lines, line)
			line = indent + word
			continue
		}
		if line == "" {
			line = word
		} else {
			line += " " + word
		}
	}
	return strings.Join(append(lines, line), "\n")
}

// WriteCompact writes the short table of points for a terminal: every
// measured point of the shop, one row each, then the model's predictions
// summarized per mode as ranges over their CPU counts, with what limits
// them where; then each study's variants (package study), a row per
// variant and CPU count with the median of its repetitions, its ratio to
// the most on that count and the meter it used the most — as measured,
// with no limit, brewput having no model of the user's code; then the
// labs' tables and the Go benchmarks', as results.WriteTable writes them.
// results.WriteTable writes every point in full.
func WriteCompact(w io.Writer, points []results.Point) error {
	others, benches := results.SplitBench(points)
	shop, labs, byLab := results.SplitLabs(others)
	var measured, model, studies []results.Point
	for _, p := range shop {
		switch {
		case p.Kind() == results.KindStudy:
			studies = append(studies, p)
		case p.IsModel():
			model = append(model, p)
		default:
			measured = append(measured, p)
		}
	}
	wrote := false
	sep := func() {
		if wrote {
			fmt.Fprintln(w)
		}
		wrote = true
	}
	if len(measured) > 0 {
		sep()
		if err := writeMeasured(w, measured); err != nil {
			return err
		}
	}
	if len(model) > 0 {
		sep()
		if err := writeModelRanges(w, model); err != nil {
			return err
		}
	}
	if len(studies) > 0 {
		sep()
		if err := writeStudies(w, studies); err != nil {
			return err
		}
	}
	for _, l := range labs {
		sep()
		if err := results.WriteTable(w, byLab[l]); err != nil {
			return err
		}
	}
	if len(benches) > 0 {
		sep()
		if err := results.WriteTable(w, benches); err != nil {
			return err
		}
	}
	return nil
}

// writeStudies writes the studies' points compactly: a row per variant,
// CPU count and series (machine and load), the medians of its
// repetitions, the ratio of its throughput to the most of its study on
// that count and series, and the meter its first repetition used the most
// (results.BusiestMeter).
func writeStudies(w io.Writer, points []results.Point) error {
	type key struct {
		study, variant, id string
		cpus               int
	}
	var keys []key
	by := map[key][]results.Point{}
	reps, open := false, false
	var disturbed []string
	origins := map[string]bool{}
	for _, p := range points {
		k := key{p.Study, p.Mode, seriesID(p), p.CPUs}
		if _, ok := by[k]; !ok {
			keys = append(keys, k)
		}
		by[k] = append(by[k], p)
		reps = reps || p.Rep > 0
		open = open || p.Rate > 0
		origins[p.Origin()] = true
	}
	type at struct {
		study, id string
		cpus      int
	}
	most := map[at]float64{}
	tput := func(k key) float64 {
		var xs []float64
		for _, p := range by[k] {
			xs = append(xs, p.Throughput)
		}
		return results.Median(xs)
	}
	for _, k := range keys {
		a := at{k.study, k.id, k.cpus}
		most[a] = max(most[a], tput(k))
	}
	var studies []string
	for _, k := range keys {
		if !slices.Contains(studies, k.study) {
			studies = append(studies, k.study)
		}
	}
	hosts := inOrder(points, origins)
	fmt.Fprintf(w, "study %s, measured on %s: %d points, the median of each variant's runs (no causal profile: brewput has no model of this code)\n", strings.Join(studies, ", "), strings.Join(hosts, ", "), len(points))
	tab := newPointTable(w, len(hosts) > 1, tableHead("variant", reps, "runs", open,
		"throughput\tof the most\tp50\tp99\tcpu util\tmost used meter (held, mean wait)\t"))
	for _, k := range keys {
		ps := by[k]
		p := ps[0]
		var p50, p99, util []float64
		var drops int64
		for _, q := range ps {
			p50 = append(p50, q.Latency.P50)
			p99 = append(p99, q.Latency.P99)
			util = append(util, q.Util)
			drops += q.Drops
		}
		if d := disturbedRuns(p.Mode, ps); d != "" {
			disturbed = append(disturbed, d+" on "+cpus(p.CPUs))
		}
		row := fmt.Sprintf("%s\t%d\t%d\t", p.Mode, p.CPUs, p.Par)
		if reps {
			row += fmt.Sprintf("%d\t", len(ps))
		}
		if open {
			row += fmt.Sprintf("%g\t%d\t", p.Rate, drops)
		}
		share := "-"
		if m := most[at{k.study, k.id, k.cpus}]; m > 0 {
			share = fmt.Sprintf("×%s", ratio(tput(k)/m))
		}
		row += fmt.Sprintf("%s\t%s\t%s\t%s\t%.0f%%\t%s\t", results.FormatRate(tput(k), p.Unit), share,
			results.FormatWait(results.Median(p50)), results.FormatWait(results.Median(p99)), 100*results.Median(util), results.BusiestMeter(p))
		tab.add(row, p)
	}
	if err := tab.tw.Flush(); err != nil {
		return err
	}
	if len(disturbed) > 0 {
		fmt.Fprintln(w, wrap("Disturbed (other processes took CPU while they were measured): "+strings.Join(disturbed, ", ")+".", 110, ""))
	}
	return nil
}

// pointTable is a table of points, columns aligned right, with a last
// column naming each point's source where they come from several hosts.
type pointTable struct {
	tw      *tabwriter.Writer
	sources bool
}

// newPointTable starts a table of points on w under head, tab-separated.
func newPointTable(w io.Writer, sources bool, head string) pointTable {
	t := pointTable{tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight), sources}
	if sources {
		head += "source\t"
	}
	fmt.Fprintln(t.tw, head)
	return t
}

// add writes p's row, its cells tab-separated.
func (t pointTable) add(row string, p results.Point) {
	if t.sources {
		row += p.Origin() + "\t"
	}
	fmt.Fprintln(t.tw, row)
}

// tableHead is the head of a table of points, but for the source: what a
// row is, its CPUs and workers, a column of repetitions (named rep) where
// there are several, the open loop's rate and drops where there is one,
// then the measures.
func tableHead(what string, reps bool, rep string, open bool, measures string) string {
	head := what + "\tcpus\tpar\t"
	if reps {
		head += rep + "\t"
	}
	if open {
		head += "rate/s\tdrops\t"
	}
	return head + measures
}

func writeMeasured(w io.Writer, points []results.Point) error {
	origins, reps, open, disturbed := map[string]bool{}, false, false, 0
	for _, p := range points {
		origins[p.Origin()] = true
		reps = reps || p.Rep > 0
		open = open || p.Rate > 0
	}
	hosts := inOrder(points, origins)
	fmt.Fprintf(w, "measured on %s: %d points\n", strings.Join(hosts, ", "), len(points))
	tab := newPointTable(w, len(hosts) > 1, tableHead("mode", reps, "rep", open,
		"throughput\tp50 ms\tp99 ms\tcpu util\tlimited by\t"))
	for _, p := range points {
		row := fmt.Sprintf("%s\t%d\t%d\t", p.Mode, p.CPUs, p.Par)
		if reps {
			row += fmt.Sprintf("%d\t", max(p.Rep, 1))
		}
		if open {
			row += fmt.Sprintf("%g\t%d\t", p.Rate, p.Drops)
		}
		limit := LimitOf(p.Bottleneck).Named
		if measuredDisturbed(p) {
			limit += " (disturbed)"
			disturbed++
		}
		row += fmt.Sprintf("%s\t%s\t%s\t%.0f%%\t%s\t", results.FormatRate(p.Throughput, p.Unit), results.FormatMs(p.Latency.P50), results.FormatMs(p.Latency.P99), 100*p.Util, limit)
		tab.add(row, p)
	}
	if err := tab.tw.Flush(); err != nil {
		return err
	}
	if disturbed > 0 {
		fmt.Fprintf(w, "(disturbed: other processes took CPU while the point was measured; it says little about the design)\n")
	}
	return nil
}

// loadText says a point's load and policy in short: "go, 4 customers",
// "fifo, 800 orders/s, 2 servers".
func loadText(p results.Point) string {
	parts := []string{p.Sched}
	if p.Rate > 0 {
		parts = append(parts, fmt.Sprintf("%g orders/s", p.Rate))
	}
	switch {
	case p.Par == p.CPUs:
		parts = append(parts, "one per CPU")
	case p.Rate > 0:
		parts = append(parts, fmt.Sprintf("%d servers", p.Par))
	default:
		parts = append(parts, fmt.Sprintf("%d customers", p.Par))
	}
	if p.Harness != "" {
		parts = append(parts, p.Harness+" harness")
	}
	return strings.Join(parts, ", ")
}

// writeModelRanges summarizes the model's points per mode (and policy and
// load, where they differ): the CPU counts, the throughput and median
// latency from least to most, and what limits the mode over which counts.
func writeModelRanges(w io.Writer, points []results.Point) error {
	type group struct {
		mode, id string
		ps       []results.Point
	}
	var groups []*group
	index := map[string]*group{}
	ids := map[string][]string{} // a mode's series
	for _, p := range points {
		id := seriesID(p)
		if !slices.Contains(ids[p.Mode], id) {
			ids[p.Mode] = append(ids[p.Mode], id)
		}
		k := p.Mode + "\x00" + id
		g, ok := index[k]
		if !ok {
			g = &group{mode: p.Mode, id: id}
			index[k] = g
			groups = append(groups, g)
		}
		g.ps = append(g.ps, p)
	}
	scheds := map[string]bool{}
	for _, p := range points {
		scheds[p.Sched] = true
	}
	what := "model"
	if len(scheds) == 1 && points[0].Sched != "" {
		what += " (" + points[0].Sched + ")"
	}
	fmt.Fprintf(w, "predicted by the %s: %d points, per mode\n", what, len(points))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "mode\tcpus\tthroughput\tp50 ms\tlimited by")
	for _, g := range groups {
		name := g.mode
		if len(ids[g.mode]) > 1 {
			name += " (" + loadText(g.ps[0]) + ")"
		}
		grid := NewGrid(g.ps)
		lo, hi, p50lo, p50hi := 0.0, 0.0, 0.0, 0.0
		var limits []string
		lastClass, from, prev := "", 0, 0
		flush := func() {
			if lastClass == "" {
				return
			}
			c, _ := grid.At(g.mode, prev)
			limits = append(limits, fmt.Sprintf("%s (%s)", c.Shown().Limit.Named, cpuSpan(from, prev)))
		}
		for i, n := range grid.CPUs {
			c, _ := grid.At(g.mode, n)
			e := c.Shown()
			if i == 0 {
				lo, hi, p50lo, p50hi = e.Throughput, e.Throughput, e.P50, e.P50
			}
			lo, hi = min(lo, e.Throughput), max(hi, e.Throughput)
			p50lo, p50hi = min(p50lo, e.P50), max(p50hi, e.P50)
			if e.Limit.Class != lastClass {
				flush()
				lastClass, from = e.Limit.Class, n
			}
			prev = n
		}
		flush()
		unit := g.ps[0].Unit
		fmt.Fprintf(tw, "%s\t%s\t%s %s\t%s\t%s\n", name, cpuSpan(grid.CPUs[0], grid.CPUs[len(grid.CPUs)-1]),
			rateRange(lo, hi), unit, msRange(p50lo, p50hi), strings.Join(limits, ", "))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, l := range results.CalibrationLines(points) {
		fmt.Fprintf(w, "go policy: %s\n", l)
	}
	return nil
}

// inOrder lists the origins among points that are in origins, each once,
// in the order the points first show them.
func inOrder(points []results.Point, origins map[string]bool) []string {
	var hosts []string
	seen := map[string]bool{}
	for _, p := range points {
		if o := p.Origin(); origins[o] && !seen[o] {
			hosts = append(hosts, o)
			seen[o] = true
		}
	}
	return hosts
}
