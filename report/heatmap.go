package report

import (
	"fmt"
	"image/color"
	"slices"
	"strings"

	plottext "gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/report/palette"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results/analysis"
)

// heatmap is the map of what limits what: a row per mode, a column per CPU
// count, each cell coloured by its causal verdict, its throughput in it.
type heatmap struct {
	title     string
	grid      *analysis.Grid
	others    []string // classes without a colour of their own
	classes   []string // the classes present, for the legend
	note      string
	cellW     vg.Length
	labelW    vg.Length
	legendH   vg.Length
	legendRow int
	narrow    bool // laid out for a phone
}

const (
	heatCellH   = vg.Length(22)
	heatMaxW    = vg.Length(64)
	heatMinW    = vg.Length(26)
	heatPhoneW  = vg.Length(21) // a four-digit figure in 8 points
	heatWidth   = 2 * chartWidth
	heatLegendW = vg.Length(190) // one legend entry, swatch and label
)

// heatmapChart draws the grid's map; empty where there is nothing to map.
func heatmapChart(g *analysis.Grid) (chart, error) {
	c := chart{Name: "limits", Title: "What limits what"}
	if g == nil || len(g.Modes) == 0 {
		c.Empty = noPoints
		return c, nil
	}
	h := heatmap{title: "What limits each mode on each CPU count, and its throughput", grid: g}
	disturbed, with, hosts, scheds := false, false, []string{}, []string{}
	for _, m := range g.Modes { // in the map's order, which the legend's colours and the note follow
		for _, n := range g.CPUs {
			cell, ok := g.At(m, n)
			if !ok {
				continue
			}
			e := cell.Shown()
			cls := e.Limit.Class
			h.classes = collect.AppendNew(h.classes, cls)
			if _, label := limitColour(cls, nil); label == cls {
				h.others = collect.AppendNew(h.others, cls)
			}
			if e.Model {
				scheds = collect.AppendNew(scheds, e.Source)
			} else {
				hosts = collect.AppendNew(hosts, e.Host)
			}
			disturbed = disturbed || e.Disturbed > 0
			with = with || e.Limit.With
		}
	}
	if !slices.ContainsFunc(h.classes, func(cls string) bool { return cls != "unknown" }) {
		c.Empty = "No point carries a causal profile, so nothing here says what limits it (brewput and brewput report give every point one)."
		return c, nil
	}
	// The legend in the classes' own order.
	order := func(cls string) int {
		classes := limitClasses()
		i := slices.IndexFunc(classes, func(l limitClass) bool { return l.class == cls })
		if i < 0 {
			return len(classes) + slices.Index(h.others, cls)
		}
		return i
	}
	slices.SortStableFunc(h.classes, func(a, b string) int { return order(a) - order(b) })
	switch {
	case len(hosts) > 0 && len(scheds) > 0:
		h.note = fmt.Sprintf("Framed, bold: %s; the others predicted by the %s. Where a point was measured, the measurement is shown; what limits it is its causal profile in the model.", text.MeasuredOnHosts(hosts), strings.Join(scheds, ", "))
	case len(hosts) > 0:
		h.note = fmt.Sprintf("Every cell %s (framed, bold); what limits it is its causal profile in the model.", text.MeasuredOnHosts(hosts))
	default:
		h.note = fmt.Sprintf("Every cell predicted by the %s.", strings.Join(scheds, ", "))
	}
	if with {
		h.note += " A dark corner: the CPUs or the customers limit it together with the machines its colour names."
	}
	if disturbed {
		h.note += " " + disturbedMark + " disturbed: other processes took CPU while it was measured."
	}
	h.layout()
	return c.rendered(h)
}

// layout sizes names, cells and legend for the page, or for a phone:
// smaller type, cells as wide as the screen allows, a legend entry a line.
func (h *heatmap) layout() {
	names := h.fonts()
	labelW := vg.Length(0)
	for _, m := range h.grid.Modes {
		labelW = max(labelW, names.Width(m))
	}
	h.labelW = labelW + vg.Points(10)
	n := vg.Length(len(h.grid.CPUs))
	if h.narrow {
		h.labelW = labelW + vg.Points(6)
		h.cellW = max(heatPhoneW, (phoneWidth-2*margin-h.labelW)/n)
		h.legendRow = 1
	} else {
		h.cellW = max(heatMinW, min(heatMaxW, (heatWidth-2*margin-h.labelW)/n))
		h.legendRow = max(1, int((h.width()-2*margin)/heatLegendW))
		// A note longer than the widest picture wraps.
		h.note = wrapText(style(10, false), h.note, h.width()-2*margin)
	}
	rows := (len(h.classes) + h.legendRow - 1) / h.legendRow
	h.legendH = vg.Length(rows)*vg.Points(16) + vg.Points(8) + style(10, false).Height(h.note)
}

// fonts is the style of the modes' names; the figures are a point smaller.
func (h heatmap) fonts() plottext.Style {
	if h.narrow {
		return aligned(9, false, draw.XRight, draw.YCenter)
	}
	return aligned(10, false, draw.XRight, draw.YCenter)
}

func (h heatmap) phone() drawing {
	h.narrow = true
	h.title = wrapText(style(13, true), h.title, phoneWidth-2*margin)
	// Rewrapped whole: the page's layout broke it at the page's width.
	h.note = wrapText(style(10, false), strings.ReplaceAll(h.note, "\n", " "), phoneWidth-2*margin)
	h.layout()
	return h
}

func (h heatmap) size() (w, ht vg.Length) {
	title := style(13, true).Height(h.title)
	head := style(10, true).Height("CPUs") * 2.4
	grid := heatCellH * vg.Length(len(h.grid.Modes))
	return h.width(), 2*margin + title + gap + head + grid + gap + h.legendH
}

// width is the grid's, the title's, the note's or two legend entries',
// whichever is widest.
func (h heatmap) width() vg.Length {
	w := h.labelW + vg.Length(len(h.grid.CPUs))*h.cellW
	if h.narrow { // wider than a phone only where its cells need it
		return max(w+2*margin, phoneWidth)
	}
	w = max(w, style(13, true).Width(h.title), style(10, false).Width(h.note), 2*heatLegendW)
	return min(w, heatWidth-2*margin) + 2*margin
}

func (h heatmap) draw(c draw.Canvas) {
	c, th := titled(c, h.title)
	top := c.Max.Y - th - gap

	// Column heads: "CPUs", then each count.
	left := c.Min.X + h.labelW
	hs := aligned(10, true, draw.XLeft, draw.YTop)
	c.FillText(hs, vg.Point{X: left, Y: top}, "CPUs")
	headH := hs.Height("CPUs")
	cs := aligned(10, false, draw.XCenter, draw.YTop)
	for j, n := range h.grid.CPUs {
		x := left + vg.Length(j)*h.cellW + h.cellW/2
		c.FillText(cs, vg.Point{X: x, Y: top - headH*1.2}, fmt.Sprint(n))
	}
	y0 := top - headH*2.4

	ls := h.fonts()
	for i, m := range h.grid.Modes {
		yTop := y0 - vg.Length(i)*heatCellH
		yMid := yTop - heatCellH/2
		c.FillText(ls, vg.Point{X: left - vg.Points(6), Y: yMid}, m)
		for j, n := range h.grid.CPUs {
			cell, ok := h.grid.At(m, n)
			if !ok {
				continue
			}
			e := cell.Shown()
			x := left + vg.Length(j)*h.cellW
			fill, _ := limitColour(e.Limit.Class, h.others)
			box := rect(x+1, yTop-1, x+h.cellW-1, yTop-heatCellH+1)
			c.FillPolygon(fill, box)
			text := aligned(ls.Font.Size.Points()-1, !e.Model, draw.XCenter, draw.YCenter)
			text.Color = ink(fill)
			if !e.Model {
				c.StrokeLines(stroke(color.RGBA{0x1b, 0x1b, 0x1b, 0xff}, 1.6, nil), append(box, box[0]))
			}
			if e.Limit.With { // a dark corner, which takes no room from the figure
				corner := vg.Points(7)
				c.FillPolygon(ink(fill), []vg.Point{{X: x + h.cellW - 1, Y: yTop - 1}, {X: x + h.cellW - 1 - corner, Y: yTop - 1}, {X: x + h.cellW - 1, Y: yTop - 1 - corner}})
			}
			label := format.Whole(e.Throughput)
			if e.Disturbed > 0 {
				label += disturbedMark
			}
			if text.Width(label) < h.cellW-vg.Points(3) {
				c.FillText(text, vg.Point{X: x + h.cellW/2, Y: yMid}, label)
			}
		}
	}

	// Legend: a swatch and a label per class present, then the note.
	y := y0 - vg.Length(len(h.grid.Modes))*heatCellH - gap
	lt := aligned(10, false, draw.XLeft, draw.YCenter)
	for k, cls := range h.classes {
		col, label := limitColour(cls, h.others)
		x := c.Min.X + vg.Length(k%h.legendRow)*heatLegendW
		yy := y - vg.Length(k/h.legendRow)*vg.Points(16) - vg.Points(6)
		c.FillPolygon(col, rect(x, yy-5, x+16, yy+5))
		c.FillText(lt, vg.Point{X: x + 22, Y: yy}, label)
	}
	rows := (len(h.classes) + h.legendRow - 1) / h.legendRow
	nt := aligned(10, false, draw.XLeft, draw.YTop)
	c.FillText(nt, vg.Point{X: c.Min.X, Y: y - vg.Length(rows)*vg.Points(16) - vg.Points(4)}, h.note)
}

func heatmapView(c chart) chartView {
	return imageView(c, "Each row a mode, each column a CPU count: the colour says what limits that point, found by its causal profile (the resource whose relief gains most), the figure its throughput. Where the colour turns from green, the mode has hit a wall that more CPUs do not move. A colour names the machines in a limit; a cell with a dark corner is a point where the CPUs or the customers bind with them, as its own words (the answer's table, its mode's section) say.")
}

type limitClass struct {
	class, label string
	colour       color.RGBA
}

// limitClasses are analysis.Limit's classes in legend order, with colours:
// what scales in greens, walls warm, nothing to try grey.
func limitClasses() []limitClass {
	rgb, steps := palette.RGB, palette.Steps()
	return []limitClass{
		{"cpus", "the CPUs (it scales)", rgb(0x59a14f)},
		{"customers", "the customers", rgb(0xa6d08e)},
		{"kitchen", "the kitchen lock", rgb(0xe15759)},
		{"grinder", "the grinder", steps["grinder"]},
		{"espresso", "the espresso machine", steps["espresso"]},
		{"steamer", "the steamer", steps["steamer"]},
		{"machines", "several machines together", rgb(0xedc948)},
		{"channel", "a channel's room", rgb(0xb07aa1)},
		{"step", "a step no machine guards", rgb(0xff9da7)},
		{"none", "nothing tried helps", rgb(0xbab0ac)},
		{"unknown", "not profiled", rgb(0xe8e8e8)},
	}
}

// limitColour is a class's colour and legend label; others are classes
// not listed (a YAML system's resources), in the order met.
func limitColour(class string, others []string) (color.RGBA, string) {
	for _, l := range limitClasses() {
		if l.class == class {
			return l.colour, l.label
		}
	}
	rgb := palette.RGB
	pal := []color.RGBA{rgb(0x4e79a7), rgb(0xd37295), rgb(0x499894), rgb(0x86bcb6), rgb(0xfabfd2)}
	return pal[max(slices.Index(others, class), 0)%len(pal)], class
}

// machineColour is a machine's colour in the schedule, as the map and the
// playground give it.
func machineColour(kind string) color.RGBA {
	if c, ok := palette.Steps()[kind]; ok {
		return c
	}
	c, _ := limitColour(kind, nil)
	return c
}

// ink is black or white, whichever reads on c.
func ink(c color.RGBA) color.RGBA {
	lum := 0.299*float64(c.R) + 0.587*float64(c.G) + 0.114*float64(c.B)
	if lum < 140 {
		return color.RGBA{0xff, 0xff, 0xff, 0xff}
	}
	return color.RGBA{0x1b, 0x1b, 0x1b, 0xff}
}
