package report

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// verdictView is the page's answer: sentences, a row per mode (or modes
// alike), and the studies' verdicts.
type verdictView struct {
	Sentences []string
	Unit      string
	Modes     []verdictRow
	// At is where every row is when all are on one count of one source ("8
	// CPUs, model (go)"); the table then has no such column.
	At      string
	Studies []studyVerdictView
}

// studyVerdictView is a study's answer; Predicted says it has predictions.
type studyVerdictView struct {
	Study, ID string
	Sentences []string
	Predicted bool
}

type verdictRow struct {
	Model                                          bool
	Mode, Throughput, P50, At, Limit, Change, Gain string
	// Try opens the row's modes in the playground (Options.Playground).
	Try []tryLink
}

type tryLink struct{ Mode, Href string }

// playgroundLink opens the playground on m's mode, CPUs and policy.
func playgroundLink(base string, m analysis.ModeLimit) string {
	q := url.Values{"mode": {m.Mode}, "cpus": {strconv.Itoa(m.CPUs)}}
	if m.Sched != "" {
		q.Set("sched", m.Sched)
	}
	return base + "#" + q.Encode() // Encode sorts by key
}

// newVerdictView lays out the verdict: modes alike in limit, change and
// gain, making about as much, share a row.
func newVerdictView(v analysis.Verdict, playground string, declared results.Modes) verdictView {
	vv := verdictView{Unit: v.Unit, Sentences: collect.Mapped(v.Counts, text.CountSentence)}
	for _, d := range v.Studies {
		vv.Studies = append(vv.Studies, studyVerdictView{Study: d.Study, ID: "verdict-study-" + anchor(d.Study), Sentences: text.StudySentences(d), Predicted: d.Prediction != nil})
	}
	type group struct {
		row                  verdictRow
		unit                 string
		modes                []string
		lo, hi, p50lo, p50hi float64
		band                 *[2]float64 // the modes' bands together, nil where any has none
	}
	var groups []*group
	type rowKey struct {
		model                   bool
		at, limit, change, gain string
	}
	index := map[rowKey]*group{}
	for _, m := range v.Modes {
		row := verdictRow{Model: m.Model,
			At: fmt.Sprintf("%s, %s", format.Count(m.CPUs, "CPU"), text.LimitSource(m)), Limit: text.LimitName(m.Limit.Of), Change: "-", Gain: "-"}
		if m.From > m.First && m.From < m.CPUs {
			row.Limit += fmt.Sprintf(" (from %s)", format.Count(m.From, "CPU"))
		}
		if m.Limit.Change != nil {
			row.Change, row.Gain = text.ChangeText(*m.Limit.Change), format.Gain(m.Limit.Gain)+text.Hedge(m.Caveats)
		}
		key := rowKey{row.Model, row.At, row.Limit, row.Change, row.Gain}
		g, ok := index[key]
		if !ok || g.unit != m.Unit || m.Throughput < (1-analysis.Near)*g.hi || m.Throughput > g.lo/(1-analysis.Near) {
			g = &group{row: row, unit: m.Unit, lo: m.Throughput, hi: m.Throughput, p50lo: m.P50, p50hi: m.P50, band: m.Band}
			groups = append(groups, g)
			index[key] = g
		}
		g.modes = append(g.modes, m.Mode)
		if playground != "" && declared != nil && declared.Known(m.Mode) {
			g.row.Try = append(g.row.Try, tryLink{Mode: m.Mode, Href: playgroundLink(playground, m)})
		}
		g.lo, g.hi = min(g.lo, m.Throughput), max(g.hi, m.Throughput)
		if g.band != nil && m.Band != nil {
			g.band = &[2]float64{min(g.band[0], m.Band[0]), max(g.band[1], m.Band[1])}
		} else {
			g.band = nil
		}
		g.p50lo, g.p50hi = min(g.p50lo, m.P50), max(g.p50hi, m.P50)
	}
	for i, g := range groups {
		r := g.row
		r.Mode = strings.Join(g.modes, ", ")
		r.Throughput = format.Range(format.Whole(g.lo), format.Whole(g.hi))
		if v.Unit == "" {
			r.Throughput += " " + g.unit
		}
		if b := g.band; b != nil && text.BandWords(b, g.lo, g.hi) != "" {
			r.Throughput += " [" + format.Range(format.Whole(b[0]), format.Whole(b[1])) + "]"
		}
		r.P50 = format.MsRange(g.p50lo, g.p50hi)
		vv.Modes = append(vv.Modes, r)
		if i == 0 {
			vv.At = r.At
		} else if r.At != vv.At {
			vv.At = ""
		}
	}
	return vv
}
