package text

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
)

// WriteTable writes a table per kind of point (and lab), without empty columns.
func WriteTable(w io.Writer, points []results.Point) error {
	others, benchmarks := results.SplitBench(points)
	others, labs, byLab := results.SplitLabs(others)
	isStudy := func(p results.Point) bool { return p.Kind == results.KindStudy }
	shop := slices.DeleteFunc(slices.Clone(others), isStudy)
	studies := slices.DeleteFunc(slices.Clone(others), func(p results.Point) bool { return !isStudy(p) })
	var tables []func() error
	for i, ps := range [][]results.Point{shop, studies} {
		if len(ps) > 0 {
			tables = append(tables, func() error { return writeShopTable(w, ps, i == 1) })
		}
	}
	for _, l := range labs {
		tables = append(tables, func() error { return writeLabTable(w, l, byLab[l]) })
	}
	if len(benchmarks) > 0 {
		tables = append(tables, func() error { return writeBenchTable(w, benchmarks) })
	}
	return writeApart(w, tables)
}

// writeApart writes each of parts in turn, a blank line between them.
func writeApart(w io.Writer, parts []func() error) error {
	for i, write := range parts {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if err := write(); err != nil {
			return err
		}
	}
	return nil
}

// column is a column of a table of points, on where the table has it.
type column struct {
	head string
	on   bool
	cell func(p results.Point) string
	// spare ranks a column that a table too wide for its width leaves
	// out, the highest first; 0 for one it keeps.
	spare int
}

// writeColumns writes points in the columns that are on; a table wider
// than w puts its notes under their rows and leaves out spare columns,
// the highest ranked first, until it fits, saying which.
func writeColumns(w io.Writer, points []results.Point, cols []column) error {
	cols = slices.DeleteFunc(cols, func(c column) bool { return !c.on })
	width := format.Width(w)
	var notes *column
	if n := len(cols); n > 1 && cols[n-1].head == "notes" && !fits(points, cols, width) {
		notes, cols = &cols[n-1], cols[:n-1]
	}
	var left []string
	for {
		spare := -1
		for i, c := range cols {
			if c.spare > 0 && (spare < 0 || c.spare > cols[spare].spare) {
				spare = i
			}
		}
		if spare < 0 || fits(points, cols, width) {
			break
		}
		left = append(left, leftOut(points, cols[spare]))
		cols = slices.Delete(cols, spare, spare+1)
	}
	if _, err := io.WriteString(w, columnsTable(points, cols, notes, width)); err != nil {
		return err
	}
	if len(left) > 0 {
		fmt.Fprintln(w, format.Wrap("Left out to fit "+fmt.Sprint(width)+" columns: "+strings.Join(left, ", ")+
			"; --format csv or json writes every one.", width, ""))
	}
	writeDisturbedNote(w, points)
	return nil
}

// leftOut names a column a table leaves out, with its value where every
// point has the same: "source (model (fifo) for every point)".
func leftOut(points []results.Point, c column) string {
	if len(points) == 0 || slices.ContainsFunc(points, func(p results.Point) bool { return c.cell(p) != c.cell(points[0]) }) {
		return c.head
	}
	if len(points) > 1 {
		return c.head + " (" + c.cell(points[0]) + " for every point)"
	}
	return c.head + " (" + c.cell(points[0]) + ")"
}

// columnsTable lays points out in cols for width, and each note (notes,
// where not nil) under its row.
func columnsTable(points []results.Point, cols []column, notes *column, width int) string {
	t := format.Table{Align: []format.Align{format.Left, format.Right}, Indent: true, Ragged: true, Width: width}
	t.Row(collect.Mapped(cols, func(c column) string { return c.head })...)
	for _, p := range points {
		t.Row(collect.Mapped(cols, func(c column) string { return c.cell(p) })...)
		if notes != nil {
			if n := notes.cell(p); n != "" {
				const indent = "      "
				t.Line(indent + format.Wrap("note: "+n, width-len(indent), indent))
			}
		}
	}
	var b strings.Builder
	t.Write(&b) // a strings.Builder takes every byte
	return b.String()
}

// fits reports whether points laid out in cols fit width: as they are,
// or with the last column wrapped beside the others, where they leave it
// room to (not under its row, which a ragged table does with less).
func fits(points []results.Point, cols []column, width int) bool {
	if widest(columnsTable(points, cols, nil, math.MaxInt)) <= width {
		return true
	}
	return len(cols) > 1 && widest(columnsTable(points, cols[:len(cols)-1], nil, width))+2 <= width-format.NarrowestWrap
}

// cellsOn are the cells whose column is on, on[i] for cells[i].
func cellsOn(on []bool, cells ...string) []string {
	var out []string
	for i, c := range cells {
		if on[i] {
			out = append(out, c)
		}
	}
	return out
}

// columnWidths is each column's widest cell, of rows laid out as a table.
func columnWidths(rows ...[]string) []int {
	var widths []int
	for _, r := range rows {
		for i, c := range r {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	return widths
}

// tableWidth is how wide rows laid out as a table are.
func tableWidth(rows ...[]string) int {
	n := -len(gap)
	for _, w := range columnWidths(rows...) {
		n += w + len(gap)
	}
	return n
}

// widest is the most columns a line of s takes.
func widest(s string) int {
	return slices.Max(collect.Mapped(strings.Split(s, "\n"), utf8.RuneCountInString))
}

// writeLabTable writes one lab's points, with its metrics.
func writeLabTable(w io.Writer, lab string, points []results.Point) error {
	fmt.Fprintf(w, "lab %s\n", lab)
	mark := disturbedMark(points)
	cols := []column{{"variant", true, func(p results.Point) string { return p.Lab.Variant }, 0},
		{"cpus", true, func(p results.Point) string { return fmt.Sprint(p.CPUs) }, 0},
		{"par", true, func(p results.Point) string { return fmt.Sprint(p.Par) }, 0},
		{"throughput", true, func(p results.Point) string { return format.Rate(p.Throughput, p.Unit) + mark(p) }, 0},
		{"p50", true, func(p results.Point) string { return format.Wait(p.Latency.P50) }, 0},
		{"min", true, func(p results.Point) string { return format.Wait(p.Latency.Min) }, 2},
		{"max", true, func(p results.Point) string { return format.Wait(p.Latency.Max) }, 3},
		measure(points, results.Util, 1)}
	cols = append(cols, otherMeasures(points, results.Util)...)
	// A table too wide leaves out min, max and cpu util, then the metrics.
	metrics := MetricNames(points)
	for i := range cols {
		if cols[i].spare > 0 {
			cols[i].spare += len(metrics)
		}
	}
	for i, k := range metrics {
		cols = append(cols, column{string(k), true, func(p results.Point) string {
			if v, ok := p.Metrics[k]; ok {
				return format.Metric(string(k), v)
			}
			return "-"
		}, len(metrics) - i})
	}
	return writeColumns(w, points, cols)
}

// MetricNames lists lab points' own metrics once each, by name.
func MetricNames(points []results.Point) []results.Metric {
	names := map[results.Metric]bool{}
	for _, p := range points {
		for _, k := range p.Own() {
			names[k] = true
		}
	}
	return slices.Sorted(maps.Keys(names))
}

// writeShopTable writes the coffee shop's points, or a study's.
func writeShopTable(w io.Writer, points []results.Point, studies bool) error {
	has := func(f func(results.Point) bool) bool { return slices.ContainsFunc(points, f) }
	model, bands := has(results.Point.IsModel), has(func(p results.Point) bool { return p.Band != nil })
	limits := !studies && has(func(p results.Point) bool { return p.Bottleneck != nil })
	sources := has(func(p results.Point) bool { return p.Origin() != points[0].Origin() })
	mode, mark := "mode", disturbedMark(points)
	// Where every point counts in one unit, the unit heads the column.
	throughput := column{"throughput", true, func(p results.Point) string { return fmt.Sprintf("%.1f %s", p.Throughput, p.Unit) + mark(p) }, 0}
	if unit := points[0].Unit; unit != "" && !has(func(p results.Point) bool { return p.Unit != unit }) {
		throughput = column{unit, true, func(p results.Point) string { return fmt.Sprintf("%.1f", p.Throughput) + mark(p) }, 0}
	}
	// A measured point's limit is the model's causal profile of it.
	limitedBy := "limited by (best relief)"
	if slices.ContainsFunc(points, func(p results.Point) bool { return !p.IsModel() && p.Bottleneck != nil }) {
		limitedBy = "limited by (model's profile)"
	}
	if studies {
		mode = "variant"
	}
	// A table too wide may leave out a source every point has.
	sourceSpare := 0
	if !sources {
		sourceSpare = 2
	}
	// The latencies in the one unit the longest of them reads best in.
	longest := 0.0
	for _, p := range points {
		longest = max(longest, p.Latency.P99, p.Latency.Mean)
	}
	unit, perMs := format.TimeUnit(longest)
	ms := func(head string, v func(results.Latency) float64, spare int) column {
		return column{head + " " + unit, true, func(p results.Point) string { return format.Ms(v(p.Latency) * perMs) }, spare}
	}
	// The median is kept before any other latency, unless it is the same
	// for every point: then it says nothing row by row, and goes first.
	p50 := ms("p50", func(l results.Latency) float64 { return l.P50 }, 0)
	if len(points) > 1 && strings.HasSuffix(leftOut(points, p50), " for every point)") {
		p50.spare = 11
	}
	cols := []column{{mode, true, func(p results.Point) string { return p.Mode }, 0},
		{"cpus", true, func(p results.Point) string { return fmt.Sprint(p.CPUs) }, 0},
		{"par", has(func(p results.Point) bool { return p.Par != p.CPUs }), func(p results.Point) string { return fmt.Sprint(p.Par) }, 0},
		{"rep", has(func(p results.Point) bool { return p.Rep > 0 }), func(p results.Point) string { return fmt.Sprint(max(p.Rep, 1)) }, 0},
		{"rate/s", has(func(p results.Point) bool { return p.Rate > 0 }), func(p results.Point) string { return fmt.Sprintf("%.0f", p.Rate) }, 0},
		measure(points, results.Drops, 0),
		throughput,
		// A prediction's band is its answer past what the model knows.
		{"go band", bands, band(func(b *results.Band) [2]float64 { return b.Throughput }, format.Number), 1},
		{"p50 range ms", bands, band(func(b *results.Band) [2]float64 { return b.P50Ms }, format.Ms), 6},
		{"ceiling", model, func(p results.Point) string { return FormatBound(p.Bounds) }, 0},
		ms("mean", func(l results.Latency) float64 { return l.Mean }, 9), ms("p05", func(l results.Latency) float64 { return l.P05 }, 10),
		p50, ms("p95", func(l results.Latency) float64 { return l.P95 }, 8),
		ms("p99", func(l results.Latency) float64 { return l.P99 }, 5),
		measure(points, results.Util, 4)}
	cols = append(cols, otherMeasures(points, results.Drops, results.Util)...)
	cols = append(cols, []column{{"most used meter (held, wait)", studies, results.BusiestMeter, 0},
		{limitedBy, limits, func(p results.Point) string { return FormatBottleneck(p.Bottleneck) }, 0},
		{"most held (held, wait)", !studies && !limits, busiest, 0},
		// A table of model points alone still says that they are the model's.
		{"source", sources || model, results.OriginLabel, sourceSpare},
		{"notes", has(func(p results.Point) bool { return Notes(p) != "" }), Notes, 0}}...)
	return writeColumns(w, points, cols)
}

// measure is the column of the measure key, on where points show it.
func measure(points []results.Point, key results.Metric, spare int) column {
	for _, c := range results.Columns() {
		if c.Key == key {
			return column{c.HeadText(), c.ShownIn(points), c.Cell, spare}
		}
	}
	return column{head: string(key)}
}

// otherMeasures are the columns of the measures points show but a table
// does not place, the first a table too wide leaves out.
func otherMeasures(points []results.Point, placed ...results.Metric) []column {
	var cols []column
	for _, c := range results.Columns() {
		if c.ShownIn(points) && !slices.Contains(placed, c.Key) {
			cols = append(cols, column{c.HeadText(), true, c.Cell, 100 + len(cols)})
		}
	}
	return cols
}

// disturbedMark is the mark after a disturbed point's throughput, and
// the room it takes after the others' where any of points is marked.
func disturbedMark(points []results.Point) func(results.Point) string {
	any := slices.ContainsFunc(points, results.Point.IsDisturbed)
	return func(p results.Point) string {
		switch {
		case p.IsDisturbed():
			return " *"
		case any:
			return "  "
		}
		return ""
	}
}

// writeDisturbedNote explains the table's mark, if any point has it.
func writeDisturbedNote(w io.Writer, points []results.Point) {
	n, attempts := 0, 0
	for _, p := range points {
		if p.IsDisturbed() {
			n++
			attempts = max(attempts, p.Attempts)
		}
	}
	if n == 0 {
		return
	}
	note := fmt.Sprintf("* disturbed (%d of %d): other processes took more than %.1f CPU of the CPUs the point ran on (beyond those it left free, where it was not pinned) while it was measured; its numbers say more about the machine than about the design", n, len(points), results.DisturbedCPUs)
	if attempts > 1 {
		note += fmt.Sprintf(" (each measured up to %d times, the least disturbed kept)", attempts)
	}
	fmt.Fprintln(w, format.Wrap(note, format.Width(w), "  "))
}

// band is the cell of a point's band, its ends as f writes them: "5.67M–9.83M".
func band(ends func(*results.Band) [2]float64, f func(float64) string) func(results.Point) string {
	return func(p results.Point) string {
		if p.Band == nil {
			return "-"
		}
		e := ends(p.Band)
		return f(e[0]) + "–" + f(e[1])
	}
}

// CalibrationLines describes each calibration the points used, once.
func CalibrationLines(points []results.Point) []string {
	var lines []string
	for _, p := range points {
		if p.Calibration != nil {
			lines = collect.AppendNew(lines, CalibrationLine(*p.Calibration))
		}
	}
	return lines
}

// FormatBound formats a model's throughput bound, the most the structure
// allows with no waiting, "1000.0"; "-" for a measurement, "none" where
// nothing bounds. What sets it is left to the JSON: beside "limited by"
// it would read as a second name for the limit.
func FormatBound(b *results.Bounds) string {
	switch {
	case b == nil:
		return "-"
	case b.ThroughputMax == 0:
		return "none"
	}
	if b.ThroughputMax >= 1e5 {
		return format.SIAtMost(b.ThroughputMax)
	}
	return format.AtMost(b.ThroughputMax, 1)
}

// FormatBottleneck says what limits a point and what relieving it gains,
// "the grinder +13%"; without a causal profile "grinder 98%, 1000".
func FormatBottleneck(b *results.Bottleneck) string {
	if b == nil {
		return "-"
	}
	if b.Resource == "unknown" {
		return "unknown"
	}
	if len(b.Experiments) > 0 {
		s := BottleneckName(b)
		if b.Gain > 0 {
			s += fmt.Sprintf(" %+.0f%%", 100*b.Gain)
		}
		return s
	}
	s := fmt.Sprintf("%s %.0f%%", b.Resource, 100*b.Utilization)
	if b.Bound > 0 {
		s += fmt.Sprintf(", %.0f", b.Bound)
	}
	return s
}

// busiest describes p's machine with the highest busy fraction.
func busiest(p results.Point) string {
	ms := p.Machines()
	if len(ms) == 0 {
		return "-"
	}
	top := slices.MaxFunc(ms, func(a, b results.Machine) int { return cmp.Compare(a.BusyFrac, b.BusyFrac) }) // the first of the busiest
	return fmt.Sprintf("%s %.0f%%, %.2f ms", top.Name, 100*top.BusyFrac, top.MeanWaitMs)
}

// Write writes points in format f: a table and Go benchmark lines here,
// any other by results.Write.
func Write(w io.Writer, f results.Format, points []results.Point) error {
	switch f {
	case results.Table:
		return WriteTable(w, points)
	case results.Bench:
		return results.WriteBench(w, points, BenchComment)
	}
	return results.Write(w, f, points)
}

// BenchComment says why Go benchmark lines leave a point out or mark it.
func BenchComment(p results.Point) string {
	if p.Ops <= 0 {
		return fmt.Sprintf("no operations in the window (%.0f errors, %.0f drops); left out", p.Metrics[results.Errors], p.Metrics[results.Drops])
	}
	return "disturbed: " + Interference(p) + " while it was measured"
}

// Notes says what a reader must know about a point beside its numbers.
func Notes(p results.Point) string {
	var n []string
	if p.Harness == "talk" {
		n = append(n, "talk harness")
	}
	if b := p.Bounds; b != nil && p.Steady != nil && !*p.Steady {
		if b.Little != 0 && math.Abs(b.Little-1) > results.LittleTolerance {
			n = append(n, fmt.Sprintf("not steady: Little's law %.3f", b.Little))
		}
		if p.Rate > 0 && b.Arrived > 0 && !results.QueueSteady(b.Growth, b.Arrived) {
			n = append(n, fmt.Sprintf("not steady: the queue grew by %d over the window (%.0f %% of its arrivals); its latencies depend on --dur", b.Growth, 100*float64(b.Growth)/float64(b.Arrived)))
		}
	}
	n = append(n, collect.Mapped(p.Above, func(a results.Above) string { return AboveText(p, a) })...)
	return strings.Join(append(n, collect.Mapped(p.Caveats, CaveatText)...), "; ")
}
