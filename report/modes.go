package report

import (
	"fmt"
	"strings"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// modesView is the modes' section: a collapsed part per mode, and what
// would repeat in each said once.
type modesView struct {
	Modes []modeView
	// NotFitted says which series could not be fitted, and why.
	NotFitted []string
	// Profiled says a point ran with --profile; else the section says once
	// how to see where goroutines waited.
	Profiled bool
}

// modeView is one mode's part.
type modeView struct {
	Mode, ID string
	// Says is the verdict's line for the mode.
	Says   string
	Limits []limitRow
	// Words say the limits once per run of points with one verdict.
	Words  []wordsView
	Fits   []fitView
	Advice *adviceView
	Waits  []waitView
}

// wordsView is a run of a mode's points of one kind with one verdict, in
// its last point's words.
type wordsView struct {
	Label, Text string
	Model       bool
}

type limitRow struct {
	Model bool
	CPUs  int
	// Together: the change relieves several resources at once.
	Together                                 bool
	Source, Throughput, Use, Bound, By, Gain string
	Text                                     string
}

type adviceView struct {
	Answer, Setting string
	Rows            []adviceRow
}

type adviceRow struct {
	Rank                                                  int
	Change, As, Throughput, Gain, P50, P99, Latency, Cost string
}

// modeViews lays out a part per mode in order of appearance; of repeated
// points (--count), the first repetition speaks.
func modeViews(points []results.Point, a *analysis.Analysis, v analysis.Verdict) modesView {
	modes, byMode := groupBy(points, func(p results.Point) string { return p.Mode })
	says := text.ModeSummaries(a)
	advice := map[string]*adviceView{}
	for _, adv := range a.Advice {
		if adv != nil {
			advice[adv.Mode] = newAdviceView(adv)
		}
	}
	var mv modesView
	var nf notFitted
	for _, mode := range modes {
		m := modeView{Mode: mode, ID: "mode-" + anchor(mode), Says: says[mode], Advice: advice[mode],
			Fits: nf.fitted(mode, fitsOf(a.Fits, mode)), Waits: waitViews(points, mode)}
		for _, p := range byMode[mode] {
			if p.Rep <= 1 && p.Bottleneck != nil {
				m.Limits = append(m.Limits, newLimitRow(p))
			}
		}
		m.Words = wordsOf(m.Limits)
		mv.Profiled = mv.Profiled || len(m.Waits) > 0
		mv.Modes = append(mv.Modes, m)
	}
	mv.NotFitted = nf.sentences()
	return mv
}

func newLimitRow(p results.Point) limitRow {
	b := p.Bottleneck
	row := limitRow{
		Model: p.IsModel(), Source: results.OriginLabel(p), CPUs: p.CPUs, Together: b.Combined != nil,
		Throughput: fmt.Sprintf("%.0f", p.Throughput), By: b.Resource, Gain: "-",
		Use: format.Percent(b.Utilization, 0), Bound: "-", Text: text.BottleneckText(p),
	}
	if len(b.Parts) > 0 || b.Named != "" {
		row.By = text.BottleneckName(b)
	}
	if row.Together || len(b.Experiments) > 0 && b.Gain > 0 {
		row.Gain = format.WholeGain(b.Gain)
	}
	switch {
	case b.Utilization == 0:
		row.Use = "-"
	case b.Resource == "cpus":
		row.Use = "used " + row.Use
	case b.Working > 0:
		row.Use = fmt.Sprintf("held %s, working %s", row.Use, format.Percent(b.Working, 0))
	}
	if b.Bound > 0 {
		row.Bound = fmt.Sprintf("%.0f", b.Bound)
	}
	return row
}

func wordsOf(rows []limitRow) []wordsView {
	var out []wordsView
	for i := 0; i < len(rows); {
		j := i
		same := func(a, b limitRow) bool {
			return a.Model == b.Model && a.Source == b.Source && a.By == b.By && a.Together == b.Together
		}
		for j+1 < len(rows) && same(rows[i], rows[j+1]) {
			j++
		}
		label := format.Count(rows[i].CPUs, "CPU")
		if i != j {
			label = fmt.Sprintf("%d–%d CPUs", rows[i].CPUs, rows[j].CPUs)
		}
		out = append(out, wordsView{Label: label + ", " + rows[i].Source, Text: rows[j].Text, Model: rows[j].Model})
		i = j + 1
	}
	return out
}

// notFitted gathers the series not fitted, with their modes (or variants).
type notFitted []unfitted

type unfitted struct{ source, reason, name string }

// fitted lays out name's fits, returning those fitted and keeping the rest.
func (n *notFitted) fitted(name string, fits []analysis.Fit) []fitView {
	var out []fitView
	for _, f := range fitViews(fits) {
		if f.Reason == "" {
			out = append(out, f)
			continue
		}
		*n = append(*n, unfitted{f.Source, f.Reason, name})
	}
	return out
}

// sentences say which series were not fitted, by source and reason.
func (n notFitted) sentences() []string {
	keys, by := groupBy(n, func(u unfitted) [2]string { return [2]string{u.source, u.reason} })
	return collect.Mapped(keys, func(k [2]string) string {
		names := collect.Mapped(by[k], func(u unfitted) string { return u.name })
		return fmt.Sprintf("the series of %s (%s): %s.", strings.Join(names, ", "), k[0], k[1])
	})
}

func newAdviceView(a *analysis.Advice) *adviceView {
	v := &adviceView{Answer: text.AdviceAnswer(a), Setting: "the " + a.Model + ", " + a.System}
	if a.Model == "" {
		v.Setting = fmt.Sprintf("the model, %s policy, %s", a.Sched, a.System)
	}
	for i, o := range a.Options {
		v.Rows = append(v.Rows, adviceRow{
			Rank: i + 1, Change: text.OptionChange(o), As: text.Becomes(o.Becomes),
			Throughput: fmt.Sprintf("%.0f %s", o.Throughput, a.Unit),
			Gain:       format.WholeGain(o.ThroughputGain), P50: format.Ms(o.P50Ms), P99: format.Ms(o.P99Ms),
			Latency: format.WholeGain(-o.LatencyGain), Cost: o.Cost.String(),
		})
	}
	return v
}

// anchor makes s safe as an HTML id.
func anchor(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return '_'
	}, s)
}
