package chartspec

import (
	"math"

	"github.com/brewput/brewput/results"
)

// Figure is a lab's chart as plain data: what it shows, which numbers of
// the lab's points it draws against which, and how the points fall into
// lines, so that a lab tests its own figure against its own points.
type Figure struct {
	Kind Kind
	// Title heads the chart; Lesson, under it, says what to look for.
	Title, Lesson string
	// X and Y are the numbers drawn against each other. Where X is not
	// the CPU count, the chart shows the points of the largest CPU count
	// measured, so that every line compares like with like.
	X, Y Axis
	// Line is the line a point is drawn on, and whether it is drawn at
	// all; nil draws a line per variant.
	Line func(p results.Point) (line Line, ok bool)
	// Best keeps, of the points that share a line and an x, the one of the
	// highest y; otherwise the last one.
	Best bool
	// Reference, where it has a label, is a thin grey horizontal line.
	Reference Reference
	// Diagonal, where set, labels the line y = x.
	Diagonal string
	// Fraction is the metric whose median over the points but the
	// Baseline variant's is the serial fraction of an Amdahl figure.
	Fraction results.Metric
	Baseline string
	// Empty is what the chart says where no point has both an x and a y.
	Empty string
}

// Kind is how a figure is drawn.
type Kind int

// The kinds: each line's points joined in the order of x; a bar for each
// line, the y of its first point at the largest CPU count; Amdahl's curve
// for Figure.Fraction out to X.Max CPUs, each line's points on it.
const (
	Lines Kind = iota
	Bars
	Amdahl
)

// Axis is where a figure's x or y comes from in a point, and how it is
// laid out.
type Axis struct {
	// Label names the axis (see Labelled).
	Label string
	// Of is what the number is; Else stands in for a Metric a point lacks.
	Of           Source
	Metric, Else results.Metric
	Scale        Scale
	// Factor multiplies the number (100 for a share in percent); 0 is 1.
	Factor float64
	// Max is the axis's fixed top; 0 fits the data.
	Max float64
}

// Source is what an axis's number is in a point.
type Source int

// The sources: the point's CPU count, its throughput (where it made
// anything), or one of the lab's metrics (Axis.Metric).
const (
	ByCPUs Source = iota
	ByThroughput
	ByMetric
)

// Scale is how an axis places its numbers.
type Scale int

// The scales: linear (from 0 for y), logarithmic, and Even, which places
// the x values a step apart in their order (0, 1, 10, 100 slots): it
// reads better than a linear axis for such sweeps, and has room for 0.
const (
	Linear Scale = iota
	Log
	Even
)

// Line is one line of a figure: its name in the legend, the group whose
// colour it shares, whether it is dashed, and its place among the lines
// (by Order, then first appearance).
type Line struct {
	Name, Group string
	Dashed      bool
	Order       float64
}

// Reference is a labelled horizontal line at Y.
type Reference struct {
	Label string
	Y     float64
}

// Default is the figure of a lab that has none of its own: each
// variant's throughput against CPUs.
func Default(lab string) Figure {
	return Figure{
		Kind:   Lines,
		Title:  lab + ": throughput against CPUs",
		Lesson: "Throughput of each variant against CPUs.",
		X:      Axis{Label: "CPUs", Of: ByCPUs},
		Y:      Axis{Of: ByThroughput},
		Empty:  "No point to draw.",
	}
}

// Labelled is the axis's label, a throughput's in unit where it has none.
func (a Axis) Labelled(unit string) string {
	if a.Label == "" && a.Of == ByThroughput {
		return "throughput (" + unit + ")"
	}
	return a.Label
}

// value reads the axis's number in p; ok is false where p has none.
func (a Axis) value(p results.Point) (v float64, ok bool) {
	switch a.Of {
	case ByCPUs:
		v, ok = float64(p.CPUs), true
	case ByThroughput:
		v, ok = p.Throughput, p.Throughput > 0
	case ByMetric:
		v, ok = p.Metrics[a.Metric]
		if !ok && a.Else != "" {
			v, ok = p.Metrics[a.Else]
		}
	}
	if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	if a.Factor != 0 {
		v *= a.Factor
	}
	return v, true
}

// Metrics lists the metrics the figure reads.
func (f Figure) Metrics() []results.Metric {
	var out []results.Metric
	for _, m := range []results.Metric{f.X.Metric, f.X.Else, f.Y.Metric, f.Y.Else, f.Fraction} {
		if m != "" {
			out = append(out, m)
		}
	}
	return out
}
