package report

import (
	"fmt"
	"image/color"
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

// seriesSpec says how to read a lab's points into lines: which figure is
// the x value, which the y value, and which line a point belongs to. x
// values are drawn evenly spaced in their order (1, 4, 16, 64 clients;
// 0, 1, 10, 100, 1000 slots), which reads better than a linear axis for
// such sweeps and, unlike a log axis, has room for 0.
type seriesSpec struct {
	xLabel, yLabel string
	x, y           func(p results.Point) (float64, bool)
	// series names the line a point belongs to; lines of one group share
	// a colour (a variant in process and over gRPC), and dashed ones are
	// drawn dashed.
	series func(p results.Point) (key labLine, ok bool)
	// reference, when set, draws a thin line at that y with its label.
	reference      float64
	referenceLabel string
	// diagonalLabel, when set, draws the line y = x with that label.
	diagonalLabel string
	// logY draws y on a log scale, for lines orders of magnitude apart.
	logY  bool
	empty string
}

// labLine is a line of a seriesFigure.
type labLine struct {
	name, group string
	dashed      bool
}

// seriesFigure draws spec's lines from the points at the largest CPU count
// measured, so that every line compares like with like.
func seriesFigure(title string, points []results.Point, spec seriesSpec) (figure, error) {
	cpus := 0
	for _, p := range points {
		cpus = max(cpus, p.CPUs)
	}
	type line struct {
		labLine
		at map[float64]float64
	}
	var names []string
	lines := map[string]*line{}
	var xs []float64
	for _, p := range points {
		if p.CPUs != cpus || p.Rep > 1 {
			continue
		}
		key, ok := spec.series(p)
		name := key.name
		if !ok {
			continue
		}
		x, xok := spec.x(p)
		y, yok := spec.y(p)
		if !xok || !yok || math.IsNaN(y) || math.IsInf(y, 0) {
			continue
		}
		if lines[name] == nil {
			names = append(names, name)
			lines[name] = &line{labLine: key, at: map[float64]float64{}}
		}
		lines[name].at[x] = y
		if !slices.Contains(xs, x) {
			xs = append(xs, x)
		}
	}
	if len(names) == 0 {
		return figure{}, emptyChart(spec.empty)
	}
	slices.Sort(xs)
	pos := map[float64]float64{}
	var ticks []plot.Tick
	for i, x := range xs {
		pos[x] = float64(i)
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: strconv.FormatFloat(x, 'g', -1, 64)})
	}
	p, leg := newPlot(), newLegend()
	p.X.Label.Text = spec.xLabel
	p.Y.Label.Text = fmt.Sprintf("%s, %d %s", spec.yLabel, cpus, cpusWord(cpus))
	p.Add(&plotter.Grid{Vertical: gridLine(), Horizontal: gridLine()})
	pal, top, bottom := palette(), 0.0, math.Inf(1)
	var groups []string
	for i, name := range names {
		l := lines[name]
		group := l.group
		if group == "" {
			group = name
		}
		if !slices.Contains(groups, group) {
			groups = append(groups, group)
		}
		colour := pal[slices.Index(groups, group)%len(pal)]
		var xys plotter.XYs
		var keys []float64
		for x := range l.at {
			keys = append(keys, x)
		}
		slices.Sort(keys)
		for _, x := range keys {
			y := l.at[x]
			if spec.logY {
				if y <= 0 {
					continue
				}
				y = math.Log10(y)
			}
			xys = append(xys, plotter.XY{X: pos[x], Y: y})
			top = max(top, l.at[x])
			if l.at[x] > 0 {
				bottom = min(bottom, l.at[x])
			}
		}
		if err := markedLine(p, &leg, name, xys, colour, i, l.dashed); err != nil {
			return figure{}, err
		}
	}
	last := float64(len(xs) - 1)
	if spec.diagonalLabel != "" {
		var diag plotter.XYs
		for _, x := range xs {
			diag = append(diag, plotter.XY{X: pos[x], Y: x})
			top = max(top, x)
		}
		if err := xyLine(p, &leg, spec.diagonalLabel, diag, color.RGBA{120, 120, 120, 255}, 1, true); err != nil {
			return figure{}, err
		}
	}
	if spec.referenceLabel != "" {
		if err := referenceLine(p, &leg, spec.referenceLabel, -0.2, last+0.2, spec.reference); err != nil {
			return figure{}, err
		}
		top = max(top, spec.reference)
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = -0.2, last+0.2
	p.Y.Min, p.Y.Max = 0, headroom(top)
	if spec.logY && !math.IsInf(bottom, 1) {
		// Drawn as log10 on a linear axis with its own ticks: the points
		// were converted above.
		lo, hi := math.Floor(math.Log10(bottom)), math.Ceil(math.Log10(top*1.05))
		var ticks []plot.Tick
		for e := lo; e <= hi; e++ {
			ticks = append(ticks, plot.Tick{Value: e, Label: strings.TrimSpace(results.FormatRate(math.Pow(10, e), ""))})
			for k := 2.0; k < 10 && e < hi; k++ {
				ticks = append(ticks, plot.Tick{Value: e + math.Log10(k)})
			}
		}
		p.Y.Tick.Marker = plot.ConstantTicks(ticks)
		p.Y.Min, p.Y.Max = lo, hi
	}
	return figure{title: title, plot: p, legend: leg}, nil
}

// markedLine adds a line with markers at its points, dashed when asked
// (a dashed series, such as the remote calls beside the in-process ones,
// still shows where it was measured).
func markedLine(p *plot.Plot, leg *plot.Legend, label string, xys plotter.XYs, colour color.RGBA, style int, dashed bool) error {
	line, err := plotter.NewLine(xys)
	if err != nil {
		return fmt.Errorf("%s: %w", label, err)
	}
	line.LineStyle = draw.LineStyle{Color: colour, Width: vg.Points(1.8)}
	if dashed {
		line.LineStyle.Dashes = dashes(style)
	}
	marks, err := plotter.NewScatter(xys)
	if err != nil {
		return fmt.Errorf("%s: %w", label, err)
	}
	marks.GlyphStyle = draw.GlyphStyle{Color: colour, Radius: vg.Points(3.5), Shape: marker(style)}
	p.Add(line, marks)
	leg.Add(label, line, marks)
	return nil
}

// metric reads a point's metric by name.
func metric(name string) func(p results.Point) (float64, bool) {
	return func(p results.Point) (float64, bool) {
		v, ok := p.Metrics[name]
		return v, ok
	}
}

// throughputOf reads a point's throughput.
func throughputOf(p results.Point) (float64, bool) { return p.Throughput, p.Throughput > 0 }

// aggregateSpec draws the grouped points' speedup against the buffer, a
// line per producer count.
func aggregateSpec() seriesSpec {
	return seriesSpec{
		xLabel: "channel buffer (events)",
		yLabel: "speedup of grouped over single (×)",
		x:      metric("buffer"),
		y:      metric("speedup"),
		series: func(p results.Point) (labLine, bool) {
			n, ok := p.Metrics["producers"]
			return labLine{name: plural(int(n), "producer")}, ok && strings.HasPrefix(p.Variant, "grouped/")
		},
		reference: 1, referenceLabel: "no gain (1×)",
		empty: "No grouped point says its speedup over single.",
	}
}

// actorsSpec draws identities per second against clients, a line per
// variant, the remote ones dashed, on a log scale: over gRPC a variant is
// tens of times slower than in process.
func actorsSpec() seriesSpec {
	return seriesSpec{
		xLabel: "concurrent clients",
		yLabel: "identities per second (log scale)",
		x:      metric("clients"),
		y:      throughputOf,
		series: func(p results.Point) (labLine, bool) {
			if v, ok := strings.CutPrefix(p.Variant, "remote/"); ok {
				return labLine{name: v + " over gRPC", group: v, dashed: true}, true
			}
			return labLine{name: p.Variant + " in process", group: p.Variant}, true
		},
		logY:  true,
		empty: "No point to draw.",
	}
}

// streamSpec draws messages replied per second against the messenger's
// channel buffer, a line per mode, the runs with a peer restart dashed.
func streamSpec() seriesSpec {
	return seriesSpec{
		xLabel: "messenger's channel buffer (messages)",
		yLabel: "replies per second",
		x:      metric("buffer"),
		y:      throughputOf,
		series: func(p results.Point) (labLine, bool) {
			mode, _, _ := strings.Cut(p.Variant, "/")
			if p.Metrics["restart"] == 1 {
				return labLine{name: mode + ", peer restarted", group: mode, dashed: true}, true
			}
			return labLine{name: mode, group: mode}, true
		},
		empty: "No point to draw.",
	}
}

// logsSpec draws how many times the naive sum of append latencies
// overstates the wall time against writers, a line per kind of log, with
// y = t, what a log that serializes every append gives.
func logsSpec() seriesSpec {
	return seriesSpec{
		xLabel:        "writer goroutines (t)",
		yLabel:        "sum of append latencies ÷ wall time (×)",
		x:             metric("writers"),
		y:             metric("overstatement"),
		series:        func(p results.Point) (labLine, bool) { return labLine{name: p.Variant}, true },
		diagonalLabel: "t: every writer always waiting",
		empty:         "No point says how much its latency sum overstates the wall time (overstatement).",
	}
}
