package chartspec_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/brewput/brewput/lab/labtest"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/chartspec"
)

// lines writes a plot's lines as "name: x=y x=y", in order.
func lines(pl chartspec.Plot) string {
	var out []string
	for _, l := range pl.Lines {
		s := l.Name + ":"
		for _, xy := range l.Points {
			s += fmt.Sprintf(" %g=%g", xy.X, xy.Y)
		}
		out = append(out, s)
	}
	return strings.Join(out, "; ")
}

func TestPlotLines(t *testing.T) {
	points := []results.Point{
		labtest.LabPoint("b/S=2", 1, 10, "x", 5.0, "y", 0.5, "s", 2.0),
		labtest.LabPoint("a/S=1", 2, 20, "x", 1.0, "y", 0.25, "s", 1.0),
		labtest.LabPoint("a/S=1", 2, 30, "x", 1.0, "y", 0.75, "s", 1.0), // same line and x: the best, or the last
		labtest.LabPoint("a/S=1", 2, 40, "x", 3.0, "y", 0.1, "s", 1.0),
		labtest.LabPoint("b/S=2", 2, 50, "x", 2.0, "y", math.NaN(), "s", 2.0), // no y to draw
		labtest.LabPoint("b/S=2", 2, 60, "x", 4.0, "y", 0.9, "s", 2.0),
	}
	points[3].Rep = 2 // a later repetition: left out
	f := chartspec.Figure{Kind: chartspec.Lines, X: chartspec.Axis{Of: chartspec.ByMetric, Metric: "x"}, Y: chartspec.Axis{Of: chartspec.ByMetric, Metric: "y", Factor: 100},
		Line: func(p results.Point) (chartspec.Line, bool) {
			s := p.Metrics["s"]
			return chartspec.Line{Name: fmt.Sprintf("S%g", s), Order: -s}, true
		}}
	pl, ok := f.Plot(points)
	// Only the largest CPU count: x is not the CPU count. Ordered by
	// Order, so b's line first.
	if !ok || pl.CPUs != 2 || lines(pl) != "S2: 4=90; S1: 1=75" || fmt.Sprint(pl.Xs) != "[1 4]" || pl.Unit != "ops/s" {
		t.Errorf("lines %q, xs %v, cpus %d", lines(pl), pl.Xs, pl.CPUs)
	}
	f.Best = true
	points[2].Set("y", 0.1)
	if pl, _ := f.Plot(points); lines(pl) != "S2: 4=90; S1: 1=25" {
		t.Errorf("best: %q", lines(pl))
	}
	// Against CPUs: every CPU count, a line per variant by default.
	byCPUs := chartspec.Default("t")
	pl, ok = byCPUs.Plot(points)
	if !ok || lines(pl) != "b/S=2: 1=10 2=60; a/S=1: 2=30" {
		t.Errorf("against CPUs: %q", lines(pl))
	}
	if _, ok := (chartspec.Figure{Y: chartspec.Axis{Of: chartspec.ByMetric, Metric: "none"}}).Plot(points); ok {
		t.Error("a figure of a metric no point has draws something")
	}
}

func TestPlotBarsAndAmdahl(t *testing.T) {
	points := []results.Point{
		labtest.LabPoint("seq", 1, 10, "f", 0.2, "sp", 1.0), labtest.LabPoint("par", 1, 10, "f", 0.2, "sp", 1.0),
		labtest.LabPoint("seq", 2, 10, "f", 0.9, "sp", 1.0), labtest.LabPoint("par", 2, 17, "f", 0.1, "total", 1.7, "sp", 1.8),
		labtest.LabPoint("par", 2, 99, "f", 0.1),
	}
	bars, ok := chartspec.Figure{Kind: chartspec.Bars, Y: chartspec.Axis{Of: chartspec.ByThroughput}}.Plot(points)
	if !ok || lines(bars) != "seq: 0=10; par: 0=17" {
		t.Errorf("bars: %q; want each variant's first point at 2 CPUs", lines(bars))
	}
	amdahl := chartspec.Figure{Kind: chartspec.Amdahl, X: chartspec.Axis{Of: chartspec.ByCPUs, Scale: chartspec.Log, Max: 64}, Y: chartspec.Axis{Of: chartspec.ByMetric, Metric: "total", Else: "sp"},
		Fraction: "f", Baseline: "seq"}
	pl, ok := amdahl.Plot(points)
	// The median of par's fractions (the baseline's do not count); its
	// total speedup where it has one, else its speedup.
	if !ok || pl.Fraction != 0.1 || lines(pl) != "seq: 1=1 2=1; par: 1=1 2=1.7" {
		t.Errorf("amdahl: fraction %g, %q", pl.Fraction, lines(pl))
	}
	if _, ok := (chartspec.Figure{Kind: chartspec.Amdahl, Fraction: "none"}).Plot(points); ok {
		t.Error("an Amdahl figure without a serial fraction draws something")
	}
	if m := (chartspec.Figure{X: chartspec.Axis{Metric: "a"}, Y: chartspec.Axis{Metric: "b", Else: "c"}, Fraction: "d"}).Metrics(); fmt.Sprint(m) != "[a b c d]" {
		t.Errorf("Metrics() = %v", m)
	}
}
