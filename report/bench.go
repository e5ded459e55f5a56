package report

import (
	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/report/text"

	"github.com/brewput/brewput/results/analysis"

	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/brewput/brewput/results"
)

// benchChartPrefix starts the name of every chart of a Go benchmark, so
// that WriteDir can remove those an earlier report left.
const benchChartPrefix = "bench-"

// benchView is one family's section (analysis.BenchFamily: benchmarks
// that differ in one part of their names): its answer, its members'
// throughput against CPUs in one chart, the latency of a call beside it
// where they timed their calls, and, collapsed, the scaling law fitted to
// each member and every benchmark at every CPU count as benchstat shows
// it.
type benchView struct {
	Name, Pkg, ID string
	Origin        string
	Sentences     []string
	Throughput    chartView
	Latency       *chartView
	Fit           []fitView
	Table         tableView
}

// benchFamily is a family of benchmarks with its members' points, by
// benchmark name.
type benchFamily struct {
	analysis.BenchFamily
	Points map[string][]results.Point
}

// drawBenchCharts draws each family's charts and lays out its section.
func drawBenchCharts(points []results.Point, a *analysis.Analysis) ([]chart, []benchView, error) {
	var families []benchFamily
	for _, f := range a.Verdict.Benches {
		bf := benchFamily{BenchFamily: f, Points: map[string][]results.Point{}}
		for _, p := range points {
			if p.Kind() == results.KindBench && p.Bench.Pkg == f.Pkg && p.Origin() == f.Origin && slices.Contains(f.Benchmarks, p.Mode) {
				bf.Points[p.Mode] = append(bf.Points[p.Mode], p)
			}
		}
		families = append(families, bf)
	}
	origins := map[string]bool{}
	for _, f := range families {
		origins[f.Origin] = true
	}
	var charts []chart
	var views []benchView
	used := map[string]int{}
	for _, f := range families {
		title := f.Name
		if len(origins) > 1 {
			title += " (" + f.Origin + ")"
		}
		name := benchChartPrefix + anchor(title)
		if used[name]++; used[name] > 1 {
			name += "-" + strconv.Itoa(used[name])
		}
		var fits []analysis.Fit
		for _, fit := range a.Fits {
			if fit.Pkg == f.Pkg && fit.Source == f.Origin && slices.Contains(f.Benchmarks, fit.Mode) {
				fits = append(fits, fit)
			}
		}
		c, err := benchThroughputChart(name, title, f, fits)
		if err != nil {
			return nil, nil, fmt.Errorf("draw %s chart: %w", name, err)
		}
		charts = append(charts, c)
		v := benchView{Name: title, Pkg: f.Pkg, ID: name, Origin: f.Origin, Sentences: text.BenchSentences(f.BenchFamily), Throughput: imageView(c, ""),
			Table: benchTable(f)}
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

// familyCPUs are the CPU counts a family was measured on, in order.
func familyCPUs(f benchFamily) []int {
	var cpus []int
	for _, ps := range f.Points {
		for _, p := range ps {
			if !slices.Contains(cpus, p.CPUs) {
				cpus = append(cpus, p.CPUs)
			}
		}
	}
	slices.Sort(cpus)
	return cpus
}

// benchThroughputChart draws a family's throughput against CPUs, a colour
// per member: every run as a small ring, the median at each CPU count on
// a solid line, and the Universal Scalability Law fitted to each member's
// runs (as brewput fit fits them) as a dashed curve where it could be.
// The throughput axis is in SI units.
func benchThroughputChart(name, title string, f benchFamily, fits []analysis.Fit) (chart, error) {
	c := chart{Name: name, Title: title + ": throughput against CPUs"}
	cpus := familyCPUs(f)
	if c.Empty = emptyAgainstCPUs(cpus); c.Empty != "" {
		return c, nil
	}
	p := newPlot()
	p.X.Label.Text = "CPUs (GOMAXPROCS, pinned under brewput bench)"
	p.X.Tick.Marker = cpuTicks(cpus)
	unit := f.Points[f.Benchmarks[0]][0].Unit
	p.Y.Label.Text = "throughput (" + unit + ")"
	p.Y.Tick.Marker = siTicks{}
	p.Add(&plotter.Grid{Vertical: gridLine(), Horizontal: gridLine()})
	leg := newLegend()
	var curves, lines []plot.Plotter
	colours := palette()
	for i, b := range f.Benchmarks {
		colour := colours[i%len(colours)]
		points := f.Points[b]
		var reps, medians plotter.XYs
		for _, n := range cpus {
			var xs []float64
			for _, pt := range points {
				if pt.CPUs == n {
					xs = append(xs, pt.Throughput)
					reps = append(reps, plotter.XY{X: float64(n), Y: pt.Throughput})
				}
			}
			if len(xs) > 0 {
				medians = append(medians, plotter.XY{X: float64(n), Y: results.Median(xs)})
			}
		}
		line, err := plotter.NewLine(medians)
		if err != nil {
			return c, err
		}
		line.LineStyle = draw.LineStyle{Color: colour, Width: vg.Points(1.8)}
		marks, err := plotter.NewScatter(medians)
		if err != nil {
			return c, err
		}
		marks.GlyphStyle = draw.GlyphStyle{Color: colour, Radius: vg.Points(3.5), Shape: draw.CircleGlyph{}}
		each, err := plotter.NewScatter(reps)
		if err != nil {
			return c, err
		}
		each.GlyphStyle = draw.GlyphStyle{Color: tint(colour, 0.6), Radius: vg.Points(2.5), Shape: draw.RingGlyph{}}
		if fit, ok := fitted(fitsOf(fits, b)); ok {
			top := float64(cpus[len(cpus)-1])
			curve := make(plotter.XYs, curveSteps+1)
			for j := range curve {
				n := 1 + (top-1)*float64(j)/curveSteps
				curve[j] = plotter.XY{X: n, Y: fit.Predict(n)}
			}
			fl, err := plotter.NewLine(curve)
			if err != nil {
				return c, err
			}
			fl.LineStyle = draw.LineStyle{Color: shade(colour, 0.7), Width: vg.Points(1.2), Dashes: dashes(0)}
			curves = append(curves, fl)
		}
		label := f.Variants[i]
		if len(f.Benchmarks) == 1 {
			label = "median"
		}
		leg.Add(label, line, marks)
		lines = append(lines, line, each, marks)
	}
	if len(curves) > 0 {
		l, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 0, Y: 0}})
		if err != nil {
			return c, err
		}
		l.LineStyle = draw.LineStyle{Color: shade(colours[0], 0.7), Width: vg.Points(1.2), Dashes: dashes(0)}
		leg.Add("USL fit (dashed)", l)
	}
	ring, err := plotter.NewScatter(plotter.XYs{{X: 0, Y: 0}})
	if err != nil {
		return c, err
	}
	ring.GlyphStyle = draw.GlyphStyle{Color: tint(colours[0], 0.6), Radius: vg.Points(2.5), Shape: draw.RingGlyph{}}
	leg.Add("each run", ring)
	p.Add(curves...)
	p.Add(lines...)
	p.X.Min, p.X.Max = float64(cpus[0]), float64(cpus[len(cpus)-1])
	p.Y.Min, p.Y.Max = 0, headroom(p.Y.Max)
	c.SVG, c.PNG, err = figure{title: c.Title, plot: p, legend: leg}.render()
	return c, err
}

// fitted is a benchmark's fit, if it could be fitted.
func fitted(fits []analysis.Fit) (analysis.Fit, bool) {
	if len(fits) == 0 || !fits[0].Fitted() {
		return analysis.Fit{}, false
	}
	return fits[0], true
}

// fitsOf are the fits of mode's series.
func fitsOf(fits []analysis.Fit, mode string) []analysis.Fit {
	var out []analysis.Fit
	for _, f := range fits {
		if f.Mode == mode {
			out = append(out, f)
		}
	}
	return out
}

// benchLatencyChart draws the latency of a call of a family's members at
// each CPU count, a box per member and count in the member's colour (the
// median of the runs' percentiles), where the benchmarks timed every call
// (package bench) and brewput bench got the histograms: ok is false
// otherwise. The axis is in the unit that suits the latencies, ns, µs or
// ms.
func benchLatencyChart(name, title string, f benchFamily) (chart, bool, error) {
	type row struct {
		label  string
		colour int
		s      sample
	}
	var rows []row
	top := 0.0
	for i, b := range f.Benchmarks {
		var withHist []results.Point
		for _, p := range f.Points[b] {
			if p.Hist != "" {
				withHist = append(withHist, p)
			}
		}
		for _, s := range samples(withHist) {
			label := format.Count(s.CPUs, "CPU")
			if len(f.Benchmarks) > 1 {
				label = f.Variants[i] + ", " + label
			}
			rows = append(rows, row{label, i, s})
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
	colours := palette()
	var boxes latencyBoxes
	ticks := make(plot.ConstantTicks, len(rows))
	for i, r := range rows {
		l := r.s.Latency
		if v, bad := undrawable(l); bad {
			return c, false, fmt.Errorf("latency percentile %v at %d CPUs cannot be drawn", v, r.s.CPUs)
		}
		scaled := results.Latency{P05: l.P05 * scale, P25: l.P25 * scale, P50: l.P50 * scale, P75: l.P75 * scale, P95: l.P95 * scale}
		y := float64(len(rows) - 1 - i)
		boxes.Rows = append(boxes.Rows, boxRow{Y: y, Latency: scaled, Colour: colours[r.colour%len(colours)]})
		ticks[i] = plot.Tick{Value: y, Label: r.label}
	}
	var err error
	c.SVG, c.PNG, err = boxFigure(c.Title, "latency of a call ("+unit+")", ticks, boxes, len(rows)).render()
	return c, true, err
}

// benchTable lists a family's benchmarks as benchstat does: a row per
// benchmark and CPU count, named as go test names it, the median ± its
// 95 % interval of every unit of their lines with SI prefixes, and the
// runs.
func benchTable(f benchFamily) tableView {
	var all []results.Point
	for _, b := range f.Benchmarks {
		all = append(all, f.Points[b]...)
	}
	head, rows := results.BenchTable(all)
	t := tableView{Head: []column{{head[0], true}}}
	for _, h := range head[1:] {
		t.Head = append(t.Head, column{h, false})
	}
	for _, r := range rows {
		row := rowView{Cells: []cell{{r[0], true}}}
		for _, v := range r[1:] {
			row.Cells = append(row.Cells, cell{v, false})
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// siTicks marks round values as niceTicks does, labelled with SI prefixes
// ("15 M" for 15000000), for axes whose values run into the thousands and
// millions.
type siTicks struct{}

// Ticks implements plot.Ticker.
func (siTicks) Ticks(min, max float64) []plot.Tick {
	ticks := niceTicks{}.Ticks(min, max)
	for i := range ticks {
		ticks[i].Label = siLabel(ticks[i].Value)
	}
	return ticks
}

// siLabel writes v with an SI prefix and at most three significant
// figures: "0", "500", "1.5 k", "15 M".
func siLabel(v float64) string {
	if v == 0 {
		return "0"
	}
	prefixes := []string{"", " k", " M", " G", " T"}
	i := 0
	for math.Abs(v) >= 1000 && i < len(prefixes)-1 {
		v /= 1000
		i++
	}
	s := strconv.FormatFloat(v, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s + prefixes[i]
}
