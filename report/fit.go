package report

import (
	"fmt"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/brewput/brewput/explain/scaling"
	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/results"
)

// curveSteps is the number of segments a fitted curve is drawn with: smooth
// at the chart's width whatever the range of CPUs.
const curveSteps = 200

// scalabilityChart draws throughput against CPUs with the Universal
// Scalability Law fitted to each series (scaling.Fits, the fits brewput
// fit prints): the fitted curve, from 1 to the largest CPU count of the
// report, in the mode's colour, solid for a measurement's series and
// dashed for the model's, beside the series' points as markers (the
// median of the repetitions at each CPU count; the fit takes them all). A
// series that could not be fitted has its points alone; when none could,
// the chart is empty and says why.
func scalabilityChart(points []results.Point, ss []series, cpus []int) (chart, error) {
	c := chart{Name: "scalability", Title: "Scalability: the Universal Scalability Law fitted to throughput against CPUs"}
	if len(cpus) == 0 {
		c.Empty = noPoints
		return c, nil
	}
	fits, err := scaling.Fits(points, scaling.ByCPUs)
	if err != nil {
		return c, err
	}
	fitOf := map[seriesKey]scaling.Fit{}
	for _, f := range fits {
		fitOf[fitKey(f)] = f
	}
	if c.Empty = nothingFitted(fits); c.Empty != "" {
		return c, nil
	}

	ylabel, label := throughputLabels(ss)
	top := float64(cpus[len(cpus)-1])
	var ps []panel
	for _, g := range splitPanels(ss, label) {
		p, leg, err := fitPlot(g.series, cpus, top, ylabel, label, fitOf)
		if err != nil {
			return c, err
		}
		ps = append(ps, panel{title: g.title, plot: p, legend: leg})
	}
	fig := figure{title: c.Title, panels: ps}
	if len(ps) == 1 {
		fig = figure{title: c.Title, plot: ps[0].plot, legend: ps[0].legend}
	} else {
		sameY(ps)
	}
	return c.drawn(fig)
}

// fitPlot is one panel of the scalability chart: each series' points and,
// where it could be fitted, its curve; a legend entry per mode (its
// measurement and the model's sharing one, as on the line charts) saying
// each fit's σ and κ. A series that could not be fitted has its markers
// alone and nothing in the legend but its mode's entry: the caption says
// which are not fitted and why.
func fitPlot(ss []series, cpus []int, top float64, ylabel string, label func(series) string, fitOf map[seriesKey]scaling.Fit) (*plot.Plot, plot.Legend, error) {
	p := newPlot()
	p.X.Label.Text = "CPUs"
	p.X.Tick.Marker = cpuTicks(cpus)
	p.Y.Label.Text = ylabel
	p.Add(&plotter.Grid{Vertical: gridLine(), Horizontal: gridLine()})

	leg := newLegend()
	var curves, marks []plot.Plotter
	thumbs := make([][]plot.Thumbnailer, len(ss))
	fitted := make([]string, len(ss))
	for i, s := range ss {
		xys := make(plotter.XYs, len(s.Samples))
		for j, x := range s.Samples {
			xys[j] = plotter.XY{X: float64(x.CPUs), Y: x.Throughput}
		}
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, leg, fmt.Errorf("%s: %w", s.Label, err)
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: s.Colour, Radius: vg.Points(3.5), Shape: marker(s.Style)}
		if s.Model {
			// Hollow, so that a measurement's marker on the same spot
			// still shows.
			sc.GlyphStyle = draw.GlyphStyle{Color: s.Colour, Radius: vg.Points(3), Shape: draw.RingGlyph{}}
		}
		marks = append(marks, sc)
		thumbs[i] = []plot.Thumbnailer{sc}

		f, ok := fitOf[s.seriesKey]
		if !ok || !f.Fitted() {
			continue
		}
		m := f.Curve()
		curve := make(plotter.XYs, curveSteps+1)
		for j := range curve {
			n := 1 + (top-1)*float64(j)/curveSteps
			curve[j] = plotter.XY{X: n, Y: m.Predict(n)}
		}
		line, err := plotter.NewLine(curve)
		if err != nil {
			return nil, leg, fmt.Errorf("%s: fitted curve: %w", s.Label, err)
		}
		line.LineStyle = draw.LineStyle{Color: s.Colour, Width: vg.Points(1.8)}
		if s.Model {
			line.LineStyle.Dashes = dashes(s.Style)
		}
		curves = append(curves, line)
		thumbs[i] = []plot.Thumbnailer{line, sc}
		fitted[i] = fmt.Sprintf("σ=%s κ=%s", format.Param(f.Sigma), format.Param(f.Kappa))
	}
	for _, e := range entries(ss, label) {
		var ts []plot.Thumbnailer
		var fits []string
		for _, i := range e.series {
			ts = append(ts, thumbs[i]...)
			switch {
			case fitted[i] == "":
			case len(e.series) > 1 && ss[i].Model:
				fits = append(fits, "model "+fitted[i])
			case len(e.series) > 1:
				fits = append(fits, "measured "+fitted[i])
			default:
				fits = append(fits, fitted[i])
			}
		}
		text := e.label
		if len(fits) > 0 {
			text += "  " + strings.Join(fits, ", ")
		}
		leg.Add(text, ts...)
	}
	// Markers over the curves, so that a point the curve misses shows.
	p.Add(curves...)
	p.Add(marks...)

	p.X.Min, p.X.Max = 1, top
	p.Y.Min, p.Y.Max = 0, headroom(p.Y.Max)
	return p, leg, nil
}

// fitKey is the key of the report's series a fit belongs to; Fits groups
// series as buildSeries does, one per CPU (Par 0) being perCPU.
func fitKey(f scaling.Fit) seriesKey {
	par := f.Par
	if par == 0 {
		par = perCPU
	}
	return seriesKey{Origin: f.Source, Model: f.Model, Sched: f.Sched, Mode: f.Mode,
		Load: load{Par: par, Rate: f.Rate, MaxQ: f.MaxQ}}
}

// nothingFitted says why no series could be fitted, in a sentence for the
// page; "" when one could.
func nothingFitted(fits []scaling.Fit) string {
	var reasons []string
	for _, f := range fits {
		if f.Fitted() {
			return ""
		}
		reasons = appendNew(reasons, f.Error)
	}
	const what = "No series could be fitted with the Universal Scalability Law"
	if len(reasons) == 1 && strings.Contains(reasons[0], "a fit needs at least") {
		return fmt.Sprintf("%s: each has %s. Measure with --cpus 1-4 or more, or add the model's predictions (brewput model).", what, reasons[0])
	}
	var b strings.Builder
	b.WriteString(what + ": ")
	for i, f := range fits {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s (%s): %s", f.Mode, f.SourceText(), f.Error)
	}
	b.WriteString(".")
	return b.String()
}

// fitCaption says what to look for in the scalability chart; with the
// model's points, how to tell its curves from the measurements'.
func fitCaption(model bool) string {
	text := "Throughput against CPUs with the Universal Scalability Law, X(N) = λN / (1 + σ(N−1) + κN(N−1)), " +
		"fitted to each series by least squares: the markers are the points, the curve the fit. " +
		"σ, contention, bends the curve flat: a share σ of the work is serialized, so throughput approaches λ/σ " +
		"however many CPUs come (Amdahl's law; σ near 1 is one lock around everything). " +
		"κ, coherency, bends it back down: every pair of CPUs costs something to keep in step, " +
		"so throughput peaks at √((1−σ)/κ) CPUs and falls after. A straight line (σ = κ = 0) scales perfectly. " +
		"A series with fewer than 3 CPU counts is drawn as markers without a curve (and without σ and κ in the legend)."
	if model {
		text += " Dashed curves and hollow markers are the model's predictions; solid curves and filled markers measurements."
	}
	return text
}

// fitView is one row of a mode's fit table, numbers formatted for people:
// a series (a source, and a load where the mode has several), and its
// fit or the reason it has none.
type fitView struct {
	Source string
	Model  bool
	// Sigma, Kappa, Lambda, Peak, Serial (Amdahl's serial fraction) and R2
	// are empty when Reason says why the series could not be fitted.
	Sigma, Kappa, Lambda, Peak, Serial, R2 string
	Points                                 int
	Reason                                 string
}

// fitViews fits the Universal Scalability Law to each series of mode
// against CPUs, as brewput fit does, and returns a row per series, in the
// order the series first appear.
func fitViews(points []results.Point, mode string) []fitView {
	var mine []results.Point
	for _, p := range points {
		if p.Mode == mode {
			mine = append(mine, p)
		}
	}
	fits, err := scaling.Fits(mine, scaling.ByCPUs)
	if err != nil {
		return nil // cannot be: ByCPUs is an axis Fits knows
	}
	loads := false
	for _, f := range fits {
		loads = loads || f.LoadText() != fits[0].LoadText()
	}
	out := make([]fitView, len(fits))
	for i, f := range fits {
		v := fitView{Source: f.SourceText(), Model: f.Model, Points: f.Points}
		if loads {
			v.Source += ", " + f.LoadText()
		}
		if !f.Fitted() {
			v.Reason = f.Error
			out[i] = v
			continue
		}
		v.Sigma = format.Param(f.Sigma)
		v.Kappa = format.Param(f.Kappa)
		v.Lambda = strings.TrimSpace(fmt.Sprintf("%.1f %s", f.Lambda, f.Unit))
		v.Peak = f.PeakText()
		v.Serial = format.Param(f.SerialFraction)
		v.R2 = fmt.Sprintf("%.4f", f.R2)
		out[i] = v
	}
	return out
}
