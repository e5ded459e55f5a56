package results

import (
	"fmt"
	"slices"

	"github.com/brewput/brewput/internal/base/format"
)

// Column is a number measured on every point, with all that JSON, CSV, the
// terminal's tables and the page's need to show it: adding a measure is
// its measurement and one entry in Columns (docs/development.md).
type Column struct {
	// Key names it in JSON and CSV: "cpu_used".
	Key string
	// Head heads its column in a table of points; "" for a number that
	// only files hold.
	Head string
	// Unit is what it counts, after Head in a table's head: "CPUs"; ""
	// for a count or a share.
	Unit string
	// Text writes a value in a table's cell; nil: format.Number.
	Text func(float64) string
	// Shown says whether a table of points shows it; nil: where one of
	// them has it other than 0.
	Shown func(points []Point) bool
	// field is where a point holds it: an *int64, *float64 or *string;
	// nil for a measure with no field of its own, held in Point.Measures
	// under Key.
	field func(p *Point) any
}

// Columns are the numbers measured on every point, in the order JSON
// writes them. The first coreColumns are in CSV's core where they have
// always been; CSV writes the later ones last, so that a file from before
// them lacks only its last columns and still reads.
func Columns() []Column {
	always := func([]Point) bool { return true }
	openLoop := func(points []Point) bool {
		return slices.ContainsFunc(points, func(p Point) bool { return p.Rate > 0 })
	}
	count := func(v float64) string { return fmt.Sprintf("%.0f", v) }
	return []Column{
		{Key: "ops", field: func(p *Point) any { return &p.Ops }},
		// A lab says its failures in its own metrics.
		{Key: "errors", Head: "errors", Text: count, Shown: func(points []Point) bool {
			return slices.ContainsFunc(points, func(p Point) bool { return p.Errors != 0 && p.Kind != KindLab })
		}, field: func(p *Point) any { return &p.Errors }},
		{Key: "drops", Head: "drops", Text: count, Shown: openLoop, field: func(p *Point) any { return &p.Drops }},
		// A table heads the throughput by its unit, and marks a disturbed
		// point's: each table writes it.
		{Key: "throughput", field: func(p *Point) any { return &p.Throughput }},
		{Key: "unit", field: func(p *Point) any { return &p.Unit }},
		{Key: "cpu_used", field: func(p *Point) any { return &p.CPUUsed }},
		{Key: "util", Head: "cpu util", Text: func(v float64) string { return fmt.Sprintf("%.0f%%", 100*v) }, Shown: always,
			field: func(p *Point) any { return &p.Util }},
	}
}

// coreColumns is how many of Columns CSV's core holds (see Columns).
const coreColumns = 7

// Value is p's value of c, and whether p has one: a point has every
// measure with a field of its own, and those in Measures.
func (c Column) Value(p Point) (float64, bool) {
	if c.field == nil {
		v, ok := p.Measures[c.Key]
		return v, ok
	}
	switch v := c.field(&p).(type) {
	case *int64:
		return float64(*v), true
	case *float64:
		return *v, true
	}
	return 0, false
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

// ref is where p holds c's value, as csvCell and parseScalar take it.
func (c Column) ref(p *Point) any {
	if c.field == nil {
		return measure{p, c.Key}
	}
	return c.field(p)
}

// measure is a point's measure held in Measures, for CSV.
type measure struct {
	p   *Point
	key string
}
