package report

import (
	"cmp"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/report/palette"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
	"github.com/brewput/brewput/results/chartspec"
)

// labView is a lab's section.
type labView struct {
	Lab, ID, Lesson string
	Chart           chartView
	Tables          []tableView
}

// drawLabs draws each lab's chart, "lab-NAME", of its figure in opt, and
// lays out its section.
func drawLabs(labs []string, byLab map[string][]results.Point, opt Options) ([]chart, []labView, error) {
	var charts []chart
	var views []labView
	for _, l := range labs {
		f := figureOf(opt.Figures, l)
		c, err := labChart(l, f, byLab[l])
		if err != nil {
			return nil, nil, fmt.Errorf("draw %s chart: %w", c.Name, err)
		}
		charts = append(charts, c)
		views = append(views, labView{Lab: l, ID: "lab-" + anchor(l), Lesson: f.Lesson, Chart: imageView(c, ""), Tables: labTables(byLab[l])})
	}
	return charts, views, nil
}

func labChart(name string, f chartspec.Figure, points []results.Point) (chart, error) {
	c := chart{Name: "lab-" + anchor(name), Title: f.Title}
	pl, ok := f.Plot(points)
	if !ok {
		c.Empty = f.Empty
		return c, nil
	}
	draw := linesFigure
	switch f.Kind {
	case chartspec.Bars:
		draw = barsFigure
	case chartspec.Amdahl:
		draw = amdahlFigure
	}
	return c.drawn(draw(f, pl))
}

// yLabel is the figure's y label, with its one CPU count where it has one.
func yLabel(f chartspec.Figure, pl chartspec.Plot, unit string) string {
	label := f.Y.Labelled(unit)
	if f.AtMostCPUs() {
		label += fmt.Sprintf(", %d %s", pl.CPUs, format.Plural(pl.CPUs, "CPU"))
	}
	return label
}

// linesFigure draws a figure's lines, a colour per group, with its
// reference line and diagonal, x on the scale its axis says.
func linesFigure(f chartspec.Figure, pl chartspec.Plot) (figure, error) {
	p, leg := newPlot(), newLegend()
	var d drawer
	p.X.Label.Text, p.Y.Label.Text = f.X.Label, yLabel(f, pl, pl.Unit)
	p.Add(&plotter.Grid{Vertical: gridLine(), Horizontal: gridLine()})
	first, last := pl.Xs[0], pl.Xs[len(pl.Xs)-1]
	lo, hi := first-0.1, last+0.1
	pos := func(x float64) float64 { return x }
	switch f.X.Scale {
	case chartspec.Log:
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
		if first == last {
			first, last = first/2, last*2
		}
		lo, hi = first/1.2, last*1.2
	case chartspec.Even:
		pos = func(x float64) float64 { return float64(slices.Index(pl.Xs, x)) }
		var ticks []plot.Tick
		for i, x := range pl.Xs {
			ticks = append(ticks, plot.Tick{Value: float64(i), Label: strconv.FormatFloat(x, 'g', -1, 64)})
		}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
		first, last = -0.2, float64(len(pl.Xs)-1)+0.2
		lo, hi = first, last
	case chartspec.Linear:
		if f.X.Of == chartspec.ByCPUs {
			p.X.Tick.Marker = cpuTicks(collect.Mapped(pl.Xs, func(x float64) int { return int(x) }))
		}
	}
	pal, top, bottom := palette.Cycle(), 0.0, math.Inf(1)
	var groups []string
	for i, l := range pl.Lines {
		group := cmp.Or(l.Group, l.Name)
		groups = collect.AppendNew(groups, group)
		var xys plotter.XYs
		for _, xy := range l.Points {
			y := xy.Y
			if f.Y.Scale == chartspec.Log {
				if y <= 0 {
					continue
				}
				y = math.Log10(y)
			}
			xys = append(xys, plotter.XY{X: pos(xy.X), Y: y})
			top = max(top, xy.Y)
			if xy.Y > 0 {
				bottom = min(bottom, xy.Y)
			}
		}
		colour := pal[slices.Index(groups, group)%len(pal)]
		style := stroke(colour, 1.8, nil)
		if l.Dashed { // such as the remote calls beside the in-process ones
			style.Dashes = dashes(i)
		}
		d.addLine(p, &leg, l.Name, xys, style, glyph(colour, 3.5, marker(i)))
	}
	grey := color.RGBA{120, 120, 120, 255}
	if f.Diagonal != "" {
		var diag plotter.XYs
		for _, x := range pl.Xs {
			diag = append(diag, plotter.XY{X: pos(x), Y: x})
			top = max(top, x)
		}
		d.addLine(p, &leg, f.Diagonal, diag, stroke(grey, 1.8, dashes(1)), draw.GlyphStyle{})
	}
	if r := f.Reference; r.Label != "" {
		ref := plotter.XYs{{X: first, Y: r.Y}, {X: last, Y: r.Y}}
		d.addLine(p, &leg, r.Label, ref, stroke(grey, 1, []vg.Length{vg.Points(2), vg.Points(3)}), draw.GlyphStyle{})
		top = max(top, r.Y)
	}
	p.X.Min, p.X.Max = lo, hi
	p.Y.Min, p.Y.Max = 0, headroom(top)
	if f.Y.Max > 0 {
		p.Y.Max = f.Y.Max
	}
	if f.Y.Scale == chartspec.Log && !math.IsInf(bottom, 1) {
		logTicks(p, bottom, top)
	}
	return figure{title: f.Title, plot: p, legend: leg}, d.err
}

// logTicks gives p's y axis, log10 on a linear axis, a log axis' ticks.
func logTicks(p *plot.Plot, bottom, top float64) {
	lo, hi := math.Floor(math.Log10(bottom)), math.Ceil(math.Log10(top*1.05))
	var ticks []plot.Tick
	for e := lo; e <= hi; e++ {
		ticks = append(ticks, plot.Tick{Value: e, Label: siLabel(math.Pow(10, e))})
		for k := 2.0; k < 10 && e < hi; k++ {
			ticks = append(ticks, plot.Tick{Value: e + math.Log10(k)})
		}
	}
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Min, p.Y.Max = lo, hi
}

// addLine adds a line to p and leg, with markers where mark has a shape.
func (d *drawer) addLine(p *plot.Plot, leg *plot.Legend, label string, xys plotter.XYs, style draw.LineStyle, mark draw.GlyphStyle) {
	l := d.line(label, xys, style)
	if mark.Shape == nil {
		p.Add(l)
		leg.Add(label, l)
		return
	}
	m := d.marks(label, xys, mark)
	p.Add(l, m)
	leg.Add(label, l, m)
}

// amdahlFigure draws Amdahl's curve for the plot's serial fraction on a
// log axis to X.Max CPUs, and the speedups measured as markers.
func amdahlFigure(f chartspec.Figure, pl chartspec.Plot) (figure, error) {
	serial, most := pl.Fraction, f.X.Max
	var ticks []int
	for n := 1; float64(n) <= most; n *= 2 {
		ticks = append(ticks, n)
	}
	p, leg := cpuPlot(f.X.Label, ticks, yLabel(f, pl, pl.Unit)), newLegend()
	p.X.Scale = plot.LogScale{}
	var d drawer
	var curve plotter.XYs
	for n := 1.0; n <= most+0.0001; n *= math.Pow(2, 0.125) {
		curve = append(curve, plotter.XY{X: n, Y: 1 / (serial + (1-serial)/n)})
	}
	pal := palette.Cycle()
	label := fmt.Sprintf("Amdahl, serial fraction %.3g (limit %.3g×)", serial, 1/math.Max(serial, 1e-9))
	d.addLine(p, &leg, label, curve, stroke(color.RGBA{60, 60, 60, 255}, 1.8, dashes(0)), draw.GlyphStyle{})
	top := curve[len(curve)-1].Y
	for i, l := range pl.Lines {
		var xys plotter.XYs
		for _, xy := range l.Points {
			xys = append(xys, plotter.XY{X: xy.X, Y: xy.Y})
			top = max(top, xy.Y)
		}
		m := d.marks(l.Name, xys, glyph(pal[(i+1)%len(pal)], 4, marker(i)))
		p.Add(m)
		leg.Add(l.Name+" (measured)", m)
	}
	p.X.Min, p.X.Max = 0.9, most*70/64
	p.Y.Min, p.Y.Max = 0, headroom(top)
	return figure{title: f.Title, plot: p, legend: leg}, d.err
}

// barsFigure draws each line's one value as a bar; bytes/s read as MB/s.
func barsFigure(f chartspec.Figure, pl chartspec.Plot) (figure, error) {
	unit, scale := pl.Unit, 1.0
	if unit == "bytes/s" { // megabytes read better than eight-digit numbers
		unit, scale = "MB/s", 1e6
	}
	names := collect.Mapped(pl.Lines, func(l chartspec.PlotLine) string { return l.Name })
	values := plotter.Values(collect.Mapped(pl.Lines, func(l chartspec.PlotLine) float64 { return l.Points[0].Y / scale }))
	p, leg := newPlot(), newLegend()
	p.Y.Label.Text = yLabel(f, pl, unit)
	bars, err := plotter.NewBarChart(values, vg.Points(36))
	if err != nil {
		return figure{}, err
	}
	bars.Color = palette.Cycle()[0]
	bars.LineStyle.Width = 0
	p.Add(&plotter.Grid{Horizontal: gridLine()}, bars)
	p.NominalX(names...)
	p.Y.Min = 0
	p.Y.Max = headroom(slices.Max(values))
	return figure{title: f.Title, plot: p, legend: leg}, nil
}

// maxLabColumns keeps a lab's table within the page; more go to more tables.
const maxLabColumns = 12

// labTables list a lab's points with its metrics in name order, past
// maxLabColumns in tables of their own.
func labTables(points []results.Point) []tableView {
	variant := col("variant", true, func(p results.Point) string { return p.Variant() })
	cpus := col("CPUs", false, func(p results.Point) string { return strconv.Itoa(p.CPUs) })
	core := []pointColumn{variant, cpus,
		col("goroutines", false, func(p results.Point) string { return strconv.Itoa(p.Par) }),
		col("throughput", false, func(p results.Point) string { return format.Rate(p.Throughput, p.Unit) }),
		msColumn("p50 ms", func(l results.Latency) float64 { return l.P50 }),
		msColumn("min ms", func(l results.Latency) float64 { return l.Min }),
		msColumn("max ms", func(l results.Latency) float64 { return l.Max })}
	measures, others := measureColumns(points, results.Util)
	core = slices.DeleteFunc(append(append(core, measures[results.Util]), others...), func(c pointColumn) bool { return c.hidden })
	metrics := func(keys []results.Metric) []pointColumn {
		var out []pointColumn
		for _, k := range keys {
			out = append(out, col(strings.ReplaceAll(string(k), "_", " "), false, func(p results.Point) string {
				if v, ok := p.Metrics[k]; ok {
					return strconv.FormatFloat(v, 'g', 4, 64)
				}
				return "-"
			}))
		}
		return out
	}
	keys := text.MetricNames(points)
	if len(core)+len(keys) <= maxLabColumns {
		return []tableView{pointTable(points, append(core, metrics(keys)...))}
	}
	out := []tableView{pointTable(points, core)}
	for i, per := 0, maxLabColumns-2; i < len(keys); i += per {
		out = append(out, pointTable(points, append([]pointColumn{variant, cpus}, metrics(keys[i:min(i+per, len(keys))])...)))
	}
	return out
}

// WriteLabs writes each lab's answer (verdict.Labs) with the numbers its
// figure draws, then where the rest is.
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

// figureOf is lab's figure, or chartspec.Default.
func figureOf(figures map[string]chartspec.Figure, lab string) chartspec.Figure {
	if f, ok := figures[lab]; ok {
		return f
	}
	return chartspec.Default(lab)
}

const LabMore = "(--format table prints every point in full, with the lab's own metrics)"

// labTable is what fig draws of a lab's points, as a table.
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
		t.Title += fmt.Sprintf("; serial fraction %s, so Amdahl's ceiling ×%s", format.Number(pl.Fraction), format.Number(1/math.Max(pl.Fraction, 1e-9)))
	}
	if !bars { // a bar's one number is what the title says
		t.Head = collect.Mapped(pl.Xs, format.Number)
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
