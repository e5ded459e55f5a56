package verdict

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/results"
)

// Near is how close to the most a mode's throughput must be to count among
// those that make the most at a CPU count: within 5 %, about what two runs
// of one measured point differ by on a busy machine.
const Near = 0.05

// Verdict is the answer a study gives, computed from its points.
type Verdict struct {
	// Counts are the CPU counts of interest: the most CPUs measured, the
	// first count the model predicts a new wall at, and the most CPUs
	// predicted.
	Counts []Count
	// Modes says, for each mode, what limits it at the most CPUs it has a
	// point on, and what the best change tried there gains.
	Modes []ModeLimit
	// Unit is what every mode's throughput counts, "" where they count
	// different things.
	Unit string
	// Studies describe the points of the user's own code (package study),
	// a study each: what its variants measured, side by side, what its
	// model predicts where it has predicted points, and no limit — brewput
	// names one of such code only by experiment (the study's why command).
	Studies []Described
	// Benches answer the Go benchmarks, a family of variants each (see
	// BenchFamily).
	Benches []BenchFamily
}

// Empty reports whether the verdict says nothing: there are no shop,
// study or benchmark points.
func (v Verdict) Empty() bool {
	return len(v.Counts) == 0 && len(v.Studies) == 0 && len(v.Benches) == 0
}

// Count is what a CPU count of interest shows.
type Count struct {
	CPUs int
	// Source says where its figures come from: "measured on vm",
	// "predicted by the model (go)".
	Source string
	// Best are the modes within Near of the most at this count; Lo, Hi
	// their throughput and P50Lo, P50Hi their median latency in ms.
	Best []string
	// bestNamed are Best with what sets them apart: "parsteam (an open
	// loop of 800 orders/s)", "cafe (predicted)".
	bestNamed      []string
	Lo, Hi         float64
	P50Lo, P50Hi   float64
	Rest           []Other
	Disturbed, All int
	// References are the designs with a data race (ideal) beside the
	// valid ones: the CPUs' ceiling, never among the best.
	References []Reference
	// Sentence says it all in words; Headline says what makes the most
	// and how many points were disturbed, leaving the rest to a table.
	Sentence, Headline string
}

// Reference is a design with a data race at a count: what it makes there.
type Reference struct {
	Mode       string
	Throughput float64
	Unit       string
}

// Other is a mode that makes less than the best at a count.
type Other struct {
	Mode       string
	Throughput float64
	Model      bool // predicted, among measured ones
	Limit      Limit
	// Predicted, for a measurement, is the model's throughput for the
	// same configuration where it differs by more than Near; 0 otherwise.
	Predicted float64
	// Rate is the arrivals per second of an open loop, 0 for a closed one.
	Rate float64
	// Disturbed says other processes took CPU from the measurement.
	Disturbed bool
}

// ModeLimit is one mode's row of the verdict's table.
type ModeLimit struct {
	Mode   string
	CPUs   int
	Unit   string
	Source string
	Model  bool // predicted, not measured
	// Sched and Runtime are a prediction's policy and Go runtime ("" for
	// a measurement).
	Sched, Runtime string
	// Throughput and P50 (ms) at CPUs.
	Throughput, P50 float64
	Limit           Limit
	// From is the least CPU count from which Limit's class holds at every
	// count up to CPUs; First the least the mode has a point on.
	From, First int
}

// Of computes the verdict of points (the shop's, with the bottlenecks
// limits.Annotate gave them; the studies' and the Go benchmarks', as
// measured; labs' are left out). It is empty where there are none.
func Of(points []results.Point) Verdict {
	v := OfGrid(NewGrid(points))
	v.Studies = Studies(points)
	v.Benches = BenchFamilies(points)
	return v
}

// OfGrid is the shop's part of Of, from points already laid out.
func OfGrid(g *Grid) Verdict {
	var v Verdict
	if len(g.Modes) == 0 {
		return v
	}
	for _, c := range interesting(g) {
		v.Counts = append(v.Counts, count(g, c))
	}
	for i, m := range g.Modes {
		if ml, ok := modeLimit(g, m); ok {
			v.Modes = append(v.Modes, ml)
			if i == 0 {
				v.Unit = ml.Unit
			} else if ml.Unit != v.Unit {
				v.Unit = ""
			}
		}
	}
	return v
}

// interesting picks the CPU counts the verdict speaks of: the most CPUs
// measured; beyond them, the first count at which a mode that scaled on
// the count before stops (a new wall), and the most CPUs predicted.
func interesting(g *Grid) []int {
	measured := 0
	for _, n := range g.CPUs {
		for _, m := range g.Modes {
			if c, ok := g.At(m, n); ok && c.Measured != nil {
				measured = max(measured, n)
			}
		}
	}
	var out []int
	if measured > 0 {
		out = append(out, measured)
	}
	var beyond []int
	for _, n := range g.CPUs {
		if n > measured {
			beyond = append(beyond, n)
		}
	}
	if len(beyond) == 0 {
		return out
	}
	prev := measured
	for _, n := range beyond {
		if prev > 0 && newWall(g, prev, n) {
			out = append(out, n)
			break
		}
		prev = n
	}
	if last := beyond[len(beyond)-1]; !slices.Contains(out, last) {
		out = append(out, last)
	}
	return out
}

// newWall reports whether a mode that scaled on a CPUs stops scaling on b.
func newWall(g *Grid, a, b int) bool {
	for _, m := range g.Modes {
		ca, okA := g.At(m, a)
		cb, okB := g.At(m, b)
		if okA && okB && ca.Shown().Limit.Scales() && !cb.Shown().Limit.Scales() {
			return true
		}
	}
	return false
}

// count says what CPU count n shows.
func count(g *Grid, n int) Count {
	c := Count{CPUs: n}
	type shown struct {
		mode string
		e    *Entry
	}
	var es []shown
	measured, model := 0, 0
	host, sched := "", ""
	// Only modes counting the same unit compare: the unit most of them
	// count; the others are said apart.
	units := map[string]int{}
	for _, m := range g.Modes {
		if cell, ok := g.At(m, n); ok {
			units[cell.Shown().Unit]++
		}
	}
	unit := ""
	for _, m := range g.Modes {
		if cell, ok := g.At(m, n); ok {
			if u := cell.Shown().Unit; unit == "" || units[u] > units[unit] {
				unit = u
			}
		}
	}
	var apart []string
	for _, m := range g.Modes {
		cell, ok := g.At(m, n)
		if !ok {
			continue
		}
		e := cell.Shown()
		if e.Unit != unit {
			apart = append(apart, fmt.Sprintf("%s makes %s %s", m, format.Whole(e.Throughput), e.Unit))
			continue
		}
		es = append(es, shown{m, e})
		c.All += e.Reps
		if e.Model {
			model++
			sched = appendFirst(sched, e.Source)
		} else {
			measured++
			host = appendFirst(host, e.Host)
			c.Disturbed += e.Disturbed
		}
	}
	// A design with a data race is the CPUs' ceiling, a reference: never
	// the one that makes the most, unless it is all there is.
	var racy []shown
	if valid := slices.DeleteFunc(slices.Clone(es), func(s shown) bool { return races(s.mode) }); len(valid) > 0 && len(valid) < len(es) {
		for _, s := range es {
			if races(s.mode) {
				racy = append(racy, s)
			}
		}
		es = valid
	}
	// The source says where the valid designs' figures come from.
	measured, model = 0, 0
	for _, s := range es {
		if s.e.Model {
			model++
		} else {
			measured++
		}
	}
	mixed := measured > 0 && model > 0
	switch {
	case measured > 0 && host != "" && host != "measured":
		c.Source = "measured on " + host
	case measured > 0:
		c.Source = "measured"
	default:
		c.Source = "predicted by the " + sched
	}
	if mixed {
		c.Source += fmt.Sprintf(" (%d of %d modes; the others %s)", measured, len(es), "predicted by the model")
	}
	best := most(es, func(s shown) float64 { return s.e.Throughput })
	var sp spread
	for _, s := range es {
		if s.e.Throughput >= (1-Near)*best {
			c.Best = append(c.Best, s.mode)
			var notes []string
			if mixed && s.e.Model {
				notes = append(notes, "predicted")
			}
			if s.e.Point.Rate > 0 {
				notes = append(notes, fmt.Sprintf("an open loop of %g orders/s", s.e.Point.Rate))
			}
			name := s.mode
			if len(notes) > 0 {
				name += " (" + strings.Join(notes, ", ") + ")"
			}
			c.bestNamed = append(c.bestNamed, name)
			sp.add(s.e.Throughput, s.e.P50)
			continue
		}
		o := Other{Mode: s.mode, Throughput: s.e.Throughput, Model: mixed && s.e.Model, Limit: s.e.Limit, Rate: s.e.Point.Rate, Disturbed: s.e.Disturbed > 0}
		if cell, _ := g.At(s.mode, n); !s.e.Model && cell.Model != nil && cell.Model.Throughput > 0 &&
			(s.e.Throughput/cell.Model.Throughput > 1+Near || s.e.Throughput/cell.Model.Throughput < 1-Near) {
			o.Predicted = cell.Model.Throughput
		}
		c.Rest = append(c.Rest, o)
	}
	c.Lo, c.Hi, c.P50Lo, c.P50Hi = sp.lo, sp.hi, sp.p50Lo, sp.p50Hi
	slices.SortStableFunc(c.Rest, func(a, b Other) int { return cmp.Compare(b.Throughput, a.Throughput) })
	c.Sentence = countSentence(c, unit, len(es) == len(g.Modes), true)
	c.Headline = countSentence(c, unit, len(es) == len(g.Modes), false)
	for _, r := range racy {
		c.References = append(c.References, Reference{r.mode, r.e.Throughput, unit})
		c.Sentence += fmt.Sprintf(" For reference, %s makes %s %s: it has a data race (no synchronization at all), the limit of the CPUs, not a valid design.", r.mode, format.Whole(r.e.Throughput), unit)
	}
	if len(apart) > 0 {
		c.Sentence += " Apart, counting something else: " + format.JoinAnd(apart) + "."
	}
	return c
}

// countSentence says a count in words: "On 2 CPUs, measured on vm, every
// mode but locking makes 488–498 lattes/s at a median 4.01–4.03 ms;
// locking makes 249 (the kitchen lock)". every says that every mode of the
// study has a point on the count; rest, that the sentence says what the
// modes that make less make too.
func countSentence(c Count, unit string, every, rest bool) string {
	var s strings.Builder
	source := c.Source
	if c.Disturbed > 0 && !rest {
		source += fmt.Sprintf(" (%d of %d points disturbed)", c.Disturbed, c.All)
	}
	fmt.Fprintf(&s, "On %s, %s: ", format.Count(c.CPUs, "CPU"), source)
	verb := "make"
	switch {
	case len(c.Rest) == 0 && len(c.Best) > 1 && every:
		s.WriteString("every mode")
		verb = "makes"
	case len(c.Rest) == 0 && len(c.Best) > 1:
		s.WriteString(format.JoinAnd(c.bestNamed))
		verb = "make"
	case len(c.Best) == 1 && len(c.Rest) == 0:
		s.WriteString(c.bestNamed[0])
		verb = "makes"
	case len(c.Best) == 1:
		s.WriteString(c.bestNamed[0])
		verb = "makes the most,"
	case every && len(c.Rest) <= 3 && len(c.Best) > len(c.Rest):
		var rest []string
		for _, o := range c.Rest {
			rest = append(rest, o.Mode)
		}
		s.WriteString("every mode but " + format.JoinAnd(rest))
		verb = "makes"
	default:
		s.WriteString(format.JoinAnd(c.bestNamed))
		verb = "make the most,"
	}
	fmt.Fprintf(&s, " %s %s %s at a median %s ms", verb, format.Range(format.Whole(c.Lo), format.Whole(c.Hi)), unit, format.Range(format.Ms3(c.P50Lo), format.Ms3(c.P50Hi)))
	if len(c.Rest) > 0 && rest {
		s.WriteString("; " + restText(c.Rest))
	}
	s.WriteString(".")
	if c.Disturbed > 0 && rest {
		fmt.Fprintf(&s, " %d of the %d points measured here were disturbed: other processes took CPU while they ran.", c.Disturbed, c.All)
	}
	return s.String()
}

// modeLimit is mode's row: its limit at the most CPUs it has a point on,
// and since which count that holds.
func modeLimit(g *Grid, mode string) (ModeLimit, bool) {
	var counts []int
	for _, n := range g.CPUs {
		if _, ok := g.At(mode, n); ok {
			counts = append(counts, n)
		}
	}
	if len(counts) == 0 {
		return ModeLimit{}, false
	}
	top := counts[len(counts)-1]
	cell, _ := g.At(mode, top)
	e := cell.Shown()
	ml := ModeLimit{Mode: mode, CPUs: top, Unit: e.Unit, Source: e.Source, Model: e.Model, Sched: e.Point.Sched, Runtime: e.Point.Runtime,
		Throughput: e.Throughput, P50: e.P50, Limit: e.Limit, From: top, First: counts[0]}
	if !e.Model && e.Host != "" && e.Host != "measured" {
		ml.Source = "measured on " + e.Host
	}
	for i := len(counts) - 2; i >= 0; i-- {
		c, _ := g.At(mode, counts[i])
		if c.Shown().Limit.Class != e.Limit.Class {
			break
		}
		ml.From = counts[i]
	}
	return ml, true
}

// Sentences are the verdict's words: a sentence for each count of
// interest, then the studies' (see Described.Sentences).
func (v Verdict) Sentences() []string {
	var out []string
	for _, c := range v.Counts {
		out = append(out, c.Sentence)
	}
	for _, d := range v.Studies {
		out = append(out, d.Sentences()...)
	}
	for _, f := range v.Benches {
		out = append(out, f.Sentences()...)
	}
	return out
}

// Figures are the mode's throughput and latency where it is judged: "928
// lattes/s at 8.62 ms on 8 CPUs, model (go)".
func (m ModeLimit) Figures() string {
	return fmt.Sprintf("%s %s at %s ms on %s, %s", format.Whole(m.Throughput), m.Unit, format.Ms3(m.P50), format.Count(m.CPUs, "CPU"), m.Source)
}

// Says is what limits a mode and what the best change gains, in words:
// "the grinder from 4 CPUs; another grinder: +7.3 %".
func (m ModeLimit) Says() string {
	s := m.Limit.Named
	switch {
	case m.From < m.CPUs && m.From == m.First && !m.Limit.Scales() && m.Limit.Class != "unknown":
		s += " at every CPU count"
	case m.From < m.CPUs && m.From > m.First:
		s += fmt.Sprintf(" from %s", format.Count(m.From, "CPU"))
	}
	if m.Limit.Change != "" {
		s += fmt.Sprintf("; %s: %s", m.Limit.Change, format.Gain(m.Limit.Gain))
	}
	return s
}

// restText says what the modes that make less make, those with the same
// note together: "finelocking makes 928 (the grinder), linearpipe-0,
// linearpipe-1 and parsteam 993–998 (the grinder, espresso machine and
// steamer together), locking 250 (the kitchen lock)".
func restText(rest []Other) string {
	note := func(o Other) string {
		var notes []string
		if o.Model {
			notes = append(notes, "predicted")
		}
		if o.Rate > 0 {
			notes = append(notes, fmt.Sprintf("an open loop of %g orders/s", o.Rate))
		}
		if o.Disturbed {
			notes = append(notes, "disturbed")
		}
		if !o.Limit.Scales() && o.Limit.Class != "unknown" {
			notes = append(notes, o.Limit.Named)
		}
		if o.Predicted > 0 {
			notes = append(notes, "the model predicts "+format.Whole(o.Predicted))
		}
		return strings.Join(notes, "; ")
	}
	type group struct {
		note   string
		modes  []string
		lo, hi float64
	}
	var groups []*group
	byNote := map[string]*group{}
	for _, o := range rest {
		n := note(o)
		g, ok := byNote[n]
		if ok && o.Throughput < (1-Near)*g.hi {
			ok = false // alike in what limits them, not in what they make
		}
		if !ok || n == "" || o.Predicted > 0 {
			g = &group{note: n, lo: o.Throughput, hi: o.Throughput}
			groups = append(groups, g)
			if n != "" && o.Predicted == 0 {
				byNote[n] = g
			}
		}
		g.modes = append(g.modes, o.Mode)
		g.lo, g.hi = min(g.lo, o.Throughput), max(g.hi, o.Throughput)
	}
	var parts []string
	for i, g := range groups {
		p := format.JoinAnd(g.modes) + " "
		if i == 0 {
			if len(g.modes) == 1 {
				p += "makes "
			} else {
				p += "make "
			}
		}
		p += format.Range(format.Whole(g.lo), format.Whole(g.hi))
		if g.note != "" {
			p += " (" + g.note + ")"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ", ")
}

// races reports whether mode is one of the coffee shop's designs with a
// data race (ideal), whose lesson the race is.
func races(mode string) bool {
	m, err := coffee.ParseMode(mode)
	return err == nil && m.Races()
}
