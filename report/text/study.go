package text

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// LeavesOut says in a line what a study's prediction does not model.
const LeavesOut = "Past the CPUs measured, the model keeps each lock's hold as measured on the most of them and the work outside a shared lock as on one: it leaves out " +
	"how they grow with more cores (cache lines shared by more cores, memory bandwidth, the garbage collector's extra work); " +
	"the locks of a group are taken at random, evenly, and channels count as work."

// PredictionSource says what predicted a study's points: "predicted by its model (go), …".
func PredictionSource(pr analysis.Prediction) string {
	s := "predicted by its model (" + pr.Sched + ")"
	if c := pr.Calibration; c != nil {
		s += ", " + CalibrationFor(*c)
	}
	return s
}

// CheckVerdict says how a prediction fares: "within its band", "off by -22 %".
func CheckVerdict(c analysis.Check) string {
	switch {
	case c.Within() && c.Wide():
		return fmt.Sprintf("within its band, too wide (×%.1f) to tell designs apart", c.Hi/c.Lo)
	case c.Within():
		return "within its band"
	}
	return fmt.Sprintf("off by %+.0f %%", 100*c.Off())
}

// worstMiss is variant's check furthest outside its band (ok: one is),
// and the most CPUs variant was measured on.
func worstMiss(checks []analysis.Check, variant string) (worst analysis.Check, most int, ok bool) {
	for _, c := range checks {
		if c.Variant != variant {
			continue
		}
		most = max(most, c.CPUs)
		if !c.Within() && (!ok || math.Abs(c.Off()) > math.Abs(worst.Off())) {
			worst, ok = c, true
		}
	}
	return worst, most, ok
}

// PredictionSentences say what the model predicts on the most CPUs, how it
// fares where measured, and what it leaves out.
func PredictionSentences(pr analysis.Prediction) []string {
	var locked, free []string
	unit := ""
	for _, p := range pr.At {
		unit = p.Unit
		s := format.Rate(p.Throughput, p.Unit)
		if b := p.Band; b != nil && siRate(b.Throughput[0]) != siRate(b.Throughput[1]) {
			s += fmt.Sprintf(" [%s, %s]", siRate(b.Throughput[0]), siRate(b.Throughput[1]))
		}
		if p.Locked {
			locked = append(locked, p.Variant+" "+s)
		} else {
			free = append(free, p.Variant+" "+s)
		}
	}
	var parts []string
	if len(locked) > 0 {
		parts = append(parts, strings.Join(locked, ", "))
	}
	if len(free) > 0 {
		no := plural(len(free), "its model holds", "their models hold")
		parts = append(parts, strings.Join(free, ", ")+" (no meter, so "+no+" no lock: the work alone, which every CPU adds to)")
	}
	var notes []analysis.ModeCaveat
	for _, p := range pr.At {
		for _, c := range p.Caveats {
			notes = append(notes, analysis.ModeCaveat{Mode: p.Variant, Caveat: c})
		}
	}
	out := []string{fmt.Sprintf("On %s, %s: %s.%s", cpus(pr.CPUs), PredictionSource(pr), strings.Join(parts, "; "), caveatsText(notes))}
	if len(pr.Checks) > 0 {
		var counts []int
		within, wide := 0, 0
		var off []string
		for _, c := range pr.Checks {
			counts = collect.AppendNew(counts, c.CPUs)
			if c.Within() {
				within++
				if c.Wide() {
					wide++
				}
				continue
			}
			off = append(off, fmt.Sprintf("%s on %s measured %s, predicted %s [%s, %s]: %s", c.Variant, cpus(c.CPUs),
				format.Rate(c.Measured, unit), siRate(c.Predicted), siRate(c.Lo), siRate(c.Hi), CheckVerdict(c)))
		}
		slices.Sort(counts)
		s := fmt.Sprintf("Held against what was measured on %s: %d of %d points lie within the predicted band", cpuList(counts), within, len(pr.Checks))
		if wide > 0 {
			s += fmt.Sprintf(" (%d of them in a band %.1f times wide or more, which says little: it would hold another design's figure too)", wide, analysis.WideBand)
		}
		if len(off) > 0 {
			s += "; " + strings.Join(off, "; ")
		}
		out = append(out, s+".")
		// A model that missed where measured draws its curve past them on
		// the same costs: its figures there are a shape, not an expectation.
		var missed []string
		for _, p := range pr.At {
			if _, most, ok := worstMiss(pr.Checks, p.Variant); ok && pr.CPUs > most {
				missed = collect.AppendNew(missed, p.Variant)
			}
		}
		if len(missed) > 0 {
			out = append(out, fmt.Sprintf("A model off where it was measured may be further off on %s, %s the most CPUs measured: take %s's figure there as the shape its model draws, not one to expect.",
				cpus(pr.CPUs), strconv.FormatFloat(float64(pr.CPUs)/float64(slices.Max(counts)), 'g', 2, 64)+" times", format.JoinAnd(missed)))
		}
	}
	return append(out, LeavesOut)
}

// longSetBy is the longest name of what sets a ceiling that its column holds.
const longSetBy = 16

// WritePrediction writes a study's predicted points, a row per variant
// and CPU count, with the measurement and its check where measured.
func WritePrediction(w io.Writer, predicted []results.Point, checks []analysis.Check) error {
	t := format.Table{Align: []format.Align{format.Left, format.Right, format.Right, format.Left, format.Left, format.Right, format.Left, format.Left}, Indent: true, Ragged: true, Width: format.Width(w)}
	// Where the columns before the check do not fit, each variant's name
	// heads its rows on a line of its own (libraries' names run to 30).
	type item struct {
		cells []string
		note  string
	}
	var items []item
	for _, p := range predicted {
		band, bound := "-", "-"
		if p.Band != nil {
			band = fmt.Sprintf("[%s, %s]", siRate(p.Band.Throughput[0]), siRate(p.Band.Throughput[1]))
		}
		if bd := p.Bounds; bd != nil && bd.ThroughputMax > 0 {
			bound = format.SIAtMost(bd.ThroughputMax) + " " + cmp.Or(bd.SetBy, "cpus")
			if utf8.RuneCountInString(bd.SetBy) > longSetBy {
				bound = format.SIAtMost(bd.ThroughputMax) + t.Mark("set by "+bd.SetBy)
			}
		}
		meas, says := "", ""
		if i := slices.IndexFunc(checks, func(c analysis.Check) bool { return c.Variant == p.Mode && c.CPUs == p.CPUs }); i >= 0 {
			c := checks[i]
			meas = siRate(c.Measured)
			if c.Disturbed {
				meas += "*"
			}
			says = CheckVerdict(c)
		}
		past := collect.Mapped(p.Above, func(a results.Above) string { return AboveText(p, a) })
		figure := siRate(p.Throughput)
		if worst, most, ok := worstMiss(checks, p.Mode); ok && p.CPUs > most {
			figure += t.Mark(fmt.Sprintf("its model was %s on %s, where measured, outside its band: past the CPUs measured it may be off by more", CheckVerdict(worst), cpus(worst.CPUs)))
		}
		// What the model leaves out here: a footnote each, shared by rows alike.
		for _, c := range p.Caveats {
			figure += t.Mark(CaveatText(c))
		}
		it := item{cells: []string{p.Mode, strconv.Itoa(p.CPUs), figure, band, bound, meas, says}}
		if len(past) > 0 {
			const indent = "      "
			it.note = indent + format.Wrap("note: "+strings.Join(past, "; "), format.Width(w)-len(indent), indent)
		}
		items = append(items, it)
	}
	header := []string{"variant", "cpus", "predicted", "band", "ceiling", "measured", "check"}
	fixed := [][]string{header[:len(header)-1]} // the columns before the check
	for _, it := range items {
		fixed = append(fixed, it.cells[:len(header)-1])
	}
	headed := len(gap)+tableWidth(fixed...) > format.Width(w)
	if headed {
		header[0] = ""
	}
	t.Row(header...)
	last := ""
	for _, it := range items {
		if headed {
			if it.cells[0] != last {
				t.Line("  " + it.cells[0])
			}
			last = it.cells[0]
			it.cells[0] = ""
		}
		t.Row(it.cells...)
		if it.note != "" {
			t.Line(it.note)
		}
	}
	var b strings.Builder
	if err := t.Write(&b); err != nil {
		return err
	}
	unit := "ops/s"
	if len(predicted) > 0 {
		unit = predicted[0].Unit
	}
	legend := fmt.Sprintf("Throughput in %s (M = million); ceiling: the most the structure allows with no waiting, and what sets it.", unit)
	b.WriteString("\n" + format.Wrap(legend, format.Width(w), "") + "\n")
	if slices.ContainsFunc(checks, func(c analysis.Check) bool { return c.Disturbed }) {
		b.WriteString("* a measured run of this point was disturbed: other processes took CPU from it.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
