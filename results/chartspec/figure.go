package chartspec

import (
	"math"

	"github.com/brewput/brewput/results"
)

// Figure is a lab's chart as plain data: what it shows, which numbers of
// the lab's points it draws against which, and how the points fall into
// lines. Package report draws it (Kind says how); Plot reads it from the
// points, so that a lab tests its own figure against its own points.
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
	// Best keeps, of the points that share a line and an x, the one of
	// the highest y (the best over a setting the chart does not show);
	// otherwise the last one.
	Best bool
	// Reference, where it has a label, is a thin grey horizontal line,
	// such as "no gain (1×)".
	Reference Reference
	// Diagonal, where set, labels the line y = x.
	Diagonal string
	// Fraction is the metric whose median over the points is the serial
	// fraction of an Amdahl figure; the points of the Baseline variant,
	// which the speedups are over, do not count.
	Fraction results.Metric
	Baseline string
	// Empty is what the chart says where no point has both an x and a y.
	Empty string
}

// Kind is how a figure is drawn.
type Kind int

const (
	// Lines draws each line's points, with markers, joined in the order
	// of x.
	Lines Kind = iota
	// Bars draws a bar for each line (a variant, by default): the y of
	// its first point at the largest CPU count.
	Bars
	// Amdahl draws Amdahl's curve for the serial fraction the points
	// estimate (Figure.Fraction), out to X.Max CPUs, with each line's
	// points as markers on it.
	Amdahl
)

// Axis is where a figure's x or y comes from in a point, and how it is
// laid out.
type Axis struct {
	// Label names the axis (see Labelled).
	Label string
	// Of is what the number is: the CPU count, the throughput, or the
	// point's Metric (its Else where the point has no Metric).
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

const (
	// ByCPUs is the point's CPU count.
	ByCPUs Source = iota
	// ByThroughput is the point's throughput, where it made anything.
	ByThroughput
	// ByMetric is one of the lab's metrics (Axis.Metric).
	ByMetric
)

// Scale is how an axis places its numbers.
type Scale int

const (
	// Linear is an ordinary axis, from 0 for y.
	Linear Scale = iota
	// Log is a logarithmic axis, for numbers orders of magnitude apart.
	Log
	// Even places the x values a step apart in their order (1, 4, 16, 64
	// clients; 0, 1, 10, 100 slots), which reads better than a linear
	// axis for such sweeps and, unlike a log axis, has room for 0.
	Even
)

// Line is one line of a figure: its name in the legend, the group whose
// colour it shares (a variant in process and over the network), whether
// it is dashed, and its place among the lines (in order of Order, then of
// first appearance).
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

// Metrics lists the metrics the figure reads, for a lab to test that its
// points have them.
func (f Figure) Metrics() []results.Metric {
	var out []results.Metric
	for _, m := range []results.Metric{f.X.Metric, f.X.Else, f.Y.Metric, f.Y.Else, f.Fraction} {
		if m != "" {
			out = append(out, m)
		}
	}
	return out
}
