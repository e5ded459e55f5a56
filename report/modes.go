package report

import (
	"github.com/brewput/brewput/report/text"

	"fmt"
	"strings"

	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// modesView is the section of the modes' details: a collapsed part per
// mode, and what would repeat in each said once.
type modesView struct {
	Modes []modeView
	// NotFitted says, once for all modes, which series could not be
	// fitted and why; their rows are left out of the modes' fit tables.
	NotFitted []string
	// Profiled says some measured point was run with --profile; without,
	// the section says once how to see where goroutines waited.
	Profiled bool
}

// modeView is one mode's section: what limits it at each point, how it
// scales, what the model advises and where its goroutines waited.
type modeView struct {
	Mode, ID string
	// Says is the verdict's line for the mode, its collapsed summary.
	Says   string
	Limits []limitRow
	// Words say the limits in words, once for each run of points with the
	// same verdict; Every holds each point's own words.
	Words  []wordsView
	Fits   []fitView
	Advice *adviceView
	Waits  []waitView
}

// wordsView is a run of a mode's points, of one kind (measured or
// predicted), that the same resources limit and the same change helps,
// said once in the words of its last point.
type wordsView struct {
	Label, Text string
	Model       bool
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
func modeViews(points []results.Point, a *analysis.Analysis, v analysis.Verdict) modesView {
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
			row.Gain = format.WholeGain(b.Gain) + " together"
		case len(b.Profile) > 0 && b.Gain > 0:
			row.Gain = format.WholeGain(b.Gain)
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
	mv := modesView{}
	notFitted := map[string][]string{}
	var reasons []string
	for i := range out {
		out[i].Words = wordsOf(out[i].Limits)
		for _, f := range fitViews(fitsOf(a.Fits, out[i].Mode)) {
			if f.Reason == "" {
				out[i].Fits = append(out[i].Fits, f)
				continue
			}
			key := f.Source + ": " + f.Reason
			if _, ok := notFitted[key]; !ok {
				reasons = append(reasons, key)
			}
			notFitted[key] = append(notFitted[key], out[i].Mode)
		}
		out[i].Waits = waitViews(points, out[i].Mode)
		mv.Profiled = mv.Profiled || len(out[i].Waits) > 0
	}
	for _, r := range reasons {
		source, why, _ := strings.Cut(r, ": ")
		mv.NotFitted = append(mv.NotFitted, fmt.Sprintf("the series of %s (%s): %s.", strings.Join(notFitted[r], ", "), source, why))
	}
	for _, m := range v.Modes {
		if i, ok := index[m.Mode]; ok {
			out[i].Says = text.ModeSays(m)
		}
	}
	for _, adv := range a.Advice {
		if adv == nil {
			continue
		}
		if i, ok := index[adv.Mode]; ok {
			out[i].Advice = newAdviceView(adv)
		}
	}
	mv.Modes = out
	return mv
}

// wordsOf says a mode's limits once per run of rows of one kind with the
// same verdict (what limits it, and whether relieving it helps alone or
// together), in the words of the run's last row: the figures of the other
// rows are in the table above.
func wordsOf(rows []limitRow) []wordsView {
	var out []wordsView
	for i := 0; i < len(rows); {
		j := i
		same := func(a, b limitRow) bool {
			return a.Model == b.Model && a.Source == b.Source && a.By == b.By && strings.HasSuffix(a.Gain, "together") == strings.HasSuffix(b.Gain, "together")
		}
		for j+1 < len(rows) && same(rows[i], rows[j+1]) {
			j++
		}
		label := format.Count(atoi(rows[i].CPUs), "CPU")
		if i != j {
			label = fmt.Sprintf("%s–%s CPUs", rows[i].CPUs, rows[j].CPUs)
		}
		out = append(out, wordsView{Label: label + ", " + rows[i].Source, Text: rows[j].Text, Model: rows[j].Model})
		i = j + 1
	}
	return out
}

func atoi(s string) int {
	n := 0
	fmt.Sscan(s, &n)
	return n
}

func newAdviceView(a *analysis.Advice) *adviceView {
	v := &adviceView{Answer: a.Answer, Setting: "the " + a.Model + ", " + a.System}
	if a.Model == "" {
		v.Setting = fmt.Sprintf("the model, %s policy, %s", a.Sched, a.System)
	}
	for i, o := range a.Options {
		v.Rows = append(v.Rows, adviceRow{
			Rank: i + 1, Change: o.Change, As: o.As,
			Throughput: fmt.Sprintf("%.0f %s", o.Throughput, a.Unit),
			Gain:       format.WholeGain(o.ThroughputGain), P50: format.Ms(o.P50Ms), P99: format.Ms(o.P99Ms),
			Latency: format.WholeGain(-o.LatencyGain), Cost: o.Cost.String(),
		})
	}
	return v
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
