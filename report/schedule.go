package report

import (
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"slices"
	"time"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results/analysis"
)

// timelineDrawing is the schedule: a row per CPU, time across, each step a
// bar in its machine's colour numbered by whose it is.
type timelineDrawing struct {
	t      analysis.Timeline
	narrow bool // laid out for a phone: phoneWidth across, fewer ticks
}

const (
	tlWidth  = vg.Length(440)
	tlRowH   = vg.Length(20)
	tlLabelW = vg.Length(44)
)

func (d timelineDrawing) phone() drawing {
	d.narrow = true
	return d
}

func (d timelineDrawing) width() vg.Length {
	if d.narrow {
		return phoneWidth
	}
	return tlWidth
}

func (d timelineDrawing) title() string {
	return wrapText(style(12, true), text.TimelineTitle(d.t), d.width()-2*margin)
}

type scheduleKey struct{ kind, label string }

// keyLines are the legend's machines in lines that fit, and the wrapped
// note on what numbers and gaps mean.
func (d timelineDrawing) keyLines() ([][]scheduleKey, string) {
	kinds := []scheduleKey{{"grinder", "grinder"}, {"espresso", "espresso machine"}, {"steamer", "steamer"}, {analysis.Combine, "combine (no machine)"}}
	if slices.ContainsFunc(d.t.Bars, func(b analysis.Bar) bool { return b.Machine == analysis.Other }) {
		kinds = append(kinds, scheduleKey{analysis.Other, "other Go code"})
	}
	lt := style(9, false)
	room := d.width() - 2*margin
	var lines [][]scheduleKey
	x := room
	for _, k := range kinds {
		w := 18 + lt.Width(k.label)
		if x+w > room {
			lines = append(lines, nil)
			x = 0
		}
		lines[len(lines)-1] = append(lines[len(lines)-1], k)
		x += w + vg.Points(12)
	}
	note := fmt.Sprintf("Numbers: the %s whose step it is. Gaps: no step ran. %s ms from %s ms.", d.t.Who, format.Millis(d.t.Span), format.Millis(d.t.Start))
	return lines, wrapText(lt, note, room)
}

func (d timelineDrawing) size() (w, h vg.Length) {
	title := style(12, true).Height(d.title())
	axis := style(9, false).Height("0") + vg.Points(16)
	lines, note := d.keyLines()
	legend := vg.Points(16)*vg.Length(len(lines)) + style(9, false).Height(note) + vg.Points(8)
	return d.width(), 2*margin + title + gap/2 + vg.Length(max(d.t.CPUs, 1))*tlRowH + axis + legend
}

func (d timelineDrawing) draw(c draw.Canvas) {
	t := d.t
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	c = draw.Crop(c, margin, -margin, margin, -margin)

	ts := aligned(12, true, draw.XLeft, draw.YTop)
	title := d.title()
	c.FillText(ts, vg.Point{X: c.Min.X, Y: c.Max.Y}, title)
	top := c.Max.Y - ts.Height(title) - gap/2

	left := c.Min.X + tlLabelW
	width := c.Max.X - left
	x := func(d time.Duration) vg.Length { return left + width*vg.Length(float64(d)/float64(t.Span)) }

	// Rows lightly striped, so that a gap reads as a gap.
	ls := aligned(9, false, draw.XRight, draw.YCenter)
	for cpu := range t.CPUs {
		y := top - vg.Length(cpu)*tlRowH
		c.FillPolygon(color.RGBA{0xf6, 0xf6, 0xf6, 0xff}, rect(left, y-tlRowH+2, c.Max.X, y-1))
		c.FillText(ls, vg.Point{X: left - vg.Points(6), Y: y - tlRowH/2}, fmt.Sprintf("CPU %d", cpu)) // numbered from 0, as the trace, the CLI and the playground number them
	}
	// A bar per step, a customer's (or goroutine's) number in it where it fits.
	num := aligned(8, false, draw.XCenter, draw.YCenter)
	for _, b := range t.Bars {
		y := top - vg.Length(b.CPU)*tlRowH
		x0, x1 := x(b.Start), x(b.End)
		col := machineColour(b.Kind())
		lo, hi := y-tlRowH+2, y-1
		if b.Machine == analysis.Other {
			lo, hi = y-tlRowH*0.7, y-tlRowH*0.3
		}
		c.FillPolygon(col, rect(x0, lo, max(x1-0.6, x0+0.3), hi))
		if b.Machine != analysis.Other && b.Who > 0 {
			label := fmt.Sprint(b.Who)
			if num.Width(label)+vg.Points(3) < x1-x0 {
				n := num
				n.Color = ink(col)
				c.FillText(n, vg.Point{X: (x0 + x1) / 2, Y: y - tlRowH/2}, label)
			}
		}
	}
	// Time axis: a tick every tenth of the span, labelled every fifth on a phone.
	axisY := top - vg.Length(t.CPUs)*tlRowH - vg.Points(2)
	tick := draw.LineStyle{Color: color.Gray{Y: 0x80}, Width: vg.Points(0.6)}
	as := aligned(9, false, draw.XCenter, draw.YTop)
	for i := 0; i <= 10; i++ {
		at := t.Span * time.Duration(i) / 10
		c.StrokeLine2(tick, x(at), axisY, x(at), axisY-vg.Points(4))
		if d.narrow && i%2 != 0 {
			continue
		}
		label := format.Millis(at)
		if i == 10 {
			label += " ms"
		}
		c.FillText(as, vg.Point{X: x(at), Y: axisY - vg.Points(5)}, label)
	}

	// Legend: the machines, then what a gap and a number are.
	ly := axisY - vg.Points(5) - as.Height("0") - vg.Points(12)
	lt := aligned(9, false, draw.XLeft, draw.YCenter)
	lines, note := d.keyLines()
	for _, line := range lines {
		lx := c.Min.X
		for _, k := range line {
			c.FillPolygon(machineColour(k.kind), rect(lx, ly-5, lx+14, ly+5))
			c.FillText(lt, vg.Point{X: lx + 18, Y: ly}, k.label)
			lx += 18 + lt.Width(k.label) + vg.Points(12)
		}
		ly -= vg.Points(16)
	}
	nt := aligned(9, false, draw.XLeft, draw.YTop)
	c.FillText(nt, vg.Point{X: c.Min.X, Y: ly + vg.Points(5)}, note)
}

func rect(x0, y0, x1, y1 vg.Length) []vg.Point {
	return []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
}

// ScheduleName is a timeline's files' stem:
// "schedule-finelocking-6cpu-model", or "-trace" for a trace's.
func ScheduleName(t analysis.Timeline) string {
	kind := "model"
	if t.File != "" {
		kind = "trace"
	}
	return fmt.Sprintf("schedule-%s-%dcpu-%s", anchor(t.Mode), t.CPUs, kind)
}

// WriteSchedules draws each timeline into dir as SVG and PNG, each file
// whole or absent, and returns the SVGs' paths.
func WriteSchedules(dir string, ts []analysis.Timeline) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	var paths []string
	for _, t := range ts {
		svg, png, err := render(timelineDrawing{t: t})
		if err != nil {
			return nil, err
		}
		base := filepath.Join(dir, ScheduleName(t))
		if err := writeAtomic(base+".png", png); err != nil {
			return nil, err
		}
		if err := writeAtomic(base+".svg", svg); err != nil {
			return nil, err
		}
		paths = append(paths, base+".svg")
	}
	return paths, nil
}

// scheduleView is one configuration's pictures, side by side.
type scheduleView struct {
	Why, Note string
	Images    []timelineView
}

type timelineView struct {
	chartView
	Summary, File string
}

func scheduleCharts(pics []analysis.Picture) ([]chart, []scheduleView, error) {
	var charts []chart
	var views []scheduleView
	for _, p := range pics {
		v := scheduleView{Why: p.Why, Note: p.Note}
		for _, t := range []*analysis.Timeline{p.Model, p.Trace} {
			if t == nil {
				continue
			}
			c := chart{Name: ScheduleName(*t), Title: text.TimelineTitle(*t)}
			c, err := c.rendered(timelineDrawing{t: *t})
			if err != nil {
				return nil, nil, fmt.Errorf("draw %s: %w", c.Name, err)
			}
			charts = append(charts, c)
			v.Images = append(v.Images, timelineView{chartView: imageView(c, ""), Summary: text.TimelineSummary(*t), File: t.File})
		}
		views = append(views, v)
	}
	return charts, views, nil
}
