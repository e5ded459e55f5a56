package report

import (
	"fmt"
	"image/color"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/report/palette"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// benchChartPrefix starts every Go benchmark chart's name, so that WriteDir
// removes those an earlier report left.
const benchChartPrefix = "bench-"

// benchView is a family's section (analysis.BenchFamily): its answer, its
// throughput, a call's latency where timed, and collapsed, fits and runs.
type benchView struct {
	Name, Pkg, ID string
	Origin        string
	Sentences     []string
	Throughput    chartView
	Latency       *chartView
	Fit           []fitView
	// Head and Rows are every run as benchstat shows them (text.BenchTable).
	Head []string
	Rows [][]string
}

// benchFamily is a family with its members' points by name, and all of
// them in member order.
type benchFamily struct {
	analysis.BenchFamily
	Points map[string][]results.Point
	All    []results.Point
}

func drawBenchCharts(points []results.Point, a *analysis.Analysis) ([]chart, []benchView, error) {
	origins := distinct(a.Verdict.Benches, func(f analysis.BenchFamily) string { return f.Origin })
	var charts []chart
	var views []benchView
	used := map[string]int{}
	for _, bf := range a.Verdict.Benches {
		f := benchFamily{BenchFamily: bf, Points: map[string][]results.Point{}}
		member := func(mode string) bool { return slices.Contains(f.Benchmarks, mode) }
		for _, p := range points {
			if p.Kind == results.KindBench && member(p.Mode) && p.Bench.Pkg == f.Pkg && p.Origin() == f.Origin {
				f.Points[p.Mode] = append(f.Points[p.Mode], p)
			}
		}
		for _, b := range f.Benchmarks {
			f.All = append(f.All, f.Points[b]...)
		}
		title := f.Name
		if len(origins) > 1 {
			title += " (" + f.Origin + ")"
		}
		name := benchChartPrefix + anchor(title)
		if used[name]++; used[name] > 1 {
			name += "-" + strconv.Itoa(used[name])
		}
		fits := slices.DeleteFunc(slices.Clone(a.Fits), func(fit analysis.Fit) bool {
			return !member(fit.Mode) || fit.Pkg != f.Pkg || fit.Source != f.Origin
		})
		c, err := benchThroughputChart(name, title, f, fits)
		if err != nil {
			return nil, nil, fmt.Errorf("draw %s chart: %w", name, err)
		}
		charts = append(charts, c)
		v := benchView{Name: title, Pkg: f.Pkg, ID: name, Origin: f.Origin, Sentences: text.BenchSentences(f.BenchFamily), Throughput: imageView(c, "")}
		v.Head, v.Rows = text.BenchTable(f.All)
		for i, b := range f.Benchmarks {
			for _, fv := range fitViews(fitsOf(fits, b)) {
				if len(f.Benchmarks) > 1 {
					fv.Source = f.Variants[i] + ", " + fv.Source
				}
				v.Fit = append(v.Fit, fv)
			}
		}
		if lat, ok, err := benchLatencyChart(name+"-latency", title, f); err != nil {
			return nil, nil, fmt.Errorf("draw %s latency chart: %w", name, err)
		} else if ok {
			charts = append(charts, lat)
			lv := imageView(lat, "")
			v.Latency = &lv
		}
		views = append(views, v)
	}
	return charts, views, nil
}

// benchThroughputChart draws a family's throughput against CPUs, a colour
// per member: each run a ring, medians on a line, the fitted USL dashed.
func benchThroughputChart(name, title string, f benchFamily, fits []analysis.Fit) (chart, error) {
	c := chart{Name: name, Title: title + ": throughput against CPUs"}
	if c.Empty = tooManyToDraw(f); c.Empty != "" {
		return c, nil
	}
	cpus := cpusOf(f.All)
	if c.Empty = emptyAgainstCPUs(cpus); c.Empty != "" {
		return c, nil
	}
	unit := f.Points[f.Benchmarks[0]][0].Unit
	p := cpuPlot("CPUs (GOMAXPROCS, pinned under brewput bench)", cpus, "throughput ("+unit+")")
	p.Y.Tick.Marker = siTicks{}
	leg := newLegend()
	var curves, lines []plot.Plotter
	var d drawer
	colours := palette.Cycle()
	runStyle := func(colour color.RGBA) draw.GlyphStyle { return glyph(tint(colour, 0.6), 2.5, draw.RingGlyph{}) }
	fitStyle := func(colour color.RGBA) draw.LineStyle { return stroke(shade(colour, 0.7), 1.2, dashes(0)) }
	for i, b := range f.Benchmarks {
		colour := colours[i%len(colours)]
		var runs, medians plotter.XYs
		_, byCPUs := groupBy(f.Points[b], func(p results.Point) int { return p.CPUs })
		for _, x := range samples(f.Points[b]) {
			medians = append(medians, plotter.XY{X: float64(x.CPUs), Y: x.Throughput})
			for _, p := range byCPUs[x.CPUs] {
				runs = append(runs, plotter.XY{X: float64(x.CPUs), Y: p.Throughput})
			}
		}
		l := d.line(b, medians, stroke(colour, 1.8, nil))
		m := d.marks(b, medians, glyph(colour, 3.5, draw.CircleGlyph{}))
		each := d.marks(b, runs, runStyle(colour))
		if fs := fitsOf(fits, b); len(fs) > 0 && fs[0].Fitted() {
			curves = append(curves, d.line(b+": fitted curve", curve(fs[0], float64(cpus[len(cpus)-1])), fitStyle(colour)))
		}
		label := f.Variants[i]
		if len(f.Benchmarks) == 1 {
			label = "median"
		}
		leg.Add(label, l, m)
		lines = append(lines, l, each, m)
	}
	origin := plotter.XYs{{X: 0, Y: 0}, {X: 0, Y: 0}}
	if len(curves) > 0 {
		leg.Add("USL fit (dashed)", d.line("USL fit", origin, fitStyle(colours[0])))
	}
	leg.Add("each run", d.marks("each run", origin[:1], runStyle(colours[0])))
	if d.err != nil {
		return c, d.err
	}
	p.Add(curves...)
	p.Add(lines...)
	p.X.Min, p.X.Max = float64(cpus[0]), float64(cpus[len(cpus)-1])
	p.Y.Min, p.Y.Max = 0, headroom(p.Y.Max)
	return c.drawn(figure{title: c.Title, plot: p, legend: leg}, nil)
}

// tooManyToDraw says why a family of more members than the palette's
// colours is not drawn: lines not told apart, a legend of gigabytes.
func tooManyToDraw(f benchFamily) string {
	if n := len(f.Benchmarks); n > len(palette.Cycle()) {
		return fmt.Sprintf("%d benchmarks in this family, more than the %d colours a chart tells apart: the table below lists them", n, len(palette.Cycle()))
	}
	return ""
}

// benchLatencyChart draws a call's latency per member and CPU count as
// boxes, where brewput bench got histograms (else ok is false).
func benchLatencyChart(name, title string, f benchFamily) (chart, bool, error) {
	if tooManyToDraw(f) != "" {
		return chart{}, false, nil
	}
	var labels []string
	var rows [][]boxRow
	top := 0.0
	colours := palette.Cycle()
	for i, b := range f.Benchmarks {
		withHist := slices.DeleteFunc(slices.Clone(f.Points[b]), func(p results.Point) bool { return p.Hist == "" })
		for _, s := range samples(withHist) {
			label := format.Count(s.CPUs, "CPU")
			if len(f.Benchmarks) > 1 {
				label = f.Variants[i] + ", " + label
			}
			labels = append(labels, label)
			rows = append(rows, []boxRow{{Latency: s.Latency, Colour: colours[i%len(colours)]}})
			top = max(top, s.Latency.P95)
		}
	}
	if len(rows) == 0 {
		return chart{}, false, nil
	}
	c := chart{Name: name, Title: title + ": latency of a call (box p25–p75, whiskers p5–p95)"}
	unit, scale := "ms", 1.0
	switch {
	case top < 0.001:
		unit, scale = "ns", 1e6
	case top < 1:
		unit, scale = "µs", 1e3
	}
	for _, row := range rows {
		l := row[0].Latency
		row[0].Latency = results.Latency{P05: l.P05 * scale, P25: l.P25 * scale, P50: l.P50 * scale, P75: l.P75 * scale, P95: l.P95 * scale}
	}
	c, err := c.drawn(boxFigure(c.Title, "latency of a call ("+unit+")", labels, rows))
	return c, true, err
}

// siTicks are niceTicks labelled with SI prefixes ("15 M").
type siTicks struct{}

func (siTicks) Ticks(min, max float64) []plot.Tick {
	ticks := niceTicks{}.Ticks(min, max)
	for i := range ticks {
		ticks[i].Label = siLabel(ticks[i].Value)
	}
	return ticks
}

func siLabel(v float64) string { return strings.TrimSpace(format.Rate(v, "")) }
