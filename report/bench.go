package report

import (
	"fmt"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/brewput/brewput/explain/scaling"
	"github.com/brewput/brewput/results"
)

// benchChartPrefix starts the name of every chart of a Go benchmark, so
// that WriteDir can remove those an earlier report left.
const benchChartPrefix = "bench-"

// benchView is one benchmark's section: its throughput against CPUs with
// the scaling law fitted, its latency distribution where it timed its
// calls, and every point with every value of its lines.
type benchView struct {
	Name, Pkg, ID string
	Throughput    chartView
	Latency       *chartView
	Fit           []fitView
	Table         tableView
}

// benchmark is one benchmark's points, on one machine (or from one file).
type benchmark struct {
	mode, pkg, origin string
	points            []results.Point
}

// benchmarks groups points by benchmark, in the order they first come.
func benchmarks(points []results.Point) []benchmark {
	var out []benchmark
	index := map[[3]string]int{}
	for _, p := range points {
		k := [3]string{p.Bench.Pkg, p.Mode, p.Origin()}
		i, ok := index[k]
		if !ok {
			i = len(out)
			index[k] = i
			out = append(out, benchmark{mode: p.Mode, pkg: p.Bench.Pkg, origin: p.Origin()})
		}
		out[i].points = append(out[i].points, p)
	}
	return out
}

// drawBenchCharts draws each benchmark's charts and lays out its section.
func drawBenchCharts(points []results.Point) ([]chart, []benchView, error) {
	bs := benchmarks(points)
	origins := map[string]bool{}
	for _, b := range bs {
		origins[b.origin] = true
	}
	var charts []chart
	var views []benchView
	used := map[string]int{}
	for _, b := range bs {
		title := b.mode
		if len(origins) > 1 {
			title += " (" + b.origin + ")"
		}
		name := benchChartPrefix + anchor(title)
		if used[name]++; used[name] > 1 {
			name += "-" + strconv.Itoa(used[name])
		}
		c, fits, err := benchThroughputChart(name, title, b.points)
		if err != nil {
			return nil, nil, fmt.Errorf("draw %s chart: %w", name, err)
		}
		charts = append(charts, c)
		v := benchView{Name: title, Pkg: b.pkg, ID: name, Throughput: chartViews([]chart{c}, false)[0],
			Fit: fits, Table: benchTable(b.points)}
		if lat, ok, err := benchLatencyChart(name+"-latency", title, b.points); err != nil {
			return nil, nil, fmt.Errorf("draw %s latency chart: %w", name, err)
		} else if ok {
			charts = append(charts, lat)
			lv := chartViews([]chart{lat}, false)[0]
			v.Latency = &lv
		}
		views = append(views, v)
	}
	return charts, views, nil
}

// benchThroughputChart draws a benchmark's throughput against CPUs: every
// repetition as a small ring, the median at each CPU count on a solid
// line, and the Universal Scalability Law fitted to all of them (as
// brewput fit fits them) as a dashed curve, with the fit's row for the
// section.
func benchThroughputChart(name, title string, points []results.Point) (chart, []fitView, error) {
	c := chart{Name: name, Title: title + ": throughput against CPUs"}
	var cpus []int
	for _, p := range points {
		if !slices.Contains(cpus, p.CPUs) {
			cpus = append(cpus, p.CPUs)
		}
	}
	slices.Sort(cpus)
	fits := benchFits(points)
	if c.Empty = emptyAgainstCPUs(cpus); c.Empty != "" {
		return c, fits, nil
	}
	colour := palette()[0]
	p := newPlot()
	p.X.Label.Text = "CPUs (GOMAXPROCS, and CPU affinity under brewput bench)"
	p.X.Tick.Marker = cpuTicks(cpus)
	p.Y.Label.Text = "throughput (" + points[0].Unit + ")"
	p.Add(&plotter.Grid{Vertical: gridLine(), Horizontal: gridLine()})
	leg := newLegend()

	var reps, medians plotter.XYs
	for _, n := range cpus {
		var xs []float64
		for _, pt := range points {
			if pt.CPUs == n {
				xs = append(xs, pt.Throughput)
				reps = append(reps, plotter.XY{X: float64(n), Y: pt.Throughput})
			}
		}
		medians = append(medians, plotter.XY{X: float64(n), Y: results.Median(xs)})
	}
	line, err := plotter.NewLine(medians)
	if err != nil {
		return c, fits, err
	}
	line.LineStyle = draw.LineStyle{Color: colour, Width: vg.Points(1.8)}
	marks, err := plotter.NewScatter(medians)
	if err != nil {
		return c, fits, err
	}
	marks.GlyphStyle = draw.GlyphStyle{Color: colour, Radius: vg.Points(3.5), Shape: draw.CircleGlyph{}}
	each, err := plotter.NewScatter(reps)
	if err != nil {
		return c, fits, err
	}
	each.GlyphStyle = draw.GlyphStyle{Color: tint(colour, 0.6), Radius: vg.Points(2.5), Shape: draw.RingGlyph{}}
	var curves []plot.Plotter
	if f, ok := fitted(points); ok {
		m := f.Curve()
		top := float64(cpus[len(cpus)-1])
		curve := make(plotter.XYs, curveSteps+1)
		for i := range curve {
			n := 1 + (top-1)*float64(i)/curveSteps
			curve[i] = plotter.XY{X: n, Y: m.Predict(n)}
		}
		fl, err := plotter.NewLine(curve)
		if err != nil {
			return c, fits, err
		}
		fl.LineStyle = draw.LineStyle{Color: shade(colour, 0.7), Width: vg.Points(1.4), Dashes: dashes(0)}
		curves = append(curves, fl)
		leg.Add(fmt.Sprintf("USL fit σ=%s κ=%s", scaling.FormatParam(f.Sigma), scaling.FormatParam(f.Kappa)), fl)
	}
	leg.Add("median", line, marks)
	leg.Add("each run", each)
	p.Add(curves...)
	p.Add(line, each, marks)
	p.X.Min, p.X.Max = float64(cpus[0]), float64(cpus[len(cpus)-1])
	p.Y.Min, p.Y.Max = 0, headroom(p.Y.Max)
	c.SVG, c.PNG, err = figure{title: c.Title, plot: p, legend: leg}.render()
	return c, fits, err
}

// benchFits is the fit's row of one benchmark's points: the Universal
// Scalability Law against CPUs, or why it could not be fitted.
func benchFits(points []results.Point) []fitView {
	mode := points[0].Mode
	return fitViews(points, mode)
}

// fitted is the fit of one benchmark's points, if they could be fitted.
func fitted(points []results.Point) (scaling.Fit, bool) {
	fits, err := scaling.Fits(points, scaling.ByCPUs)
	if err != nil || len(fits) == 0 || !fits[0].Fitted() {
		return scaling.Fit{}, false
	}
	return fits[0], true
}

// benchLatencyChart draws a benchmark's latency distribution at each CPU
// count, a box per count (the median of the repetitions' percentiles),
// where the benchmark timed every call (package bench) and brewput bench
// got the histograms: ok is false otherwise. The axis is in the unit that
// suits the latencies, ns, µs or ms.
func benchLatencyChart(name, title string, points []results.Point) (chart, bool, error) {
	var withHist []results.Point
	for _, p := range points {
		if p.Hist != "" {
			withHist = append(withHist, p)
		}
	}
	if len(withHist) == 0 {
		return chart{}, false, nil
	}
	c := chart{Name: name, Title: title + ": latency of a call (box p25–p75, whiskers p5–p95)"}
	ss := samples(withHist)
	top := 0.0
	for _, s := range ss {
		top = max(top, s.Latency.P95)
	}
	unit, scale := "ms", 1.0
	switch {
	case top < 0.001:
		unit, scale = "ns", 1e6
	case top < 1:
		unit, scale = "µs", 1e3
	}
	colour := palette()[0]
	var boxes latencyBoxes
	ticks := make(plot.ConstantTicks, len(ss))
	for i, s := range ss {
		l := s.Latency
		if v, bad := undrawable(l); bad {
			return c, false, fmt.Errorf("latency percentile %v at %d CPUs cannot be drawn", v, s.CPUs)
		}
		scaled := results.Latency{P05: l.P05 * scale, P25: l.P25 * scale, P50: l.P50 * scale, P75: l.P75 * scale, P95: l.P95 * scale}
		y := float64(len(ss) - 1 - i)
		boxes.Rows = append(boxes.Rows, boxRow{Y: y, Latency: scaled, Colour: colour})
		ticks[i] = plot.Tick{Value: y, Label: fmt.Sprintf("%d %s", s.CPUs, cpusWord(s.CPUs))}
	}
	var err error
	c.SVG, c.PNG, err = boxFigure(c.Title, "latency of a call ("+unit+")", ticks, boxes, len(ss)).render()
	return c, true, err
}

// benchTable lists a benchmark's points: CPUs, repetition, throughput,
// and every unit of their lines, in the order they first come.
func benchTable(points []results.Point) tableView {
	var units []string
	reps := false
	for _, p := range points {
		reps = reps || p.Rep > 0
		for _, v := range p.Bench.Values {
			if !slices.Contains(units, v.Unit) {
				units = append(units, v.Unit)
			}
		}
	}
	t := tableView{Head: []column{{"CPUs", false}}}
	if reps {
		t.Head = append(t.Head, column{"rep", false})
	}
	t.Head = append(t.Head, column{"throughput", false})
	for _, u := range units {
		t.Head = append(t.Head, column{u, false})
	}
	for _, p := range points {
		row := rowView{}
		put := func(v string) { row.Cells = append(row.Cells, cell{v, false}) }
		put(strconv.Itoa(p.CPUs))
		if reps {
			put(strconv.Itoa(max(p.Rep, 1)))
		}
		put(results.FormatRate(p.Throughput, p.Unit))
		for _, u := range units {
			if v, ok := p.Bench.Value(u); ok {
				put(strconv.FormatFloat(v, 'g', 4, 64))
			} else {
				put("-")
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}
