package text

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// WriteVerdict writes the verdict for a terminal: a headline for each
// count of interest, then each study's sentences, then the Go benchmarks'.
func WriteVerdict(w io.Writer, v analysis.Verdict) error {
	width := format.Width(w)
	if err := writeWrapped(w, collect.Mapped(v.Counts, func(c analysis.Count) string { return CountHeadline(c, width) })); err != nil {
		return err
	}
	for i, d := range v.Studies {
		if i > 0 || len(v.Counts) > 0 {
			fmt.Fprintln(w)
		}
		as := "as measured"
		if d.Prediction != nil {
			as += " and as a model made of its measured locks predicts"
		}
		fmt.Fprintln(w, format.Wrap(fmt.Sprintf("Study %s, %s (%s):", d.Study, as, NoLimit), width, ""))
		if err := writeWrapped(w, StudySentences(d)); err != nil {
			return err
		}
	}
	if len(v.Benches) > 0 && (len(v.Counts) > 0 || len(v.Studies) > 0) {
		fmt.Fprintln(w)
	}
	return WriteBenchAnswer(w, v.Benches)
}

// writeWrapped writes each sentence wrapped to w's width.
func writeWrapped(w io.Writer, sentences []string) error {
	for _, s := range sentences {
		if _, err := fmt.Fprintln(w, format.Wrap(s, format.Width(w), "")); err != nil {
			return err
		}
	}
	return nil
}

// NoLimit says in short why a study's verdict names no limit.
const NoLimit = "brewput names a limit of this code only by experiment, which why runs"

// CountSentence says a count in words, in full: "On 2 CPUs, measured on
// vm, every mode but locking makes 488–498 lattes/s …", then the rest.
func CountSentence(c analysis.Count) string {
	s := countSentence(c)
	for _, r := range c.References {
		s += fmt.Sprintf(" For reference, %s makes %s %s: it has a data race (no synchronization at all), the limit of the CPUs, not a valid design.", r.Mode, format.Whole(r.Throughput), r.Unit)
	}
	if len(c.Apart) > 0 {
		apart := collect.Mapped(c.Apart, func(a analysis.Reference) string {
			return fmt.Sprintf("%s makes %s %s", a.Mode, format.Whole(a.Throughput), a.Unit)
		})
		s += " Apart, counting something else: " + format.JoinAnd(apart) + "."
	}
	return s
}

// CountHeadline says in a line, the longest way that fits width, what
// makes the most at a count, then the model's notes on them.
func CountHeadline(c analysis.Count, width int) string {
	wheres := []string{countSource(c), "measured"}
	switch {
	case c.Model:
		wheres = []string{"model"}
	case c.Mixed:
		wheres = []string{countSource(c), "measured and predicted"}
	}
	var s string
	if c.Inconclusive == analysis.InconclusiveDisturbed {
		for _, where := range wheres {
			s = fmt.Sprintf("On %s (%s): inconclusive, all %s measured disturbed.", cpus(c.CPUs), where, format.Count(c.All, "point"))
			if c.All == 1 {
				s = fmt.Sprintf("On %s (%s): inconclusive, its one point disturbed.", cpus(c.CPUs), where)
			}
			if utf8.RuneCountInString(s) <= width {
				break
			}
		}
		return s
	}
	notes := caveatsText(slices.DeleteFunc(slices.Clone(c.Caveats), func(m analysis.ModeCaveat) bool { return !slices.Contains(c.Best, m.Mode) }))
	for _, who := range headlineWho(c) {
		for _, where := range wheres {
			s = fmt.Sprintf("On %s (%s): %s %s %s.", cpus(c.CPUs), where, who, rateRange(c.Lo, c.Hi), c.Unit)
			if utf8.RuneCountInString(s) <= width {
				return s + notes
			}
		}
	}
	return s + notes
}

// headlineWho are the ways to say which modes make the most at c, the
// longest first: "a and b make the most,", "every mode but c makes".
func headlineWho(c analysis.Count) []string {
	n := len(c.Best)
	most := plural(n, "makes the most,", "make the most,")
	if len(c.Rest) == 0 {
		most = plural(n, "makes", "make")
	}
	out := []string{format.JoinAnd(collect.Mapped(c.Leaders, leaderName)) + " " + most}
	switch {
	case len(c.Rest) == 0 && c.Every && n != 1:
		out = append(out, "every mode makes")
	case c.Every && len(c.Rest) > 0 && len(c.Rest) <= 3 && len(c.Best) > len(c.Rest):
		out = append(out, "every mode but "+format.JoinAnd(collect.Mapped(c.Rest, func(o analysis.Below) string { return o.Mode }))+" makes")
	}
	return append(out, format.Count(len(c.Best), "mode")+" "+most)
}

// countSentence is CountSentence before the designs said apart.
func countSentence(c analysis.Count) string {
	if c.Inconclusive == analysis.InconclusiveDisturbed {
		return inconclusiveSentence(c)
	}
	var s strings.Builder
	source := countSource(c)
	if c.Calibration != nil { // the answer names the costs it rests on, and their quality
		source += ", " + CalibrationFor(*c.Calibration)
	}
	who := headlineWho(c)
	if len(who) == 3 { // "every mode" says it best where it can
		who[0] = who[1]
	}
	fmt.Fprintf(&s, "On %s, %s: %s %s %s%s at a median %s", cpus(c.CPUs), source, who[0], rateRange(c.Lo, c.Hi), c.Unit, BandWords(c.Band, c.Lo, c.Hi), format.MsRange(c.P50Lo, c.P50Hi))
	if len(c.Rest) > 0 {
		s.WriteString("; " + restText(c.Rest))
	}
	s.WriteString("." + caveatsText(c.Caveats))
	if c.Disturbed > 0 {
		fmt.Fprintf(&s, " %d of the %d points measured here were disturbed: other processes took CPU while they ran.", c.Disturbed, c.All)
	}
	if len(c.Unranked) > 0 {
		fmt.Fprintf(&s, " Not ranked, being disturbed: %s.", unrankedText(c))
	}
	return s.String()
}

// Hedge says, after a causal profile's gain, how far the model trusts the
// figure the gain was measured from: "" where it made no note on it.
func Hedge(cs []results.Caveat) string {
	switch {
	case slices.ContainsFunc(cs, results.Caveat.Untrusted):
		return " (from a figure not to trust)"
	case len(cs) > 0:
		return " (from a rough figure)"
	}
	return ""
}

// caveatsText says the model's notes on the figures briefly, alike ones together.
func caveatsText(cs []analysis.ModeCaveat) string {
	var notes []results.Caveat
	modes := map[string][]string{}
	for _, c := range cs {
		b := CaveatBrief(c.Caveat)
		if _, ok := modes[b]; !ok {
			notes = append(notes, c.Caveat)
		}
		modes[b] = collect.AppendNew(modes[b], c.Mode)
	}
	var s strings.Builder
	for _, c := range notes {
		ms := modes[CaveatBrief(c)]
		figures := "its " + format.Plural(len(ms), "figure") + " for " + format.JoinAnd(ms)
		if c.Untrusted() {
			fmt.Fprintf(&s, " The model says not to trust %s: %s.", figures, CaveatBrief(c))
		} else {
			fmt.Fprintf(&s, " The model takes %s as rough: %s.", figures, CaveatBrief(c))
		}
	}
	return s.String()
}

// inconclusiveSentence says a count whose every measured point was disturbed.
func inconclusiveSentence(c analysis.Count) string {
	all := fmt.Sprintf("all %d points measured here were disturbed", c.All)
	if c.All == 1 {
		all = "the one point measured here was disturbed"
	}
	return fmt.Sprintf("On %s, %s: inconclusive. %s: other processes took CPU while they ran, so their numbers say "+
		"more about the machine than about the designs and no mode is ranked. They made: %s. Measure again while "+
		"nothing else runs; by default brewput measures a disturbed point again, up to 3 times.",
		cpus(c.CPUs), countSource(c), format.Capital(all), unrankedText(c))
}

// unrankedText says what the disturbed modes made: "linearpipe-0 459
// lattes/s (the model predicts 998), finelocking 440".
func unrankedText(c analysis.Count) string {
	parts := make([]string, len(c.Unranked))
	for i, o := range c.Unranked {
		parts[i] = o.Mode + " " + format.Whole(o.Throughput)
		if i == 0 {
			parts[i] += " " + c.Unit
		}
		if o.Predicted > 0 {
			parts[i] += " (the model predicts " + format.Whole(o.Predicted) + ")"
		}
	}
	return strings.Join(parts, ", ")
}

// restText says what the modes that make less make, alike ones together:
// "finelocking makes 928 (the grinder), linearpipe-0 and parsteam 993–998".
func restText(rest []analysis.Below) string {
	note := func(o analysis.Below) string {
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
			notes = append(notes, LimitName(o.Limit.Of))
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
		if ok && o.Throughput < (1-analysis.Near)*g.hi {
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
			p += plural(len(g.modes), "makes ", "make ")
		}
		p += rateRange(g.lo, g.hi)
		if g.note != "" {
			p += " (" + g.note + ")"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ", ")
}

// versusText writes a ratio with its interval, if any: "×0.55 [0.52, 0.58]".
func versusText(v analysis.Versus) string {
	if math.IsNaN(v.Ratio) {
		return "×?"
	}
	s := "×" + format.Digits(v.Ratio, 3)
	if v.Known() {
		s += " [" + format.Digits(v.Lo, 3) + ", " + format.Digits(v.Hi, 3) + "]"
	}
	return s
}

// runsText says how many runs top and vs are of: "1 run each", "runs: a 1, b 3".
func runsText(top string, vs []analysis.Versus) string {
	if !slices.ContainsFunc(vs, func(v analysis.Versus) bool { return v.Runs[0] != vs[0].Runs[1] || v.Runs[1] != vs[0].Runs[1] }) {
		return format.Count(vs[0].Runs[1], "run") + " each"
	}
	parts := collect.Mapped(vs, func(v analysis.Versus) string { return fmt.Sprintf("%s %d", v.Variant, v.Runs[0]) })
	return fmt.Sprintf("runs: %s %d, %s", top, vs[0].Runs[1], strings.Join(parts, ", "))
}

// runsWords names a variant's disturbed runs: "mutex" (its one run),
// "mutex (all 6 runs)", "mutex runs 2, 5".
func runsWords(r analysis.Runs) string {
	reps := format.Ints(r.Reps, ", ")
	switch {
	case r.Of == 1:
		return r.Variant
	case len(r.Reps) == r.Of:
		return fmt.Sprintf("%s (all %d runs)", r.Variant, r.Of)
	case len(r.Reps) == 1:
		return r.Variant + " run " + reps
	}
	return r.Variant + " runs " + reps
}

// StandingSentence says a standing in words: "On 2 CPUs, measured on vm:
// sharded-write makes the most, 10.7 Mops/s …; the others less: …."
func StandingSentence(s analysis.Standing) string {
	var b strings.Builder
	fmt.Fprintf(&b, "On %s", cpus(s.CPUs))
	if s.Host != "" {
		b.WriteString(", " + MeasuredOn(s.Host))
	}
	b.WriteString(": ")
	figure := format.Rate(s.TopThroughput, s.Unit)
	if s.TopP50 > 0 {
		figure += " at a median " + format.Wait(s.TopP50)
	}
	list := func(vs []analysis.Versus) string {
		return strings.Join(collect.Mapped(vs, func(v analysis.Versus) string { return v.Variant + " " + versusText(v) }), ", ")
	}
	switch {
	case s.Inconclusive == analysis.InconclusiveDisturbed:
		fmt.Fprintf(&b, "inconclusive, every variant had disturbed runs, so none is ranked: %s made %s", s.Top, figure)
		if len(s.Untold) > 0 {
			fmt.Fprintf(&b, "; %s", list(s.Untold))
		}
	case len(s.Less)+len(s.Same)+len(s.Unknown) == 0 && len(s.Untold) == 0:
		fmt.Fprintf(&b, "%s makes %s", s.Top, figure)
	case len(s.Less)+len(s.Same)+len(s.Unknown) == 0:
		fmt.Fprintf(&b, "%s makes %s, the most of the runs not disturbed", s.Top, figure)
	case len(s.Same) == 0 && len(s.Unknown) == 0 && len(s.Untold) == 0:
		fmt.Fprintf(&b, "%s makes the most, %s; the others less: %s", s.Top, figure, list(s.Less))
	case len(s.Same) == 0 && len(s.Unknown) == 0:
		fmt.Fprintf(&b, "%s makes the most, %s; less: %s", s.Top, figure, list(s.Less))
	case len(s.Same) > 0:
		names := collect.Mapped(s.Same, func(v analysis.Versus) string { return v.Variant })
		fmt.Fprintf(&b, "%s and %s make the most (no significant difference: %s of %s's %s)", s.Top, format.JoinAnd(names), list(s.Same), s.Top, figure)
	default:
		fmt.Fprintf(&b, "%s made the most, %s", s.Top, figure)
	}
	if s.Inconclusive != analysis.InconclusiveDisturbed && len(s.Same)+len(s.Unknown) > 0 && len(s.Less) > 0 {
		fmt.Fprintf(&b, "; less: %s", list(s.Less))
	}
	if len(s.Unknown) > 0 {
		fmt.Fprintf(&b, "; too few runs to tell whether it makes more than %s (%s; %s %d or more give intervals)", list(s.Unknown),
			runsText(s.Top, s.Unknown), s.CountFlag, s.RunsForInterval)
	}
	if len(s.Untold) > 0 && s.Inconclusive == "" {
		fmt.Fprintf(&b, "; disturbed runs, not compared: %s", list(s.Untold))
	}
	b.WriteString(".")
	switch {
	case s.Every:
		b.WriteString(" " + format.Capital(EveryRunDisturbed) + ".")
	case len(s.Disturbed) > 0:
		fmt.Fprintf(&b, " Disturbed (other processes took CPU while they ran): %s.", strings.Join(collect.Mapped(s.Disturbed, runsWords), ", "))
	}
	return b.String()
}

// EveryRunDisturbed is what bench's verdict and predict say of runs
// every one of which others disturbed.
const EveryRunDisturbed = "every run was disturbed: other processes took CPU while they ran"

// TooDisturbed says why runs, disturbed of them, are too disturbed to
// stand on (results.TooDisturbed).
func TooDisturbed(disturbed, runs int) string {
	if disturbed == runs {
		return EveryRunDisturbed
	}
	return fmt.Sprintf("%d of its %d runs were disturbed (other processes took CPU while they ran): too few left for a median with a spread", disturbed, runs)
}

// NotPredictedReason says why a prediction left a variant out, from its
// typed reason: "on 1 CPU, every run was disturbed: …".
func NotPredictedReason(np results.NotPredicted) string {
	switch np.Why {
	case results.DeclinedDisturbed:
		return fmt.Sprintf("on %s, %s (--noisy ok predicts from them)", format.Count(np.CPUs, "CPU"), TooDisturbed(np.Disturbed, np.Runs))
	case results.DeclinedNoOneCPU:
		return "measured on no single CPU, which its speed-ups stand on; measure 1 CPU as well (--measure 1,2)"
	case results.DeclinedOneCPUOnly:
		return "measured on 1 CPU only, which does not tell whether its CPUs would share its locks; measure 2 as well (--measure 1,2)"
	case results.DeclinedUnexplained:
		return fmt.Sprintf("no lock or allocation seen explains why %s made ×%s of one's work, not ×%s: one word all CPUs write, which more CPUs do not speed up, or sharing spread thin, which they do; %s do not tell which",
			format.Count(np.CPUs, "CPU"), format.Sig(np.Made, 2), format.Sig(np.Alone, 2), format.Count(np.CPUs, "CPU"))
	case results.DeclinedPastCurves:
		return fmt.Sprintf("on %s and more: the target's curves, measured on up to %s, carry only to %d; brewput calibrate on a machine of %d CPUs or more, given as --calibration, answers it",
			format.Count(np.CPUs, "CPU"), format.Count(np.Measured, "CPU"), np.Reach, np.CPUs)
	}
	return np.Reason
}

// UndecidedKind names a kind read at a benchmark's runs' median where they
// read as others too: "nothing shared or partly shared, undecided".
func UndecidedKind(kind string, others []string) string {
	return strings.Join(append([]string{kind}, others...), " or ") + ", undecided"
}

// MeasuringAgain says that predict measures a benchmark again, its runs on
// n CPUs reading as kinds (the one at their median first).
func MeasuringAgain(variant string, n int, kinds []string) string {
	return fmt.Sprintf("%s: its runs on %s read as %s; measuring it again on 1 and %s, to decide.",
		variant, format.Count(n, "CPU"), strings.Join(kinds, " and as "), format.Count(n, "CPU"))
}

// NotPredictedLines says why each of nps is not predicted, a line for
// those of one reason: "Not predicted: A and B: on 64 CPUs and more: …".
func NotPredictedLines(nps []results.NotPredicted) []string {
	var reasons []string
	names := map[string][]string{}
	for _, np := range nps {
		if names[np.Reason] == nil {
			reasons = append(reasons, np.Reason)
		}
		names[np.Reason] = append(names[np.Reason], np.Mode)
	}
	return collect.Mapped(reasons, func(r string) string { return fmt.Sprintf("Not predicted: %s: %s.", format.JoinAnd(names[r]), r) })
}

// ScalingSentence says how each variant's median throughput changed from
// one CPU count to another: "From 1 to 2 CPUs, throughput: more: …".
func ScalingSentence(s analysis.Scaling) string {
	var more, less, same, unknown, disturbed []string
	for _, v := range s.Changes {
		t := v.Variant + " " + versusText(v)
		switch {
		case v.Disturbed:
			disturbed = append(disturbed, t)
		case !v.Known():
			unknown = append(unknown, t)
		case v.Lo > 1:
			more = append(more, t)
		case v.Hi < 1:
			less = append(less, t)
		default:
			same = append(same, t)
		}
	}
	var parts []string
	for _, g := range []struct {
		name  string
		items []string
	}{{"more", more}, {"less", less}, {"no significant change", same},
		{"disturbed runs, no verdict", disturbed}} {
		if len(g.items) > 0 {
			parts = append(parts, g.name+": "+strings.Join(g.items, ", "))
		}
	}
	if len(unknown) > 0 {
		parts = append(parts, fmt.Sprintf("%s (too few runs for intervals; %s %d or more give them)", strings.Join(unknown, ", "), s.CountFlag, s.RunsForInterval))
	}
	return fmt.Sprintf("From %d to %s, throughput: %s.", s.From, cpus(s.To), strings.Join(parts, "; "))
}

// answerSentences say each count of interest, then the scaling.
func answerSentences(counts []analysis.Standing, s *analysis.Scaling) []string {
	out := collect.Mapped(counts, StandingSentence)
	if s != nil {
		out = append(out, ScalingSentence(*s))
	}
	return out
}

// StudySentences are what a study's description says, its prediction's last.
func StudySentences(d analysis.Described) []string {
	out := answerSentences(d.Counts, d.Scaling)
	if d.Prediction != nil {
		out = append(out, PredictionSentences(*d.Prediction)...)
	}
	return out
}

// BenchSentences are what a benchmark family's answer says.
func BenchSentences(f analysis.BenchFamily) []string { return answerSentences(f.Counts, f.Scaling) }

// WriteBenchAnswer writes each family's name, then its sentences indented.
func WriteBenchAnswer(w io.Writer, families []analysis.BenchFamily) error {
	for _, f := range families {
		ss := BenchSentences(f)
		if len(ss) == 0 {
			continue
		}
		if _, err := fmt.Fprintf(w, "%s, measured on %s:\n", f.Name, f.Origin); err != nil {
			return err
		}
		for _, s := range ss {
			if _, err := fmt.Fprintln(w, "  "+format.Wrap(s, format.Width(w)-2, "  ")); err != nil {
				return err
			}
		}
	}
	return nil
}

// BandWords says a prediction's band beside its figures lo to hi, " (1750–1850
// with the costs' uncertainty)"; "" where none, or where it reads as they do.
func BandWords(band *[2]float64, lo, hi float64) string {
	if band == nil || rateRange(band[0], band[1]) == rateRange(lo, hi) {
		return ""
	}
	return fmt.Sprintf(" (%s with the costs' uncertainty)", rateRange(band[0], band[1]))
}
