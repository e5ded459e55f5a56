package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/brewput/brewput/advise"
	"github.com/brewput/brewput/results"
)

// modeView is one mode's section: what limits it at each point, how it
// scales, what the model advises and where its goroutines waited.
type modeView struct {
	Mode, ID string
	Limits   []limitRow
	Fits     []fitView
	Advice   *adviceView
	Waits    []waitView
}

// limitRow is one point's bottleneck.
type limitRow struct {
	Model                                          bool
	Source, CPUs, Throughput, Use, Bound, By, Gain string
	Text                                           string
}

type adviceView struct {
	Answer, Setting string
	Rows            []adviceRow
}

type adviceRow struct {
	Rank                                                  int
	Change, As, Throughput, Gain, P50, P99, Latency, Cost string
}

// modeViews lays out a section per mode, in the order the modes first
// appear. Of repeated points (run --count), the first repetition speaks
// for the configuration.
func modeViews(points []results.Point, advice []*advise.Advice) []modeView {
	var out []modeView
	index := map[string]int{}
	for _, p := range points {
		i, ok := index[p.Mode]
		if !ok {
			i = len(out)
			index[p.Mode] = i
			out = append(out, modeView{Mode: p.Mode, ID: "mode-" + anchor(p.Mode)})
		}
		if p.Rep > 1 || p.Bottleneck == nil {
			continue
		}
		b := p.Bottleneck
		row := limitRow{
			Model: p.IsModel(), Source: results.OriginLabel(p), CPUs: fmt.Sprint(p.CPUs),
			Throughput: fmt.Sprintf("%.0f", p.Throughput), By: b.Resource, Gain: "-",
			Use: fmt.Sprintf("%.0f %%", 100*b.Utilization), Bound: "-", Text: b.Text,
		}
		if b.Named != "" {
			row.By = b.Named
		}
		switch {
		case b.Combined != nil:
			row.Gain = signedPercent(b.Gain) + " together"
		case len(b.Profile) > 0 && b.Gain > 0:
			row.Gain = signedPercent(b.Gain)
		}
		switch {
		case b.Utilization == 0:
			row.Use = "-"
		case b.Resource == "cpus":
			row.Use = fmt.Sprintf("used %.0f %%", 100*b.Utilization)
		case b.Working > 0:
			row.Use = fmt.Sprintf("held %.0f %%, working %.0f %%", 100*b.Utilization, 100*b.Working)
		}
		if b.Bound > 0 {
			row.Bound = fmt.Sprintf("%.0f", b.Bound)
		}
		out[i].Limits = append(out[i].Limits, row)
	}
	for i := range out {
		out[i].Fits = fitViews(points, out[i].Mode)
		out[i].Waits = waitViews(points, out[i].Mode)
	}
	for _, a := range advice {
		if a == nil {
			continue
		}
		if i, ok := index[a.Mode]; ok {
			out[i].Advice = newAdviceView(a)
		}
	}
	return out
}

func newAdviceView(a *advise.Advice) *adviceView {
	v := &adviceView{Answer: a.Answer, Setting: "the " + a.Model + ", " + a.System}
	if a.Model == "" {
		v.Setting = fmt.Sprintf("the model, %s policy, %s", a.Sched, a.System)
	}
	for i, o := range a.Options {
		v.Rows = append(v.Rows, adviceRow{
			Rank: i + 1, Change: o.Change, As: o.As,
			Throughput: fmt.Sprintf("%.0f %s", o.Throughput, a.Unit),
			Gain:       signedPercent(o.ThroughputGain), P50: results.FormatMs(o.P50Ms), P99: results.FormatMs(o.P99Ms),
			Latency: signedPercent(-o.LatencyGain), Cost: o.Cost.String(),
		})
	}
	return v
}

// signedPercent writes a relative change as "+50 %", "-33 %" or "0 %".
func signedPercent(f float64) string {
	v := math.Round(100 * f)
	if v == 0 {
		return "0 %"
	}
	return fmt.Sprintf("%+.0f %%", v)
}

// anchor makes a mode's name safe as an HTML id.
func anchor(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return '_'
	}, s)
}
