package chartspec

import (
	"cmp"
	"slices"

	"github.com/brewput/brewput/results"
)

// Plot is a figure read from a lab's points: what report draws.
type Plot struct {
	// CPUs is the largest CPU count among the points, the one whose
	// points are drawn where X is not the CPU count.
	CPUs int
	// Lines are in the order drawn, each its points in the order of x.
	Lines []PlotLine
	// Xs are the x values of every line, each once, ascending.
	Xs []float64
	// Fraction is an Amdahl figure's serial fraction.
	Fraction float64
	// Unit is the throughput's unit, of the first point drawn.
	Unit string
}

// PlotLine is one line of a plot and its points.
type PlotLine struct {
	Line
	Points []XY
}

// XY is one point of a line.
type XY struct{ X, Y float64 }

// Plot reads the figure's lines from points, first repetitions only; ok is
// false where nothing is left to draw, which f.Empty explains.
func (f Figure) Plot(points []results.Point) (pl Plot, ok bool) {
	for _, p := range points {
		pl.CPUs = max(pl.CPUs, p.CPUs)
	}
	if f.Kind == Amdahl {
		var fractions []float64
		for _, p := range points {
			if v, ok := p.Metrics[f.Fraction]; ok && v >= 0 && v <= 1 && p.Variant() != f.Baseline {
				fractions = append(fractions, v)
			}
		}
		if len(fractions) == 0 {
			return pl, false
		}
		pl.Fraction = results.Median(fractions)
	}
	lineOf := f.Line
	if lineOf == nil {
		lineOf = func(p results.Point) (Line, bool) { return Line{Name: p.Variant()}, true }
	}
	allCPUs := !f.AtMostCPUs()
	index := map[string]int{}
	for _, p := range points {
		if p.Rep > 1 || (!allCPUs && p.CPUs != pl.CPUs) {
			continue
		}
		line, ok := lineOf(p)
		if !ok {
			continue
		}
		x, xok := f.X.value(p)
		y, yok := f.Y.value(p)
		if f.Kind == Bars {
			x, xok = 0, true
		}
		if !xok || !yok {
			continue
		}
		i, seen := index[line.Name]
		if !seen {
			i, index[line.Name] = len(pl.Lines), len(pl.Lines)
			pl.Lines = append(pl.Lines, PlotLine{Line: line})
			if pl.Unit == "" {
				pl.Unit = p.Unit
			}
		}
		l := &pl.Lines[i]
		j := slices.IndexFunc(l.Points, func(xy XY) bool { return xy.X == x })
		switch {
		case j < 0:
			l.Points = append(l.Points, XY{x, y})
		case f.Kind == Bars: // a bar is its first point
		case !f.Best || y > l.Points[j].Y:
			l.Points[j].Y = y
		}
		if !slices.Contains(pl.Xs, x) {
			pl.Xs = append(pl.Xs, x)
		}
	}
	if len(pl.Lines) == 0 {
		return pl, false
	}
	slices.Sort(pl.Xs)
	slices.SortStableFunc(pl.Lines, func(a, b PlotLine) int { return cmp.Compare(a.Order, b.Order) })
	for _, l := range pl.Lines {
		slices.SortFunc(l.Points, func(a, b XY) int { return cmp.Compare(a.X, b.X) })
	}
	return pl, true
}

// AtMostCPUs reports whether the figure shows the points of the largest
// CPU count only, as bars and lines against anything but the CPU count do.
func (f Figure) AtMostCPUs() bool {
	return f.Kind == Bars || f.Kind == Lines && f.X.Of != ByCPUs
}
