package report

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/brewput/brewput/results"
)

// latencyBoxes draws each row's latencies as a horizontal box (p25–p75, a
// line at p50, whiskers p5–p95) from the percentiles a point carries;
// plotter.BoxPlot would compute its own from raw values.
type latencyBoxes struct {
	Rows []boxRow
}

// boxRow is one series' box centred on Y, in ms, dashed as a model's line;
// Thick is its height in rows.
type boxRow struct {
	Y       float64
	Latency results.Latency
	Colour  color.RGBA
	Dashes  []vg.Length
	Thick   float64
}

const boxThickness = 0.6

// Without DataRange, a plot would range its axes without the marks.
var _, _ plot.DataRanger = latencyBoxes{}, rateBars{}

func (b latencyBoxes) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, r := range b.Rows {
		y := trY(r.Y)
		half := (trY(r.Y+r.Thick/2) - trY(r.Y-r.Thick/2)) / 2
		l := r.Latency
		drawWhiskers(&c, r.Colour, r.Dashes, y, half, trX(l.P05), trX(l.P25), trX(l.P75), trX(l.P95))
		drawIQR(&c, r.Colour, r.Dashes, y, half, trX(l.P25), trX(l.P75))
		drawMedian(&c, shade(r.Colour, 0.55), y, half, trX(l.P50))
	}
}

func drawWhiskers(c *draw.Canvas, clr color.RGBA, dashes []vg.Length, y, half, x05, x25, x75, x95 vg.Length) {
	line := stroke(clr, 1.2, dashes)
	c.StrokeLines(line,
		[]vg.Point{{X: x05, Y: y}, {X: x25, Y: y}},
		[]vg.Point{{X: x75, Y: y}, {X: x95, Y: y}})
	line.Dashes = nil
	tip := half * 0.6
	c.StrokeLines(line,
		[]vg.Point{{X: x05, Y: y - tip}, {X: x05, Y: y + tip}},
		[]vg.Point{{X: x95, Y: y - tip}, {X: x95, Y: y + tip}})
}

func drawIQR(c *draw.Canvas, clr color.RGBA, dashes []vg.Length, y, half, x25, x75 vg.Length) {
	box := rect(x25, y-half, x75, y+half)
	c.FillPolygon(tint(clr, 0.3), box)
	c.StrokeLines(stroke(clr, 1.2, dashes), append(box, box[0]))
}

// drawMedian draws p50, darker than the box so that it stands out.
func drawMedian(c *draw.Canvas, clr color.RGBA, y, half, x50 vg.Length) {
	c.StrokeLine2(stroke(clr, 2.5, nil), x50, y-half, x50, y+half)
}

// DataRange: p5 to p95 across, half a row beyond the rows.
func (b latencyBoxes) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, r := range b.Rows {
		xmin, xmax = min(xmin, r.Latency.P05), max(xmax, r.Latency.P95)
		ymin, ymax = min(ymin, r.Y), max(ymax, r.Y)
	}
	return xmin, xmax, ymin - 0.5, ymax + 0.5
}

// boxKey is a legend thumbnail of one part of a box.
type boxKey int

const (
	keyBox boxKey = iota
	keyMedian
	keyWhiskers
)

// Thumbnail draws a whole box, the part k names dark and on top.
func (k boxKey) Thumbnail(c *draw.Canvas) {
	dark := color.RGBA{0x44, 0x44, 0x44, 0xff}
	faint := color.RGBA{0xc4, 0xc4, 0xc4, 0xff}
	in := func(part boxKey) color.RGBA {
		if part == k {
			return dark
		}
		return faint
	}
	y := (c.Min.Y + c.Max.Y) / 2
	half := (c.Max.Y - c.Min.Y) * 0.45
	x := func(f float64) vg.Length { return c.Min.X + vg.Length(f)*(c.Max.X-c.Min.X) }
	parts := []boxKey{keyWhiskers, keyBox, keyMedian}
	parts = append(slices.DeleteFunc(parts, func(p boxKey) bool { return p == k }), k)
	for _, p := range parts {
		switch p {
		case keyWhiskers:
			drawWhiskers(c, in(p), nil, y, half, x(0), x(0.3), x(0.7), x(1))
		case keyBox:
			drawIQR(c, in(p), nil, y, half, x(0.3), x(0.7))
		case keyMedian:
			drawMedian(c, in(p), y, half, x(0.5))
		}
	}
}

// tint mixes clr with white, shade with black, keeping f of it; opaque, so
// SVG and PNG agree.
func tint(clr color.RGBA, f float64) color.RGBA  { return mix(clr, f, 255) }
func shade(clr color.RGBA, f float64) color.RGBA { return mix(clr, f, 0) }

func mix(clr color.RGBA, f, with float64) color.RGBA {
	m := func(v uint8) uint8 { return uint8(float64(v)*f + with*(1-f) + 0.5) }
	return color.RGBA{m(clr.R), m(clr.G), m(clr.B), 0xff}
}

// boxFigure is rows of boxes, top down, each row a y tick named by its
// label, two boxes in a row each half as thick; its legend names the parts.
func boxFigure(title, xLabel string, labels []string, rows [][]boxRow) (figure, error) {
	var boxes latencyBoxes
	ticks := rowTicks(labels)
	for i, row := range rows {
		for k, b := range row {
			if v, bad := undrawable(b.Latency); bad {
				return figure{}, fmt.Errorf("%s: latency percentile %v cannot be drawn", labels[i], v)
			}
			b.Y, b.Thick = rowPlace(ticks[i].Value, k, len(row))
			boxes.Rows = append(boxes.Rows, b)
		}
	}
	p := rowsPlot(xLabel, ticks, boxes)
	leg := newLegend()
	leg.Add("p5–p95 (whiskers)", keyWhiskers)
	leg.Add("p25–p75 (box)", keyBox)
	leg.Add("p50, the median", keyMedian)
	return figure{title: title, plot: p, legend: leg, minDataHeight: vg.Length(len(rows)) * vg.Points(24)}, nil
}

// undrawable returns the first of l's percentiles that is NaN or infinite.
func undrawable(l results.Latency) (float64, bool) {
	for _, v := range []float64{l.P05, l.P25, l.P50, l.P75, l.P95} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return v, true
		}
	}
	return 0, false
}

// rateBars draws each row's throughput as a bar, a model's light and framed.
type rateBars struct {
	Rows []barRow
}

type barRow struct {
	Y, Value, Thick float64
	Colour          color.RGBA
	Model           bool
}

func (b rateBars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, r := range b.Rows {
		box := rect(trX(0), trY(r.Y-r.Thick/2), trX(r.Value), trY(r.Y+r.Thick/2))
		if r.Model {
			c.FillPolygon(tint(r.Colour, 0.35), box)
			c.StrokeLines(draw.LineStyle{Color: r.Colour, Width: vg.Points(1)}, append(box, box[0]))
			continue
		}
		c.FillPolygon(r.Colour, box)
	}
}

func (b rateBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	ymin, ymax = math.Inf(1), math.Inf(-1)
	for _, r := range b.Rows {
		xmax = max(xmax, r.Value)
		ymin, ymax = min(ymin, r.Y), max(ymax, r.Y)
	}
	return 0, xmax, ymin - 0.5, ymax + 0.5
}

// barFigure is rows of bars, as boxFigure's rows of boxes.
func barFigure(title, xLabel string, labels []string, rows [][]barRow) figure {
	var bars rateBars
	ticks := rowTicks(labels)
	for i, row := range rows {
		for k, b := range row {
			b.Y, b.Thick = rowPlace(ticks[i].Value, k, len(row))
			bars.Rows = append(bars.Rows, b)
		}
	}
	return figure{title: title, plot: rowsPlot(xLabel, ticks, bars), legend: newLegend(), minDataHeight: vg.Length(len(rows)) * vg.Points(24)}
}

// rowsPlot is the plot of marks in rows labelled by ticks, x from 0.
func rowsPlot(xLabel string, ticks plot.ConstantTicks, marks plot.Plotter) *plot.Plot {
	p := newPlot()
	p.X.Label.Text = xLabel
	p.Y.Tick.Marker = ticks
	p.Y.Tick.Length = 0
	p.Add(&plotter.Grid{Vertical: gridLine()}, marks)
	p.X.Min, p.X.Max = 0, headroom(p.X.Max)
	return p
}

// rowTicks labels rows from the top.
func rowTicks(labels []string) plot.ConstantTicks {
	ticks := make(plot.ConstantTicks, len(labels))
	for i, l := range labels {
		ticks[i] = plot.Tick{Value: float64(len(labels) - 1 - i), Label: l}
	}
	return ticks
}

// rowPlace is where the k-th of a row's m marks goes and how thick it is:
// alone on the row, else side by side, each half as thick.
func rowPlace(y float64, k, m int) (float64, float64) {
	if m <= 1 {
		return y, boxThickness
	}
	return y + boxThickness/4 - float64(k)*boxThickness/2 - 0.02*float64(2*k-1), boxThickness / 2
}
