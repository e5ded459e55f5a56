package results

import (
	"fmt"
	"maps"
	"slices"

	"github.com/brewput/brewput/internal/base/format"
)

// Metric names a number measured on a point, as a unit names a value of a
// Go benchmark's line: "util", a lab's "speedup", a Go benchmark's "B/op".
type Metric string

// The metrics of Columns that the harness and the model give a point.
const (
	Errors  Metric = "errors"   // operations that failed
	Drops   Metric = "drops"    // open-loop arrivals turned away by a full queue
	CPUUsed Metric = "cpu_used" // the process's CPU time over wall time, in CPUs
	Util    Metric = "util"     // CPUUsed over CPUs: the share of the allowed CPUs used
)

// Column is a metric registered for every surface, with all that files,
// tables and the page need to show it (docs/development.md).
type Column struct {
	// Key names it in Point.Metrics, JSON and CSV: "cpu_used".
	Key Metric
	// Head heads its column in a table of points, followed by its Unit
	// ("CPUs"); "" for a number that only files hold.
	Head string
	Unit string
	// Text writes a value in a table's cell; nil: format.Number.
	Text func(float64) string
	// Shown says whether a table of points shows it; nil: where one of
	// them has it other than 0.
	Shown func(points []Point) bool
	// Every says every point has it, 0 where its Metrics lack it (see
	// Point.Set); files write it on every point.
	Every bool
	// field is where a point holds one of the numbers of its own that
	// files write among the metrics: an *int64, *float64 or *string.
	field func(p *Point) any
}

// Columns are the registered metrics and the point's own numbers files
// write among them, in JSON's order. CSV writes those after coreColumns
// last, so that the older columns keep their places.
func Columns() []Column {
	always := func([]Point) bool { return true }
	openLoop := func(points []Point) bool {
		return slices.ContainsFunc(points, func(p Point) bool { return p.Rate > 0 })
	}
	count := func(v float64) string { return fmt.Sprintf("%.0f", v) }
	return []Column{
		{Key: "ops", field: func(p *Point) any { return &p.Ops }},
		// A lab says its failures in its own metrics.
		{Key: Errors, Head: "errors", Text: count, Every: true, Shown: func(points []Point) bool {
			return slices.ContainsFunc(points, func(p Point) bool { return p.Metrics[Errors] != 0 && p.Kind != KindLab })
		}},
		{Key: Drops, Head: "drops", Text: count, Shown: openLoop, Every: true},
		// Each table heads the throughput by its unit, marks a disturbed one.
		{Key: "throughput", field: func(p *Point) any { return &p.Throughput }},
		{Key: "unit", field: func(p *Point) any { return &p.Unit }},
		{Key: CPUUsed, Every: true},
		{Key: Util, Head: "cpu util", Text: func(v float64) string { return fmt.Sprintf("%.0f%%", 100*v) }, Shown: always, Every: true},
	}
}

// coreColumns is how many of Columns CSV's core holds (see Columns).
const coreColumns = 7

// column is the registered metric m, and whether there is one.
func column(m Metric) (Column, bool) {
	for _, c := range Columns() {
		if c.Key == m {
			return c, true
		}
	}
	return Column{}, false
}

// Value is p's value of c, and whether p has one.
func (c Column) Value(p Point) (float64, bool) {
	switch v := c.ref(&p).(type) {
	case *int64:
		return float64(*v), true
	case *float64:
		return *v, true
	case *string:
		return 0, false
	}
	v, ok := p.Metrics[c.Key]
	return v, ok || c.Every
}

// Cell is p's value of c as a table writes it, "-" where it has none.
func (c Column) Cell(p Point) string {
	v, ok := c.Value(p)
	switch {
	case !ok:
		return "-"
	case c.Text != nil:
		return c.Text(v)
	}
	return format.Number(v)
}

// ShownIn says whether a table of points shows c.
func (c Column) ShownIn(points []Point) bool {
	if c.Head == "" {
		return false
	}
	if c.Shown != nil {
		return c.Shown(points)
	}
	return slices.ContainsFunc(points, func(p Point) bool { v, _ := c.Value(p); return v != 0 })
}

// HeadText is c's head with its unit: "ctx switches /s".
func (c Column) HeadText() string {
	if c.Unit == "" {
		return c.Head
	}
	return c.Head + " " + c.Unit
}

// ref is where p holds c's value, as csvCell and MarshalJSON take it.
func (c Column) ref(p *Point) any {
	if c.field == nil {
		return metricOf{p, c}
	}
	return c.field(p)
}

// metricOf is a point's registered metric, for CSV.
type metricOf struct {
	p *Point
	c Column
}

// Set gives p metric m's value v, in a copy of its Metrics, so that a
// copy of p set apart leaves p as it was. A metric every point has is not
// kept at 0, so that a point reads back from its file as it was written.
func (p *Point) Set(m Metric, v float64) {
	p.Metrics = maps.Clone(p.Metrics)
	if c, ok := column(m); ok && c.Every && v == 0 {
		delete(p.Metrics, m)
		return
	}
	if p.Metrics == nil {
		p.Metrics = map[Metric]float64{}
	}
	p.Metrics[m] = v
}

// Own are p's metrics that Columns does not hold, which files write in its
// part: a Go benchmark's in go test's order (ns/op, MB/s, its own by name,
// B/op, allocs/op), any other's by name.
func (p Point) Own() []Metric {
	var ms []Metric
	for _, m := range slices.Sorted(maps.Keys(p.Metrics)) {
		if c, ok := column(m); !ok || c.field != nil {
			ms = append(ms, m)
		}
	}
	if p.Kind != KindBench {
		return ms
	}
	rank := func(m Metric) int {
		return map[Metric]int{"ns/op": -2, "MB/s": -1, "B/op": 1, "allocs/op": 2}[m]
	}
	slices.SortStableFunc(ms, func(a, b Metric) int { return rank(a) - rank(b) })
	return ms
}
