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

// labNames are the labs whose charts a report may hold, for removing stale
// chart files; a lab brewput does not know gets a chart all the same.
func labNames() []string {
	return []string{"workloads", "channels", "render", "wordcount", "actors", "logs", "stream", "aggregate"}
}

// splitLabs separates the coffee shop's points from the labs', the labs in
// the order they first appear.
func splitLabs(points []results.Point) (shop []results.Point, labs []string, byLab map[string][]results.Point) {
	byLab = map[string][]results.Point{}
	for _, p := range points {
		if p.Lab == "" {
			shop = append(shop, p)
			continue
		}
		if _, ok := byLab[p.Lab]; !ok {
			labs = append(labs, p.Lab)
		}
		byLab[p.Lab] = append(byLab[p.Lab], p)
	}
	return shop, labs, byLab
}

// labView is one lab's section: what it shows, its chart, its points.
type labView struct {
	Lab, ID, Lesson string
	Chart           chartView
	Table           tableView
}

// drawLabCharts draws each lab's chart, named "lab-NAME".
func drawLabCharts(labs []string, byLab map[string][]results.Point) ([]chart, error) {
	var out []chart
	for _, l := range labs {
		c, err := labChart(l, byLab[l])
		if err != nil {
			return nil, fmt.Errorf("draw %s chart: %w", c.Name, err)
		}
		out = append(out, c)
	}
	return out, nil
}

// labViews lays out the labs' sections, each with its chart.
func labViews(labs []string, byLab map[string][]results.Point, charts []chart) []labView {
	var out []labView
	for i, l := range labs {
		out = append(out, labView{Lab: l, ID: "lab-" + anchor(l), Lesson: labLesson(l),
			Chart: chartViews(charts[i:i+1], false)[0], Table: labTable(byLab[l])})
	}
	return out
}

// labLesson says what to look for in a lab's chart.
func labLesson(lab string) string {
	switch lab {
	case "workloads":
		return "The speedup of each workload's concurrent version over its sequential one, at each CPU count. IO-bound find gains even on 1 CPU: its goroutines overlap their waits. CPU-bound add gains only with a second CPU, and sort never does: its concurrent version sorts the whole again after the parts."
	case "channels":
		return "How close each channel setup comes to the bound that the producer's and a consumer's rates alone and the CPUs allow, against the batch size, for each channel size (best over consumer counts, at the most CPUs measured). Lines of one at a time stay far below the bound whatever the channel's size; batching closes most of the gap."
	case "render":
		return "Amdahl's law: the best speedup a program with the estimated serial fraction can reach on n CPUs (the line, to 64 CPUs), with each variant's measured speedup over seq (markers). The curve flattens at 1 ÷ serial fraction, however many CPUs are added."
	case "wordcount":
		return "Bytes counted per second by each way of reading, the system's wc -w beside them. One Read call per byte pays a system call per byte; a buffered reader pays one per buffer; reusing the buffer also spares an allocation per read."
	case "actors":
		return "Identities handed out per second against concurrent clients, a line per way of serializing the counter, in process (solid) and over gRPC on 127.0.0.1 (dashed), on a log scale. A mutex around the counter only (sequence) is the one that gains from more clients and CPUs: the reply is built outside the lock. An actor pays a channel handover each way per request and is slowest with few clients. Over gRPC every variant is tens of times slower, and the differences between them mostly disappear under the network path's cost (remote_cost in the table)."
	case "logs":
		return "t writers share a fixed number of appends to one log. A log that takes one append at a time does the same work however many write: its throughput, first start to last finish, stays near one writer's (of single in the table, as a fraction). But each append now waits for the others, so the sum of the writers' latencies grows about t-fold while the wall time does not: n appends of w seconds take n·w, yet their latencies add up to n·w·t. The chart shows that ratio against t, a line per kind of log; the closer to the grey line, the more of each latency is waiting for the lock. A benchmark that divides appends by summed latency reports a throughput t times too low."
	case "stream":
		return "Messages replied to per second over one gRPC stream on 127.0.0.1, against the buffer of the channel the messenger goroutine drains, a line per mode. Waiting for each reply before the next send (sync) leaves the stream idle for a round trip per message; a listener goroutine that receives replies while the messenger sends (async) keeps it busy, and one sender with nothing to hand over (iorder) is faster still. The buffer changes little: the stream, not the handover, is what limits. With the peer stopped and started mid-run (dashed), the client reconnects, and the table's replied, failed and lost columns account for every message."
	case "aggregate":
		return "The speedup of one handle call per run of identical events over one call per event, against the channel's buffer, a line per producer count. Each call costs the same whatever it handles, so grouping runs of about 8 events gains several times; a single consumer bounds both ways, and the unbuffered channel, where every event is a handover, gains least."
	}
	return "Throughput of each variant against CPUs."
}

// labChart draws the chart that shows a lab's lesson.
func labChart(lab string, points []results.Point) (chart, error) {
	c := chart{Name: "lab-" + anchor(lab)}
	var fig figure
	var err error
	switch lab {
	case "workloads":
		c.Title = "workloads: speedup of concurrent over sequential against CPUs"
		fig, err = speedupFigure(c.Title, points)
	case "channels":
		c.Title = "channels: share of the bound reached against batch size"
		fig, err = channelsFigure(c.Title, points)
	case "render":
		c.Title = "render: Amdahl's law and the measured speedups"
		fig, err = amdahlFigure(c.Title, points)
	case "wordcount":
		c.Title = "wordcount: throughput of each way of reading"
		fig, err = barsFigure(c.Title, points)
	case "actors":
		c.Title = "actors: identities per second against clients"
		fig, err = seriesFigure(c.Title, points, actorsSpec())
	case "logs":
		c.Title = "logs: summed append latencies against the wall time"
		fig, err = seriesFigure(c.Title, points, logsSpec())
	case "stream":
		c.Title = "stream: replies per second against the channel's buffer"
		fig, err = seriesFigure(c.Title, points, streamSpec())
	case "aggregate":
		c.Title = "aggregate: speedup of grouping over one call per event"
		fig, err = seriesFigure(c.Title, points, aggregateSpec())
	default:
		c.Title = lab + ": throughput against CPUs"
		fig, err = variantsFigure(c.Title, points)
	}
	if err != nil {
		if empty, ok := err.(emptyChart); ok {
			c.Empty = string(empty)
			return c, nil
		}
		return c, err
	}
	c.SVG, c.PNG, err = fig.render()
	return c, err
}

// emptyChart is why a lab's chart has nothing to draw.
type emptyChart string

func (e emptyChart) Error() string { return string(e) }

// xyLine adds a line (with markers unless dashed) to p and the legend.
func xyLine(p *plot.Plot, leg *plot.Legend, label string, xys plotter.XYs, colour color.RGBA, style int, dashed bool) error {
	line, err := plotter.NewLine(xys)
	if err != nil {
		return fmt.Errorf("%s: %w", label, err)
	}
	line.LineStyle = draw.LineStyle{Color: colour, Width: vg.Points(1.8)}
	if dashed {
		line.LineStyle.Dashes = dashes(style)
		p.Add(line)
		leg.Add(label, line)
		return nil
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

// speedupFigure plots each workload's speedup (its concurrent points'
// "speedup" metric) against CPUs, with the line of no gain.
func speedupFigure(title string, points []results.Point) (figure, error) {
	var names []string
	at := map[string]map[int]float64{}
	for _, p := range points {
		work, kind, _ := strings.Cut(p.Variant, "/")
		s, ok := p.Metrics["speedup"]
		if kind != "concurrent" || !ok || p.Rep > 1 {
			continue
		}
		if at[work] == nil {
			names = append(names, work)
			at[work] = map[int]float64{}
		}
		at[work][p.CPUs] = s
	}
	if len(names) == 0 {
		return figure{}, emptyChart("No concurrent variant has a speedup to draw.")
	}
	p, leg := newPlot(), newLegend()
	p.X.Label.Text, p.Y.Label.Text = "CPUs", "speedup over sequential (×)"
	p.Add(&plotter.Grid{Vertical: gridLine(), Horizontal: gridLine()})
	var cpus []int
	top := 1.0
	pal := palette()
	for i, w := range names {
		var xys plotter.XYs
		for _, n := range sortedKeys(at[w]) {
			xys = append(xys, plotter.XY{X: float64(n), Y: at[w][n]})
			top = max(top, at[w][n])
			if !slices.Contains(cpus, n) {
				cpus = append(cpus, n)
			}
		}
		if err := xyLine(p, &leg, w, xys, pal[i%len(pal)], i, false); err != nil {
			return figure{}, err
		}
	}
	slices.Sort(cpus)
	if err := referenceLine(p, &leg, "no gain (1×)", float64(cpus[0]), float64(cpus[len(cpus)-1]), 1); err != nil {
		return figure{}, err
	}
	p.X.Tick.Marker = cpuTicks(cpus)
	p.X.Min, p.X.Max = float64(cpus[0])-0.1, float64(cpus[len(cpus)-1])+0.1
	p.Y.Min, p.Y.Max = 0, headroom(top)
	return figure{title: title, plot: p, legend: leg}, nil
}

// referenceLine draws a thin grey horizontal line at y.
func referenceLine(p *plot.Plot, leg *plot.Legend, label string, x0, x1, y float64) error {
	ref, err := plotter.NewLine(plotter.XYs{{X: x0, Y: y}, {X: x1, Y: y}})
	if err != nil {
		return err
	}
	ref.LineStyle = draw.LineStyle{Color: color.RGBA{120, 120, 120, 255}, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(2), vg.Points(3)}}
	p.Add(ref)
	leg.Add(label, ref)
	return nil
}

// channelsFigure plots, at the largest CPU count, the share of the bound
// each channel size reaches against the batch size, the best over the
// consumer counts measured, from variants named "S=…/M=…/B=…".
func channelsFigure(title string, points []results.Point) (figure, error) {
	cpus := 0
	for _, p := range points {
		cpus = max(cpus, p.CPUs)
	}
	best := map[int]map[int]float64{} // size → batch → share
	for _, p := range points {
		share, ok := p.Metrics["of_bound"]
		if p.CPUs != cpus || !ok {
			continue
		}
		v := parseVariant(p.Variant)
		s, sok := v["S"]
		b, bok := v["B"]
		if !sok || !bok {
			continue
		}
		if best[s] == nil {
			best[s] = map[int]float64{}
		}
		best[s][b] = max(best[s][b], share)
	}
	if len(best) == 0 {
		return figure{}, emptyChart("No point says its share of the bound (of_bound) with a channel size S and batch B.")
	}
	p, leg := newPlot(), newLegend()
	p.X.Label.Text = "lines per batch (B, log scale)"
	p.Y.Label.Text = fmt.Sprintf("share of the bound reached (%%), %d %s", cpus, cpusWord(cpus))
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Add(&plotter.Grid{Vertical: gridLine(), Horizontal: gridLine()})
	pal := palette()
	xmin, xmax := math.Inf(1), math.Inf(-1)
	for i, s := range sortedKeys(best) {
		var xys plotter.XYs
		for _, b := range sortedKeys(best[s]) {
			xys = append(xys, plotter.XY{X: float64(b), Y: 100 * best[s][b]})
			xmin, xmax = min(xmin, float64(b)), max(xmax, float64(b))
		}
		if err := xyLine(p, &leg, fmt.Sprintf("channel of %d", s), xys, pal[i%len(pal)], i, false); err != nil {
			return figure{}, err
		}
	}
	if xmin == xmax {
		xmin, xmax = xmin/2, xmax*2
	}
	p.X.Min, p.X.Max = xmin/1.2, xmax*1.2
	p.Y.Min, p.Y.Max = 0, 105
	return figure{title: title, plot: p, legend: leg}, nil
}

// parseVariant reads "S=10/M=4/B=100" into its numbers.
func parseVariant(v string) map[string]int {
	out := map[string]int{}
	for _, part := range strings.Split(v, "/") {
		k, val, ok := strings.Cut(part, "=")
		if n, err := strconv.Atoi(val); ok && err == nil {
			out[k] = n
		}
	}
	return out
}

// amdahlFigure draws Amdahl's curve for the serial fraction the points
// estimate (the median of their "serial_fraction" metrics), out to 64
// CPUs, with each variant's measured speedup of the whole program
// ("total_speedup", render and encode) on it.
func amdahlFigure(title string, points []results.Point) (figure, error) {
	var fractions []float64
	var variants []string
	at := map[string]map[int]float64{}
	for _, p := range points {
		if f, ok := p.Metrics["serial_fraction"]; ok && f >= 0 && f <= 1 && p.Variant != "seq" {
			fractions = append(fractions, f)
		}
		// Amdahl bounds the whole program's speedup, render and encode.
		s, ok := p.Metrics["total_speedup"]
		if !ok {
			s, ok = p.Metrics["speedup"]
		}
		if !ok || p.Rep > 1 {
			continue
		}
		if at[p.Variant] == nil {
			variants = append(variants, p.Variant)
			at[p.Variant] = map[int]float64{}
		}
		at[p.Variant][p.CPUs] = s
	}
	if len(fractions) == 0 {
		return figure{}, emptyChart("No point estimates a serial fraction (serial_fraction), so there is no curve to draw.")
	}
	serial := median(fractions)
	p, leg := newPlot(), newLegend()
	p.X.Label.Text, p.Y.Label.Text = "CPUs (log scale)", "speedup over seq (×)"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = cpuTicks([]int{1, 2, 4, 8, 16, 32, 64})
	p.Add(&plotter.Grid{Vertical: gridLine(), Horizontal: gridLine()})
	var curve plotter.XYs
	for n := 1.0; n <= 64.0001; n *= math.Pow(2, 0.125) {
		curve = append(curve, plotter.XY{X: n, Y: 1 / (serial + (1-serial)/n)})
	}
	pal := palette()
	if err := xyLine(p, &leg, fmt.Sprintf("Amdahl, serial fraction %.3g (limit %.3g×)", serial, 1/math.Max(serial, 1e-9)), curve, color.RGBA{60, 60, 60, 255}, 0, true); err != nil {
		return figure{}, err
	}
	top := curve[len(curve)-1].Y
	for i, v := range variants {
		var xys plotter.XYs
		for _, n := range sortedKeys(at[v]) {
			xys = append(xys, plotter.XY{X: float64(n), Y: at[v][n]})
			top = max(top, at[v][n])
		}
		marks, err := plotter.NewScatter(xys)
		if err != nil {
			return figure{}, err
		}
		marks.GlyphStyle = draw.GlyphStyle{Color: pal[(i+1)%len(pal)], Radius: vg.Points(4), Shape: marker(i)}
		p.Add(marks)
		leg.Add(v+" (measured)", marks)
	}
	p.X.Min, p.X.Max = 0.9, 70
	p.Y.Min, p.Y.Max = 0, headroom(top)
	return figure{title: title, plot: p, legend: leg}, nil
}

// barsFigure draws each variant's throughput as a bar, at the largest CPU
// count.
func barsFigure(title string, points []results.Point) (figure, error) {
	cpus := 0
	for _, p := range points {
		cpus = max(cpus, p.CPUs)
	}
	var names []string
	var values plotter.Values
	unit := ""
	for _, p := range points {
		if p.CPUs != cpus || p.Rep > 1 || slices.Contains(names, p.Variant) {
			continue
		}
		names = append(names, p.Variant)
		values = append(values, p.Throughput)
		unit = p.Unit
	}
	if len(names) == 0 {
		return figure{}, emptyChart("No point to draw.")
	}
	if unit == "bytes/s" { // megabytes read better than eight-digit numbers
		for i := range values {
			values[i] /= 1e6
		}
		unit = "MB/s"
	}
	p, leg := newPlot(), newLegend()
	p.Y.Label.Text = fmt.Sprintf("throughput (%s), %d %s", unit, cpus, cpusWord(cpus))
	bars, err := plotter.NewBarChart(values, vg.Points(36))
	if err != nil {
		return figure{}, err
	}
	bars.Color = palette()[0]
	bars.LineStyle.Width = 0
	p.Add(&plotter.Grid{Horizontal: gridLine()}, bars)
	p.NominalX(names...)
	p.Y.Min = 0
	p.Y.Max = headroom(slices.Max(values))
	return figure{title: title, plot: p, legend: leg}, nil
}

// variantsFigure draws each variant's throughput against CPUs.
func variantsFigure(title string, points []results.Point) (figure, error) {
	var names []string
	at := map[string]map[int]float64{}
	var cpus []int
	for _, p := range points {
		if at[p.Variant] == nil {
			names = append(names, p.Variant)
			at[p.Variant] = map[int]float64{}
		}
		at[p.Variant][p.CPUs] = p.Throughput
		if !slices.Contains(cpus, p.CPUs) {
			cpus = append(cpus, p.CPUs)
		}
	}
	slices.Sort(cpus)
	p, leg := newPlot(), newLegend()
	p.X.Label.Text, p.Y.Label.Text = "CPUs", "throughput ("+points[0].Unit+")"
	p.Add(&plotter.Grid{Vertical: gridLine(), Horizontal: gridLine()})
	pal, top := palette(), 0.0
	for i, v := range names {
		var xys plotter.XYs
		for _, n := range sortedKeys(at[v]) {
			xys = append(xys, plotter.XY{X: float64(n), Y: at[v][n]})
			top = max(top, at[v][n])
		}
		if err := xyLine(p, &leg, v, xys, pal[i%len(pal)], i, false); err != nil {
			return figure{}, err
		}
	}
	p.X.Tick.Marker = cpuTicks(cpus)
	p.X.Min, p.X.Max = float64(cpus[0])-0.1, float64(cpus[len(cpus)-1])+0.1
	p.Y.Min, p.Y.Max = 0, headroom(top)
	return figure{title: title, plot: p, legend: leg}, nil
}

func sortedKeys[V any](m map[int]V) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// labTable lists a lab's points: variant, CPUs, goroutines, throughput,
// the median and spread of its runs, CPU use, and its metrics, a column
// each, in name order.
func labTable(points []results.Point) tableView {
	var keys []string
	for _, p := range points {
		for k := range p.Metrics {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	slices.Sort(keys)
	t := tableView{Head: []column{{"variant", true}, {"CPUs", false}, {"goroutines", false}, {"throughput", false},
		{"p50 ms", false}, {"min ms", false}, {"max ms", false}, {"CPU util", false}}}
	for _, k := range keys {
		t.Head = append(t.Head, column{strings.ReplaceAll(k, "_", " "), false})
	}
	for _, p := range points {
		row := rowView{}
		put := func(v string, text bool) { row.Cells = append(row.Cells, cell{v, text}) }
		put(p.Variant, true)
		put(fmt.Sprint(p.CPUs), false)
		put(fmt.Sprint(p.Par), false)
		put(results.FormatRate(p.Throughput, p.Unit), false)
		put(results.FormatMs(p.Latency.P50), false)
		put(results.FormatMs(p.Latency.Min), false)
		put(results.FormatMs(p.Latency.Max), false)
		put(fmt.Sprintf("%.0f %%", 100*p.Util), false)
		for _, k := range keys {
			if v, ok := p.Metrics[k]; ok {
				put(strconv.FormatFloat(v, 'g', 4, 64), false)
			} else {
				put("-", false)
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}
