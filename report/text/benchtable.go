package text

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/perf/benchmath"
	"golang.org/x/perf/benchunit"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/stats"
)

// benchRow is one benchmark at one CPU count: its repetitions.
type benchRow struct {
	name, pkg, origin string
	cpus              int
	points            []results.Point
}

// benchRows groups Go benchmarks' points by benchmark and CPU count.
func benchRows(points []results.Point) []*benchRow {
	keys, by := collect.GroupBy(points, func(p results.Point) (string, bool) {
		return fmt.Sprintf("%s\x00%s\x00%s\x00%d", p.Origin(), p.Bench.Pkg, p.Mode, p.CPUs), true
	})
	return collect.Mapped(keys, func(k string) *benchRow {
		p := by[k][0]
		return &benchRow{name: p.Mode, pkg: p.Bench.Pkg, origin: p.Origin(), cpus: p.CPUs, points: by[k]}
	})
}

// benchCell is a row's median of unit ± its 95 % interval, as benchstat
// writes it: "70.79n ± 2%"; "-" where a run lacks the unit.
func benchCell(points []results.Point, unit string) string {
	var tidied []float64
	tunit := unit
	for _, p := range points {
		v, has := p.Metrics[results.Metric(unit)]
		if !has {
			return "-"
		}
		v, tunit = benchunit.Tidy(v, unit)
		tidied = append(tidied, v)
	}
	s := benchmath.AssumeNothing.Summary(benchmath.NewSample(tidied, &benchmath.DefaultThresholds), 0.95)
	return benchunit.Scale(s.Center, benchunit.ClassOf(tunit)) + " ± " + s.PctRangeString()
}

// benchColumns are the units of the points' lines in benchstat's order.
func benchColumns(points []results.Point) []string {
	var units []string
	for _, p := range points {
		for _, m := range p.Own() {
			units = collect.AppendNew(units, string(m))
		}
	}
	first := []string{"ns/op", "B/op", "allocs/op"}
	rank := func(u string) int { return cmp.Or(slices.Index(first, u)+1, len(first)+1) }
	slices.SortStableFunc(units, func(a, b string) int { return rank(a) - rank(b) })
	return units
}

// BenchTable is Go benchmarks' points as benchstat shows them, with the runs.
func BenchTable(points []results.Point) (head []string, rows [][]string) {
	head = []string{"benchmark"}
	units := benchColumns(points)
	for _, u := range units {
		_, tidied := benchunit.Tidy(1, u)
		head = append(head, tidied)
	}
	head = append(head, "n")
	for _, r := range benchRows(points) {
		cells := collect.Mapped(units, func(u string) string { return benchCell(r.points, u) })
		rows = append(rows, slices.Concat([]string{results.BenchName(r.name, r.cpus)}, cells, []string{strconv.Itoa(len(r.points))}))
	}
	return head, rows
}

// writeBenchTable writes BenchTable, the package above it or in a column.
func writeBenchTable(w io.Writer, points []results.Point) error {
	head, rows := BenchTable(points)
	byRow := benchRows(points)
	sources := slices.ContainsFunc(byRow, func(r *benchRow) bool { return r.origin != byRow[0].origin })
	pkgs := slices.ContainsFunc(byRow, func(r *benchRow) bool { return r.pkg != byRow[0].pkg })
	if !pkgs && byRow[0].pkg != "" {
		fmt.Fprintf(w, "pkg: %s\n", byRow[0].pkg)
	}
	if sources {
		head = append(head, "source")
	}
	if pkgs {
		head = append(head, "pkg")
	}
	marked := false
	for i, row := range rows {
		for j := 1; j < len(row)-1; j++ {
			if strings.HasSuffix(row[j], "± ∞") {
				row[j] += " ¹"
				marked = true
			}
		}
		if sources {
			row = append(row, results.OriginLabel(byRow[i].points[0]))
		}
		if pkgs {
			row = append(row, byRow[i].pkg)
		}
		rows[i] = row
	}
	// A table wider than the terminal goes in several, as benchstat's.
	width := format.Width(w)
	widths := columnWidths(append([][]string{head}, rows...)...)
	var groups [][]bool // each table's columns, the names' in every one
	used := width
	for j := 1; j < len(head); j++ {
		if used+2+widths[j] > width { // the first column opens a group too
			groups = append(groups, make([]bool, len(head)))
			groups[len(groups)-1][0] = true
			used = 2 + widths[0]
		}
		groups[len(groups)-1][j] = true
		used += 2 + widths[j]
	}
	for g, on := range groups {
		if g > 0 {
			fmt.Fprintln(w)
		}
		t := format.Table{Align: []format.Align{format.Left, format.Right}, Indent: true}
		t.Row(cellsOn(on, head...)...)
		for _, row := range rows {
			t.Row(cellsOn(on, row...)...)
		}
		if err := t.Write(w); err != nil {
			return err
		}
	}
	if marked {
		fmt.Fprintln(w, format.Wrap(fmt.Sprintf("¹ need >= %d runs (-count) for a confidence interval at level 0.95", stats.RunsForInterval()), width, "  "))
	}
	return nil
}
