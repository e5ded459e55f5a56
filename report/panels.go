package report

import (
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// maxEntries is the most entries a legend holds before a reader can no
// longer match a line to its name.
const maxEntries = 8

// entry is a legend line: the series it names, by index.
type entry struct {
	label  string
	series []int
}

// entries names the series for a legend: a mode measured once and
// predicted once under one load is one entry, named as its measurement.
func entries(ss []series, label func(series) string) []entry {
	type group struct {
		mode string
		load load
	}
	all := make([]int, len(ss))
	for i := range all {
		all[i] = i
	}
	groups, members := groupBy(all, func(i int) group { return group{ss[i].Mode, ss[i].Load} })
	var out []entry
	for _, g := range groups {
		idx := members[g]
		if len(idx) == 2 && ss[idx[0]].Model != ss[idx[1]].Model {
			m := idx[0]
			if ss[m].Model {
				m = idx[1]
			}
			out = append(out, entry{label: label(ss[m]), series: idx})
			continue
		}
		for _, i := range idx {
			out = append(out, entry{label: label(ss[i]), series: []int{i}})
		}
	}
	return out
}

type panelGroup struct {
	title  string
	series []series
}

// splitPanels keeps the series on one panel where its legend fits,
// otherwise a panel per family of modes, cut into maxEntries.
func splitPanels(ss []series, label func(series) string) []panelGroup {
	if len(entries(ss, label)) <= maxEntries {
		return []panelGroup{{series: ss}}
	}
	groups, byGroup := groupBy(ss, func(s series) int { return s.Group })
	slices.Sort(groups)
	var out []panelGroup
	for _, g := range groups {
		fs := byGroup[g]
		es := entries(fs, label)
		for start, part := 0, 1; start < len(es); start, part = start+maxEntries, part+1 {
			end := min(start+maxEntries, len(es))
			var sub []series
			for _, e := range es[start:end] {
				for _, i := range e.series {
					sub = append(sub, fs[i])
				}
			}
			title := fs[0].GroupTitle
			if len(es) > maxEntries {
				title += " " + strings.Repeat("·", part)
			}
			out = append(out, panelGroup{title: title, series: sub})
		}
	}
	return out
}

type panel struct {
	title  string
	plot   *plot.Plot
	legend plot.Legend
}

// Small multiples share the width of two charts.
const (
	panelsWidth     = 2 * chartWidth
	panelPlotHeight = 2.7 * vg.Inch
)

// sameY gives the panels one Y range, so that heights compare.
func sameY(ps []panel) {
	top := 0.0
	for _, p := range ps {
		top = max(top, p.plot.Y.Max)
	}
	for _, p := range ps {
		p.plot.Y.Max = top
	}
}

// panelLegends is the height of the tallest panel's legend.
func (f figure) panelLegends() vg.Length {
	leg := vg.Length(0)
	for _, p := range f.panels {
		leg = max(leg, p.legend.Rectangle(draw.Canvas{}).Size().Y)
	}
	return leg
}

// panelsSize is small multiples' size: legends below, as tall as the tallest.
func (f figure) panelsSize() (w, h vg.Length) {
	leg := f.panelLegends()
	title := style(13, true).Height(f.title)
	sub := style(11, true).Height("Pp")
	axis := vg.Points(48)
	return panelsWidth, 2*margin + title + gap + sub + gap/2 + panelPlotHeight + axis/4 + gap + leg
}

func (f figure) drawPanels(c draw.Canvas) {
	n := vg.Length(len(f.panels))
	width := (c.Max.X - c.Min.X - (n-1)*gap) / n
	leg := f.panelLegends()
	ts := aligned(11, true, draw.XCenter, draw.YTop)
	for i, p := range f.panels {
		x0 := c.Min.X + vg.Length(i)*(width+gap)
		col := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{Min: vg.Point{X: x0, Y: c.Min.Y}, Max: vg.Point{X: x0 + width, Y: c.Max.Y}}}
		col.FillText(ts, vg.Point{X: x0 + width/2, Y: col.Max.Y}, p.title)
		area := draw.Crop(col, 0, 0, leg+gap, -(ts.Height(p.title) + gap/2))
		p.plot.Draw(area)
		data := p.plot.DataCanvas(area)
		l := p.legend
		l.Top = true
		lc := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: data.Min.X, Y: col.Min.Y},
			Max: vg.Point{X: col.Max.X, Y: col.Min.Y + leg},
		}}
		l.Draw(lc)
	}
}

// stack is what a phone shows one under another.
func (f figure) stack() []panel {
	if len(f.panels) > 0 {
		return f.panels
	}
	return []panel{{plot: f.plot, legend: f.legend}}
}

const phoneAxis = vg.Length(36)

// phoneHeights are a stacked panel's plot and legend heights.
func (f figure) phoneHeights(p panel) (plotH, legH vg.Length) {
	plotH = max(phonePlotHeight, f.minDataHeight+phoneAxis)
	return plotH, p.legend.Rectangle(draw.Canvas{}).Size().Y
}

func (f figure) phoneSize() (w, h vg.Length) {
	h = 2*margin + style(13, true).Height(f.title) + gap
	for _, p := range f.stack() {
		plotH, legH := f.phoneHeights(p)
		if p.title != "" {
			h += style(11, true).Height(p.title) + gap/2
		}
		h += plotH + gap/2 + legH + gap
	}
	return phoneWidth, h
}

func (f figure) drawStacked(c draw.Canvas) {
	ts := aligned(11, true, draw.XCenter, draw.YTop)
	y := c.Max.Y
	for _, p := range f.stack() {
		plotH, legH := f.phoneHeights(p)
		if p.title != "" {
			c.FillText(ts, vg.Point{X: c.Center().X, Y: y}, p.title)
			y -= ts.Height(p.title) + gap/2
		}
		area := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{Min: vg.Point{X: c.Min.X, Y: y - plotH}, Max: vg.Point{X: c.Max.X, Y: y}}}
		p.plot.Draw(area)
		y -= plotH + gap/2
		if legH > 0 {
			l := p.legend
			l.Top, l.Left = true, true
			l.Draw(draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{Min: vg.Point{X: c.Min.X, Y: y - legH}, Max: vg.Point{X: c.Max.X, Y: y}}})
		}
		y -= legH + gap
	}
}
