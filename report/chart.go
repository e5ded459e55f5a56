package report

import (
	"bytes"
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// chart is one of the report's pictures, or the reason it has none.
type chart struct {
	Name  string // file stem and HTML id: "throughput", "latency", "distribution"
	Title string // e.g. "Throughput against CPUs"
	SVG   []byte // nil when Empty != ""
	PNG   []byte
	Phone []byte // the picture laid out for a phone
	Empty string // when set, one sentence for the page saying why there is nothing to draw
	Wide  bool   // small multiples, shown across the page
}

// drawn is c with fig drawn in it.
func (c chart) drawn(fig figure, err error) (chart, error) {
	if err != nil {
		return c, err
	}
	c.Wide = len(fig.panels) > 0
	return c.rendered(fig)
}

// rendered is c with d drawn in it for the page and for a phone.
func (c chart) rendered(d drawing) (chart, error) {
	var err error
	if c.SVG, c.PNG, err = render(d); err != nil {
		return c, err
	}
	c.Phone, err = renderSVG(d.phone())
	return c, err
}

// Sizes: a web page column's width, and a PNG sharp on it.
const (
	chartWidth  = 7.5 * vg.Inch
	chartHeight = 4.5 * vg.Inch
	pngDPI      = 120
	margin      = vg.Length(12) // around the picture, in points
	gap         = vg.Length(14) // between title, plot and legend
)

// A phone's pictures are 373 CSS pixels across, what a 390 px screen shows
// at their own size, so that 8-point text shows at 10 px or more.
const (
	phoneWidth      = vg.Length(280)
	phonePlotHeight = vg.Length(200)
)

// drawCharts draws the charts of the shop's points, one at least;
// declared gives the modes' groups and colours.
func drawCharts(points []results.Point, fits []analysis.Fit, declared results.Modes) ([]chart, error) {
	ss, cpus := buildSeries(points, declared), cpusOf(points)
	draws := []func() (chart, error){
		func() (chart, error) {
			return againstCPUs(chart{Name: "throughput", Title: "Throughput against CPUs"}, ss, cpus, "",
				func(x sample) float64 { return x.Throughput }, func(b *results.Band) [2]float64 { return b.Throughput })
		},
		func() (chart, error) {
			return againstCPUs(chart{Name: "latency", Title: "Median latency against CPUs"}, ss, cpus, "median latency (ms)",
				func(x sample) float64 { return x.Latency.P50 }, func(b *results.Band) [2]float64 { return b.P50Ms })
		},
		func() (chart, error) { return distributionChart(ss) },
		func() (chart, error) { return comparisonChart(ss) },
		func() (chart, error) { return scalabilityChart(fits, ss, cpus) },
	}
	out := make([]chart, 0, len(draws))
	for _, d := range draws {
		c, err := d()
		if err != nil {
			return nil, fmt.Errorf("draw %s chart: %w", c.Name, err)
		}
		out = append(out, c)
	}
	return out, nil
}

const noPoints = "No points were measured, so there is nothing to draw."

// emptyAgainstCPUs says why a chart against CPUs cannot be drawn, or "".
func emptyAgainstCPUs(cpus []int) string {
	switch len(cpus) {
	case 0:
		return noPoints
	case 1:
		return fmt.Sprintf("Only one CPU count (%d) was measured, so there is no line to draw against CPUs; "+
			"measure with --cpus 1,2 or more.", cpus[0])
	}
	return ""
}

// throughputLabels returns the y axis label and the legend's label of a
// series: where units differ, each legend label names its own.
func throughputLabels(ss []series) (string, func(series) string) {
	unit := func(s series) string {
		return cmp.Or(s.Unit, "ops/s") // Throughput is ops per second of window
	}
	if varies(ss, unit) {
		return "throughput (units differ: see legend)", func(s series) string { return s.Label + " [" + unit(s) + "]" }
	}
	return "throughput (" + unit(ss[0]) + ")", func(s series) string { return s.Label }
}

// againstCPUs draws value against CPUs, a line per series, from y 0 so that
// heights compare honestly; ylabel "" is the throughput's.
func againstCPUs(c chart, ss []series, cpus []int, ylabel string, value func(sample) float64, band func(*results.Band) [2]float64) (chart, error) {
	if c.Empty = emptyAgainstCPUs(cpus); c.Empty != "" {
		return c, nil
	}
	label := func(s series) string { return s.Label }
	if ylabel == "" {
		ylabel, label = throughputLabels(ss)
	}
	return c.drawn(panelFigure(c.Title, ss, label, func(ss []series) (*plot.Plot, plot.Legend, error) {
		return linePlot(ss, cpus, ylabel, label, value, band)
	}))
}

// panelFigure is one plot of the series, or where its legend would hold
// more than maxEntries, small multiples on one scale (splitPanels).
func panelFigure(title string, ss []series, label func(series) string, draw func([]series) (*plot.Plot, plot.Legend, error)) (figure, error) {
	var ps []panel
	for _, g := range splitPanels(ss, label) {
		p, leg, err := draw(g.series)
		if err != nil {
			return figure{}, err
		}
		ps = append(ps, panel{title: g.title, plot: p, legend: leg})
	}
	if len(ps) == 1 {
		return figure{title: title, plot: ps[0].plot, legend: ps[0].legend}, nil
	}
	sameY(ps)
	return figure{title: title, panels: ps}, nil
}

func cpuPlot(xlabel string, cpus []int, ylabel string) *plot.Plot {
	p := newPlot()
	p.X.Label.Text = xlabel
	p.X.Tick.Marker = cpuTicks(cpus)
	p.Y.Label.Text = ylabel
	p.Add(&plotter.Grid{Vertical: gridLine(), Horizontal: gridLine()})
	return p
}

// drawer makes lines and markers, keeping the first error (NaN or infinite
// data) for its caller to return once.
type drawer struct{ err error }

func (d *drawer) check(label string, xys plotter.XYs) plotter.XYs {
	if _, err := plotter.CopyXYs(xys); err != nil {
		d.err = cmp.Or(d.err, fmt.Errorf("%s: %w", label, err))
	}
	return xys
}

func (d *drawer) line(label string, xys plotter.XYs, style draw.LineStyle) *plotter.Line {
	return &plotter.Line{XYs: d.check(label, xys), LineStyle: style}
}

func (d *drawer) marks(label string, xys plotter.XYs, style draw.GlyphStyle) *plotter.Scatter {
	return &plotter.Scatter{XYs: d.check(label, xys), GlyphStyle: style}
}

func stroke(c color.Color, width float64, dashes []vg.Length) draw.LineStyle {
	return draw.LineStyle{Color: c, Width: vg.Points(width), Dashes: dashes}
}

func glyph(c color.Color, radius float64, shape draw.GlyphDrawer) draw.GlyphStyle {
	return draw.GlyphStyle{Color: c, Radius: vg.Points(radius), Shape: shape}
}

// linePlot is a panel of againstCPUs: measurements as markers on solid
// lines, thinner beside a model's dashed line and band, so that it shows.
func linePlot(ss []series, cpus []int, ylabel string,
	label func(series) string, value func(sample) float64, band func(*results.Band) [2]float64) (*plot.Plot, plot.Legend, error) {
	p := cpuPlot("CPUs", cpus, ylabel)
	width := 1.8
	if slices.ContainsFunc(ss, func(s series) bool { return s.Model }) {
		width = 1.2
	}
	leg := newLegend()
	thumbs := make([][]plot.Thumbnailer, len(ss))
	var model, measured []plot.Plotter
	var d drawer
	for i, s := range ss {
		xys := make(plotter.XYs, len(s.Samples))
		var disturbed plotter.XYs
		for j, x := range s.Samples {
			xys[j] = plotter.XY{X: float64(x.CPUs), Y: value(x)}
			if xys[j].Y >= 1e5 { // millions of operations a second read as "15 M", not 15000000
				p.Y.Tick.Marker = siTicks{}
			}
			if x.Disturbed {
				disturbed = append(disturbed, xys[j])
			}
		}
		if s.Model {
			l := d.line(s.Label, xys, stroke(s.Colour, 1.8, dashes(s.Style)))
			if shade := bandPolygon(s, band); shade != nil {
				model = append(model, shade)
			}
			model = append(model, l)
			thumbs[i] = []plot.Thumbnailer{l}
			continue
		}
		l := d.line(s.Label, xys, stroke(s.Colour, width, nil))
		m := d.marks(s.Label, xys, glyph(s.Colour, 3.5, marker(s.Style)))
		measured = append(measured, l, m)
		thumbs[i] = []plot.Thumbnailer{l, m}
		if len(disturbed) > 0 { // a disturbed sample's marker, crossed (disturbedMark): hollow is a prediction's
			measured = append(measured, d.marks(s.Label, disturbed, glyph(color.RGBA{0x1b, 0x1b, 0x1b, 0xff}, 4.5, draw.CrossGlyph{})))
		}
	}
	if d.err != nil {
		return nil, leg, d.err
	}
	for _, e := range entries(ss, label) {
		var ts []plot.Thumbnailer
		for _, i := range e.series {
			if len(e.series) > 1 && !ss[i].Model {
				ts = append(ts, thumbs[i][1]) // the marker on the model's dashes
				continue
			}
			ts = append(ts, thumbs[i]...)
		}
		leg.Add(e.label, ts...)
	}
	p.Add(model...)
	p.Add(measured...)
	p.X.Min, p.X.Max = float64(cpus[0]), float64(cpus[len(cpus)-1])
	p.Y.Min, p.Y.Max = 0, headroom(p.Y.Max)
	return p, leg, nil
}

// bandPolygon shades a model series' band, mostly transparent; nil where a
// sample has no band or the band has no width.
func bandPolygon(s series, band func(*results.Band) [2]float64) plot.Plotter {
	var lo, hi plotter.XYs
	wide := false
	for _, x := range s.Samples {
		if x.Band == nil {
			return nil
		}
		e := band(x.Band)
		lo = append(lo, plotter.XY{X: float64(x.CPUs), Y: e[0]})
		hi = append(hi, plotter.XY{X: float64(x.CPUs), Y: e[1]})
		wide = wide || e[1] > e[0]
	}
	if !wide || len(lo) < 2 {
		return nil
	}
	slices.Reverse(hi)
	poly, err := plotter.NewPolygon(append(lo, hi...))
	if err != nil {
		return nil
	}
	poly.Color = color.NRGBA{R: s.Colour.R, G: s.Colour.G, B: s.Colour.B, A: 56}
	poly.LineStyle.Width = 0
	return poly
}

// atTop lays out the comparison charts' rows at the most CPUs measured (or
// else predicted): the count, a label per legend entry, its marks.
func atTop[R any](ss []series, mark func(series, sample) R) (int, []string, [][]R) {
	top := 0
	for _, model := range []bool{false, true} {
		for _, s := range ss {
			if s.Model == model && len(s.Samples) > 0 {
				top = max(top, s.Samples[len(s.Samples)-1].CPUs)
			}
		}
		if top > 0 {
			break
		}
	}
	var at []series
	for _, s := range ss {
		if _, ok := s.at(top); ok {
			at = append(at, s)
		}
	}
	es := entries(at, func(s series) string { return s.Label })
	labels, rows := make([]string, len(es)), make([][]R, len(es))
	for i, e := range es {
		labels[i] = e.label
		for _, j := range e.series {
			x, _ := at[j].at(top)
			rows[i] = append(rows[i], mark(at[j], x))
		}
	}
	return top, labels, rows
}

// distributionChart draws each series' latencies at atTop's count as
// horizontal boxes, a mode's prediction dashed below its measurement.
func distributionChart(ss []series) (chart, error) {
	top, labels, rows := atTop(ss, func(s series, x sample) boxRow {
		b := boxRow{Latency: x.Latency, Colour: s.Colour}
		if s.Model {
			b.Dashes = dashes(s.Style)
		}
		return b
	})
	c := chart{Name: "distribution", Title: fmt.Sprintf("Latency distribution at %d %s (box p25–p75, whiskers p5–p95)", top, format.Plural(top, "CPU"))}
	return c.drawn(boxFigure(c.Title, "latency (ms)", labels, rows))
}

// comparisonChart draws each series' throughput in the distribution's
// rows as bars: the talk's chart of the designs, beside their latencies.
func comparisonChart(ss []series) (chart, error) {
	unit := ""
	top, labels, rows := atTop(ss, func(s series, x sample) barRow {
		unit = s.Unit
		return barRow{Value: x.Throughput, Colour: s.Colour, Model: s.Model}
	})
	c := chart{Name: "comparison", Title: fmt.Sprintf("Throughput at %d %s", top, format.Plural(top, "CPU"))}
	return c.drawn(barFigure(c.Title, cmp.Or(unit, "ops/s"), labels, rows), nil)
}

// headroom is an axis maximum a little above max, so that the highest point
// is off the frame; 1 where there is no data above 0.
func headroom(max float64) float64 {
	if max <= 0 || math.IsInf(max, 0) || math.IsNaN(max) {
		return 1
	}
	return max * 1.06
}

func gridLine() draw.LineStyle {
	return draw.LineStyle{Color: color.Gray{Y: 0xdd}, Width: vg.Points(0.6)}
}

// dashes are the dashes of a mode's style'th model series; never solid.
func dashes(style int) []vg.Length {
	all := [][]vg.Length{
		{vg.Points(6), vg.Points(3)},
		{vg.Points(2), vg.Points(2)},
		{vg.Points(8), vg.Points(3), vg.Points(2), vg.Points(3)},
		{vg.Points(3), vg.Points(5)},
	}
	return all[style%len(all)]
}

// marker is the marker of a mode's style'th measured series (of a machine).
func marker(style int) draw.GlyphDrawer {
	all := []draw.GlyphDrawer{
		draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{},
		draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{},
	}
	return all[style%len(all)]
}

// cpuTicks marks whole CPU counts: up to maxCountTicks a tick each, a label
// left off where it would crowd; more (a model run to 256) at most eight
// multiples of a power of two, lest grid lines grey the chart.
type cpuTicks []int

const maxCountTicks = 16

func (t cpuTicks) Ticks(min, max float64) []plot.Tick {
	counts := []int(t)
	if len(counts) > maxCountTicks {
		counts = spacedCounts(min, max)
	}
	var out []plot.Tick
	last := math.Inf(-1)
	for _, n := range counts {
		v := float64(n)
		if v < min || v > max {
			continue
		}
		tk := plot.Tick{Value: v}
		if v-last >= (max-min)/24 {
			tk.Label = strconv.Itoa(n)
			last = v
		}
		out = append(out, tk)
	}
	return out
}

// spacedCounts are at most eight multiples of a power of two in [min,
// max], after the first count unless it would crowd the next's label.
func spacedCounts(min, max float64) []int {
	step := 1
	for (max-min)/float64(step) > 8 {
		step *= 2
	}
	first := int(math.Ceil(min))
	next := (first/step + 1) * step
	var out []int
	if float64(next-first) >= (max-min)/24 {
		out = append(out, first)
	}
	for n := next; float64(n) <= max; n += step {
		out = append(out, n)
	}
	return out
}

// niceTicks marks 3 to 7 round values (steps of 1, 2, 2.5 or 5 times a
// power of ten); gonum's default aims at 3, which leaves the grid sparse.
type niceTicks struct{}

func (niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return nil
	}
	raw := (hi - lo) / 6
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	m := 10.0
	for _, c := range []float64{1, 2, 2.5, 5} {
		if c*mag >= raw {
			m = c
			break
		}
	}
	if m == 10 {
		m, mag = 1, mag*10
	}
	step := m * mag
	prec := max(-int(math.Round(math.Log10(mag))), 0)
	if m == 2.5 {
		prec++
	}
	var out []plot.Tick
	first := math.Ceil(lo/step - 1e-9)
	for i := first; i*step <= hi+step*1e-9; i++ {
		v := i * step
		if v == 0 {
			v = 0 // not -0, which would print "-0"
		}
		out = append(out, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', prec, 64)})
	}
	return out
}

// figure is a plot as the report lays it out: a title on top, the legend
// right of the plot, outside the data, so that it hides none.
type figure struct {
	title         string
	plot          *plot.Plot
	legend        plot.Legend
	minDataHeight vg.Length // grows the picture beyond chartHeight for many rows
	// panels, when set, are small multiples drawn in place of plot and legend.
	panels []panel
	// narrow lays the figure out for a phone: panels stacked, legends below.
	narrow bool
}

// phone is f for a phone: title wrapped, fewer value labels (grid kept).
func (f figure) phone() drawing {
	f.narrow = true
	f.title = wrapText(style(13, true), f.title, phoneWidth-2*margin)
	if f.plot != nil {
		f.plot = fewerTickLabels(f.plot)
	}
	f.panels = collect.Mapped(f.panels, func(p panel) panel {
		p.plot = fewerTickLabels(p.plot)
		return p
	})
	return f
}

// fewerTickLabels is a copy of p whose axes label few enough for a phone.
func fewerTickLabels(p *plot.Plot) *plot.Plot {
	q := *p
	most := 4
	if _, ok := q.X.Tick.Marker.(cpuTicks); ok {
		most = 8 // whole CPU counts: 1–8 each labelled still reads
	}
	q.X.Tick.Marker = fewerTicks{q.X.Tick.Marker, most}
	if _, ok := q.Y.Tick.Marker.(plot.ConstantTicks); !ok { // rows' names are kept, every one
		q.Y.Tick.Marker = fewerTicks{q.Y.Tick.Marker, 6}
	}
	return &q
}

// fewerTicks keeps a Ticker's ticks, labelling at most most of them.
type fewerTicks struct {
	plot.Ticker
	most int
}

func (f fewerTicks) Ticks(min, max float64) []plot.Tick {
	ts := f.Ticker.Ticks(min, max)
	labelled := collect.Count(ts, func(t plot.Tick) bool { return t.Label != "" })
	every := (labelled + f.most - 1) / f.most
	if every <= 1 {
		return ts
	}
	k := 0
	for i := range ts {
		if ts[i].Label == "" {
			continue
		}
		if k%every != 0 {
			ts[i].Label = ""
		}
		k++
	}
	return ts
}

// wrapText breaks s at spaces into lines no wider than width in st.
func wrapText(st text.Style, s string, width vg.Length) string {
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		line := ""
		for _, w := range strings.Fields(para) {
			if line != "" && st.Width(line+" "+w) > width {
				lines, line = append(lines, line), ""
			}
			line = strings.TrimSpace(line + " " + w)
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// The SVG names its font with fallbacks: a reader may lack Liberation
// Sans; Arial has its metrics.
const (
	svgFamily = "font-family:Liberation Sans;"
	webFamily = "font-family:Liberation Sans,Arial,Helvetica,sans-serif;"
)

func style(size float64, bold bool) text.Style {
	f := font.From(font.Font{Typeface: "Liberation", Variant: "Sans"}, font.Length(size))
	if bold {
		f.Weight = xfont.WeightBold
	}
	return text.Style{Color: color.Black, Font: f, Handler: plot.DefaultTextHandler}
}

func aligned(size float64, bold bool, x draw.XAlignment, y draw.YAlignment) text.Style {
	s := style(size, bold)
	s.XAlign, s.YAlign = x, y
	return s
}

// newPlot is a plot in the report's fonts; the figure draws title, legend.
func newPlot() *plot.Plot {
	p := plot.New()
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = style(11, false).Font
		a.Tick.Label.Font = style(10, false).Font
		a.Tick.Marker = niceTicks{}
		a.Label.Padding = vg.Points(4)
	}
	return p
}

func newLegend() plot.Legend {
	l := plot.NewLegend()
	l.TextStyle = style(10, false)
	l.Top, l.Left = true, true
	l.ThumbnailWidth = vg.Points(30)
	l.Padding = vg.Points(4)
	return l
}

// size is the default size, grown where the legend or rows need more.
func (f figure) size() (w, h vg.Length) {
	if f.narrow {
		return f.phoneSize()
	}
	if len(f.panels) > 0 {
		return f.panelsSize()
	}
	leg := f.legend.Rectangle(draw.Canvas{}).Size()
	title := style(13, true).Height(f.title)
	axis := vg.Points(48) // x axis ticks and label, roughly
	w = max(chartWidth, 2*margin+vg.Points(380)+gap+leg.X)
	h = max(chartHeight, 2*margin+title+gap+max(leg.Y, f.minDataHeight)+axis)
	return w, h
}

func (f figure) draw(c draw.Canvas) {
	c, th := titled(c, f.title)
	c = draw.Crop(c, 0, 0, 0, -(th + gap))
	if f.narrow {
		f.drawStacked(c)
		return
	}
	if len(f.panels) > 0 {
		f.drawPanels(c)
		return
	}

	legWidth := f.legend.Rectangle(draw.Canvas{}).Size().X
	area := draw.Crop(c, 0, -(legWidth + gap), 0, 0)
	f.plot.Draw(area)

	// Top-align the legend with the data, right of the plot.
	data := f.plot.DataCanvas(area)
	leg := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
		Min: vg.Point{X: area.Max.X + gap, Y: c.Min.Y},
		Max: vg.Point{X: c.Max.X, Y: data.Max.Y},
	}}
	f.legend.Draw(leg)
}

// titled paints c white and centres title at its top, inside the margin;
// it returns the canvas inside the margin and the title's height.
func titled(c draw.Canvas, title string) (draw.Canvas, vg.Length) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	c = draw.Crop(c, margin, -margin, margin, -margin)
	ts := aligned(13, true, draw.XCenter, draw.YTop)
	c.FillText(ts, vg.Point{X: c.Center().X, Y: c.Max.Y}, title)
	return c, ts.Height(title)
}

// drawing is a picture of a given size: a chart, the map, a schedule.
type drawing interface {
	size() (w, h vg.Length)
	draw(c draw.Canvas)
	phone() drawing // the same picture laid out for a phone
}

// render draws d as SVG and PNG, deterministically.
func render(d drawing) (svg, png []byte, err error) {
	if svg, err = renderSVG(d); err != nil {
		return nil, nil, err
	}
	w, h := d.size()

	ic := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(pngDPI), vgimg.UseBackgroundColor(color.White))
	d.draw(draw.New(ic))
	var pb bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: ic}).WriteTo(&pb); err != nil {
		return nil, nil, fmt.Errorf("write PNG: %w", err)
	}
	return svg, pb.Bytes(), nil
}

func renderSVG(d drawing) ([]byte, error) {
	w, h := d.size()
	sc := vgsvg.New(w, h) // fonts not embedded: far smaller files
	d.draw(draw.New(sc))
	var sb bytes.Buffer
	if _, err := sc.WriteTo(&sb); err != nil {
		return nil, fmt.Errorf("write SVG: %w", err)
	}
	return bytes.ReplaceAll(sb.Bytes(), []byte(svgFamily), []byte(webFamily)), nil
}
