package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results/analysis"
)

// curve is f's law from 1 to top CPUs, in curveSteps segments: smooth at
// any range of CPUs.
func curve(f analysis.Fit, top float64) plotter.XYs {
	xys := make(plotter.XYs, curveSteps+1)
	for j := range xys {
		n := 1 + (top-1)*float64(j)/curveSteps
		xys[j] = plotter.XY{X: n, Y: f.Predict(n)}
	}
	return xys
}

const curveSteps = 200

// scalabilityChart draws each series' medians with its fitted Universal
// Scalability Law; empty, saying why, where nothing was fitted.
func scalabilityChart(fits []analysis.Fit, ss []series, cpus []int) (chart, error) {
	c := chart{Name: "scalability", Title: "Scalability: the Universal Scalability Law fitted to throughput against CPUs"}
	if c.Empty = nothingFitted(fits); c.Empty != "" {
		return c, nil
	}
	fitOf := map[seriesKey]analysis.Fit{}
	for _, f := range fits {
		fitOf[fitKey(f)] = f
	}
	ylabel, label := throughputLabels(ss)
	return c.drawn(panelFigure(c.Title, ss, label, func(ss []series) (*plot.Plot, plot.Legend, error) {
		return fitPlot(ss, cpus, ylabel, label, fitOf)
	}))
}

// fitPlot is a panel of the scalability chart: markers (a model's hollow)
// over the curves, and a legend entry per mode with each fit's σ and κ.
func fitPlot(ss []series, cpus []int, ylabel string, label func(series) string, fitOf map[seriesKey]analysis.Fit) (*plot.Plot, plot.Legend, error) {
	top := float64(cpus[len(cpus)-1])
	p := cpuPlot("CPUs", cpus, ylabel)
	leg := newLegend()
	var curves, points []plot.Plotter
	var d drawer
	thumbs := make([][]plot.Thumbnailer, len(ss))
	fitted := make([]string, len(ss))
	for i, s := range ss {
		xys := collect.Mapped(s.Samples, func(x sample) plotter.XY { return plotter.XY{X: float64(x.CPUs), Y: x.Throughput} })
		style, dashed := glyph(s.Colour, 3.5, marker(s.Style)), []vg.Length(nil)
		if s.Model {
			style, dashed = glyph(s.Colour, 3, draw.RingGlyph{}), dashes(s.Style)
		}
		m := d.marks(s.Label, xys, style)
		points = append(points, m)
		thumbs[i] = []plot.Thumbnailer{m}
		f, ok := fitOf[s.seriesKey]
		if !ok || !f.Fitted() {
			continue
		}
		l := d.line(s.Label+": fitted curve", curve(f, top), stroke(s.Colour, 1.8, dashed))
		curves = append(curves, l)
		thumbs[i] = []plot.Thumbnailer{l, m}
		fitted[i] = fmt.Sprintf("σ=%s κ=%s", format.Param(f.Sigma), format.Param(f.Kappa))
	}
	if d.err != nil {
		return nil, leg, d.err
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
	p.Add(curves...)
	p.Add(points...) // over the curves, so that a point the curve misses shows
	p.X.Min, p.X.Max = 1, top
	p.Y.Min, p.Y.Max = 0, headroom(p.Y.Max)
	return p, leg, nil
}

// fitKey is the series a fit belongs to (Par 0 being perCPU).
func fitKey(f analysis.Fit) seriesKey {
	return seriesKey{Origin: f.Source, Model: f.Model, Sched: f.Sched, Mode: f.Mode,
		Load: load{Par: cmp.Or(f.Par, perCPU), Rate: f.Rate, MaxQ: f.MaxQ}}
}

// nothingFitted says why no series could be fitted; "" where one was.
func nothingFitted(fits []analysis.Fit) string {
	var reasons []string
	for _, f := range fits {
		if f.Fitted() {
			return ""
		}
		reasons = collect.AppendNew(reasons, f.Error)
	}
	const what = "No series could be fitted with the Universal Scalability Law"
	if len(reasons) == 1 && strings.Contains(reasons[0], "a fit needs at least") {
		return fmt.Sprintf("%s: each has %s. Measure with --cpus 1-4 or more, or add the model's predictions (brewput model).", what, reasons[0])
	}
	each := collect.Mapped(fits, func(f analysis.Fit) string { return fmt.Sprintf("%s (%s): %s", f.Mode, f.SourceText(), f.Error) })
	return what + ": " + strings.Join(each, "; ") + "."
}

// fitCaption says what to look for in the scalability chart.
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

// fitView is a row of a fit table: a series and its fit, or why it has none.
type fitView struct {
	Source                                 string
	Model                                  bool
	Sigma, Kappa, Lambda, Peak, Serial, R2 string
	Points                                 int
	Reason                                 string
}

// fitViews lays out a row per fit, as brewput fit writes them.
func fitViews(fits []analysis.Fit) []fitView {
	loads := varies(fits, analysis.Fit.LoadText)
	return collect.Mapped(fits, func(f analysis.Fit) fitView {
		v := fitView{Source: f.SourceText(), Model: f.Model, Points: f.Points}
		if loads {
			v.Source += ", " + f.LoadText()
		}
		if f.Fitted() {
			v.Sigma, v.Kappa, v.Serial = format.Param(f.Sigma), format.Param(f.Kappa), format.Param(f.SerialFraction)
			v.Lambda = strings.TrimSpace(fmt.Sprintf("%.1f %s", f.Lambda, f.Unit))
			v.Peak, v.R2 = text.PeakText(f), fmt.Sprintf("%.4f", f.R2)
		} else {
			v.Reason = f.Error
		}
		return v
	})
}

func fitsOf(fits []analysis.Fit, mode string) []analysis.Fit {
	return slices.DeleteFunc(slices.Clone(fits), func(f analysis.Fit) bool { return f.Mode != mode })
}
