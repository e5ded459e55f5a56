package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/report/chartspec"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// WriteLabs writes each lab's answer among answers (verdict.Labs of the
// points), a blank line between them, each with the numbers its figure in
// figures draws of points; then a line saying where the rest is.
func WriteLabs(w io.Writer, points []results.Point, answers []analysis.LabAnswer, figures map[string]chartspec.Figure) error {
	_, labs, byLab := results.SplitLabs(points)
	for i, l := range labs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		j := slices.IndexFunc(answers, func(a analysis.LabAnswer) bool { return a.Lab == l })
		if j < 0 {
			continue
		}
		if err := text.WriteLab(w, answers[j], labTable(figureOf(figures, l), byLab[l])); err != nil {
			return err
		}
	}
	if len(labs) > 0 {
		_, err := fmt.Fprintln(w, LabMore)
		return err
	}
	return nil
}

// figureOf is lab's figure in figures, or chartspec.Default.
func figureOf(figures map[string]chartspec.Figure, lab string) chartspec.Figure {
	if f, ok := figures[lab]; ok {
		return f
	}
	return chartspec.Default(lab)
}

// LabMore says where a lab's every point is, below its answer.
const LabMore = "(--format table prints every point in full, with the lab's own metrics)"

// labTable lays out what fig draws of a lab's points as a table.
func labTable(fig chartspec.Figure, points []results.Point) text.FigureTable {
	pl, ok := fig.Plot(points)
	if !ok {
		return text.FigureTable{}
	}
	label := func(a chartspec.Axis) string {
		l := a.Labelled(pl.Unit)
		for _, scale := range []string{", log scale", " (log scale)"} {
			l = strings.ReplaceAll(l, scale, "")
		}
		return l
	}
	t := text.FigureTable{Title: label(fig.Y)}
	bars := fig.Kind == chartspec.Bars
	if !bars {
		t.Title += " against " + label(fig.X)
	}
	if fig.AtMostCPUs() {
		t.Title += ", on " + format.Count(pl.CPUs, "CPU")
		if fig.Best {
			t.Title += ", the best over the settings not shown"
		}
	}
	if fig.Kind == chartspec.Amdahl {
		t.Title += fmt.Sprintf("; serial fraction %s", format.Number(pl.Fraction))
	}
	if !bars { // a bar's one number is what the title says
		for _, x := range pl.Xs {
			t.Head = append(t.Head, format.Number(x))
		}
	}
	for _, l := range pl.Lines { // a bar is the one point of its line, at x 0
		row := []string{l.Name}
		for _, x := range pl.Xs {
			i := slices.IndexFunc(l.Points, func(xy chartspec.XY) bool { return xy.X == x })
			if i < 0 {
				row = append(row, "-")
				continue
			}
			row = append(row, format.Number(l.Points[i].Y))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}
