package text

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/causal"
)

// pct writes a share in percent with one decimal, "-" where unknown.
func pct(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "-"
	}
	return format.Percent(x, 1)
}

// beyondText writes an experiment's cost beyond its control: "+31.2 % [28.0, 35.1]".
func beyondText(e causal.Stretched) string {
	if !e.Interval {
		return pct(e.Beyond) + " (too few rounds for an interval)"
	}
	return fmt.Sprintf("%s [%.1f, %.1f]", pct(e.Beyond), 100*e.Lo, 100*e.Hi)
}

// stretchedWhat says what an experiment added: "31ns to each hold".
func stretchedWhat(e causal.Stretched) string {
	if e.Kind == "chan" {
		return fmt.Sprintf("%v before each send", e.Extra)
	}
	return fmt.Sprintf("%v to each hold", e.Extra)
}

// StretchAnswer says what limits the variant: "The cache mutex limits
// this: …", "Undecided after 6 rounds: …", "No single lock limits this: …".
func StretchAnswer(s *causal.Stretches) string {
	if s.Stop != nil && len(s.Control.Points) == 0 {
		return beforeRounds(s)
	}
	added := fmt.Sprintf("%v per operation (%s of one)", s.Extra, format.Percent(s.Frac, 0))
	control := "the same time outside every lock"
	if !math.IsNaN(s.Control.Cost) {
		control += ", which cost " + pct(s.Control.Cost)
	}
	p := sortParts(s)
	var answer string
	switch l := s.Limit(); {
	case l != nil:
		answer = limitAnswer(s, l, p, added, control)
	case len(p.undecided) > 0:
		answer = undecidedAnswer(s, p, added, control)
	default:
		answer = noneLimits(s, added, control, p)
	}
	if d := collect.Count(s.Base, results.Point.IsDisturbed); d > 0 {
		answer += fmt.Sprintf(" %d of the %d runs as it is were disturbed: other processes took CPU while they ran.", d, len(s.Base))
	}
	return answer
}

// limitAnswer is the answer where part l limits: how, by what the watcher
// saw or by the stretch against the control, then the other parts.
func limitAnswer(s *causal.Stretches, l *causal.Stretched, p parts, added, control string) string {
	var b strings.Builder
	what := l.Name
	if l.Members > 1 {
		what += " together"
	}
	switch {
	case l.Captured:
		// Named by what the watcher saw: where the workers run one at a
		// time, the control may cost about what the stretch does.
		than := "more than " + control
		if !l.Interval || l.Lo <= 0 {
			than = "not clearly more than " + control + ", as time added anywhere costs where the workers run one at a time"
		}
		fmt.Fprintf(&b, "%s limits this, by what the watcher saw as it is: the workers waited for it %s of their time, and it passed from one to another in %s of its holds, under a tenth of what they would pass it taking it side by side: one took it back to back while the others waited, so they ran one at a time at it; adding %s to it (%s) cost %s of the throughput, %s: %s beyond it",
			format.Capital(what), pct(l.Waited), pct(l.Handoffs), added, stretchedWhat(*l), pct(l.Cost), than, beyondText(*l))
	case l.Queued:
		how := fmt.Sprintf("nearer what time added where every operation waits its turn costs (%s) than where nothing queues (%s)", pct(s.Bottleneck), pct(s.Frac/(1+s.Frac)))
		turns := "under half"
		if !s.SerialControl() {
			how = fmt.Sprintf("more than where nothing queues (%s)", pct(s.Frac/(1+s.Frac)))
			turns = "under a tenth"
		}
		seen := fmt.Sprintf("it passed from one to another in %s of its holds, %s of what they would pass it taking it side by side", pct(l.Handoffs), turns)
		if !l.TurnsMost {
			seen = fmt.Sprintf("without their waits its holds would need %s of the time", pct(l.Demand))
		}
		fmt.Fprintf(&b, "%s limits this, by what the watcher and the control saw as it is: the workers waited for it %s of their time, for no other lock as long, and %s, while the same time outside every lock cost %s, %s: they ran one at a time, taking turns at this lock; adding %s to it (%s) cost %s, %s beyond the control, which decides nothing where the workers queue at a lock, as time before it and time inside it each change how it passes between the CPUs",
			format.Capital(what), pct(l.Waited), seen, pct(s.Control.Cost), how, added, stretchedWhat(*l), pct(l.Cost), beyondText(*l))
	default:
		than := control
		if l.ControlScale > 0 {
			than += fmt.Sprintf(" (%s at the %v its holds measured)", pct(l.ControlCost), l.Injected)
		}
		fmt.Fprintf(&b, "%s limits this: adding %s to it (%s) cost %s of the throughput, more than %s: %s beyond it",
			format.Capital(what), added, stretchedWhat(*l), pct(l.Cost), than, beyondText(*l))
		if l.Kind != "chan" {
			fmt.Fprintf(&b, "; the workers waited for it %s of their time as it is", pct(l.Waited))
		}
	}
	writeParts(&b, "also more than the control", slices.DeleteFunc(p.limits, func(x string) bool { return strings.HasPrefix(x, l.Name+",") }))
	writeParts(&b, "undecided", p.undecided)
	writeParts(&b, "no more than the control", p.not)
	writeParts(&b, rarelyWords, p.rarely)
	b.WriteString(".")
	if l.Captured || l.Queued {
		b.WriteString(" This rests on what was seen, not on a relief: the stretch shows what longer holds cost; whether splitting the lock would help, where its data moves between the CPUs with it or without it, only a relief measured shows.")
	}
	return b.String()
}

// undecidedAnswer is the answer where no part limits and some are
// undecided: why, and what would decide them.
func undecidedAnswer(s *causal.Stretches, p parts, added, control string) string {
	var b strings.Builder
	n := len(p.undecided)
	these := plural(n, "this lock", "these locks")
	fmt.Fprintf(&b, "Undecided after %s: adding %s ", format.Count(len(s.Control.Points), "round"), added)
	switch {
	case p.idle == n:
		fmt.Fprintf(&b, "to %s cost more than %s, but as it is the workers waited for %s less than %s of their time",
			these, control, plural(n, "it", "each"), pct(s.Margin))
	case p.unmatched == n:
		fmt.Fprintf(&b, "to %s cost less than %s", these, control)
	case p.over == n:
		fmt.Fprintf(&b, "to %s cost more than %s, and more than the time added can cost", these, control)
	case p.serial == n:
		fmt.Fprintf(&b, "outside every lock (the control) cost %s, nearer what it costs where every operation waits its turn (%s) than where nothing queues (%s): as it is the workers ran largely one at a time, held back by something every operation shares, and a stretch of one part cannot tell whether it is that part",
			pct(s.Control.Cost), pct(s.Bottleneck), pct(s.Frac/(1+s.Frac)))
	case p.idle == 0 && p.unmatched == 0 && p.serial == 0 && p.over == 0:
		fmt.Fprintf(&b, "to %s cost neither clearly more than %s, nor clearly no more (within %s)",
			plural(n, "this part", "these parts"), control, pct(s.Margin))
	default:
		fmt.Fprintf(&b, "to these parts decided none of them against %s", control)
	}
	b.WriteString(": " + strings.Join(p.undecided, "; "))
	writeParts(&b, "no more than the control", p.not)
	writeParts(&b, rarelyWords, p.rarely)
	b.WriteString(".")
	if q := s.QuietRounds(); q < len(s.Control.Points) {
		fmt.Fprintf(&b, " Only %d of the %d rounds ran undisturbed, and a part is decided on undisturbed rounds alone.", q, len(s.Control.Points))
	}
	return b.String() + " " + decideWords(s, p)
}

// decideWords say what would decide the undecided parts, by why they are.
func decideWords(s *causal.Stretches, p parts) string {
	const what = "What would decide it: "
	switch seen := p.unmatched + p.serial + p.over; {
	case s.Stop != nil:
		return stopped(*s.Stop) + " " + what + "a quieter machine, or more time (--within, --max-count)."
	case s.QuietRounds() == 0 && len(s.Control.Points) > 0:
		return what + "a quieter machine; every round was disturbed."
	case p.idle > 0 && p.idle == len(p.undecided):
		return what + "a relief measured (the code changed so that the lock is not shared), or a smaller --stretch, which makes less of a queue."
	case seen > 0 && seen == len(p.undecided):
		return what + "a relief measured (the code changed so that the lock is not shared)."
	case p.idle > 0 || seen > 0:
		return what + "more rounds (--max-count, --within), a quieter machine, a relief measured (the code changed so that a lock waited for little, or one the control is no match for, is not shared)."
	}
	return what + "more rounds (--max-count, --within), a quieter machine, or a larger --stretch."
}

// parts are an answer's lines of its parts, by verdict, and how many
// were undecided for each reason.
type parts struct {
	undecided, limits, not, rarely []string
	idle, unmatched, serial, over  int
}

// sortParts writes each part's line under its verdict.
func sortParts(s *causal.Stretches) parts {
	var p parts
	for _, e := range s.Experiments {
		beyond := beyondText(e) + " beyond the control"
		if e.ControlScale > 0 {
			beyond += fmt.Sprintf(" at the %v the holds measured, where it cost %s", e.Injected, pct(e.ControlCost))
		}
		line := fmt.Sprintf("%s, %s: %s", e.Name, stretchedWhat(e), beyond)
		switch {
		case e.MetRarely:
			p.rarely = append(p.rarely, fmt.Sprintf("%s, found held by another at %s of their uses as it is, %s stretched (%s: %s)",
				e.Name, pct(e.Meets), pct(e.MeetsStretched), stretchedWhat(e), beyond))
		case e.Limits:
			p.limits = append(p.limits, line)
		case e.OverBound:
			p.over++
			p.undecided = append(p.undecided, fmt.Sprintf("%s, yet it cost %s, more than time added where every operation waits its turn for it can cost (%s): the stretch made waste of its own, waiters parked behind the longer hold, and shows nothing of the lock as it is", line, pct(e.Cost), pct(e.Bound)))
		case e.Uncontended:
			p.idle++
			p.undecided = append(p.undecided, fmt.Sprintf("%s, yet waited for %s of the time as it is, less than %s: the stretch may have made the queue it measured", line, pct(e.Waited), pct(s.Margin)))
		case e.Unmatched:
			p.unmatched++
			p.undecided = append(p.undecided, fmt.Sprintf("%s: time before every lock cost more than the same time inside this one, so the control changed how the lock passes between the CPUs and is no match for it", line))
		case e.Serial:
			p.serial++
			if e.Kind != "chan" {
				line += fmt.Sprintf(", waited for %s of the time as it is", pct(e.Waited))
			}
			p.undecided = append(p.undecided, line)
		case e.Decided:
			p.not = append(p.not, line)
		default:
			p.undecided = append(p.undecided, line)
		}
	}
	return p
}

// stopped says why an experiment stopped before it could decide.
func stopped(st causal.Stop) string {
	limit := "its --max-count"
	if st.WithinS > 0 {
		limit = fmt.Sprintf("its limit of %v and its --max-count", time.Duration(st.WithinS*float64(time.Second)).Round(time.Second))
	}
	when, left := fmt.Sprintf("It stopped after %s, %d undisturbed", format.Count(st.Rounds, "round"), st.Quiet), fmt.Sprintf("%d more %s", st.Left, plural(st.Left, "round", "rounds"))
	if st.Rounds == 0 {
		when, left = "It did not start its rounds", format.Count(st.Left, "round")
	}
	return fmt.Sprintf("%s: at about %.0f s a round, disturbed runs measured again included, %s would end within %s, and a part is decided on %d undisturbed rounds: on this machine now it would not decide.",
		when, st.RoundS, left, limit, st.Need)
}

// beforeRounds is the answer of an experiment stopped before its rounds:
// its run as it is was disturbed, and it would not decide.
func beforeRounds(s *causal.Stretches) string {
	parts := collect.Mapped(s.Experiments, func(e causal.Stretched) string { return e.Name })
	seen := "was disturbed"
	if len(s.Base) > 0 {
		if i := Interference(s.Base[len(s.Base)-1]); i != "" {
			seen += " (" + i + ")"
		}
	}
	return fmt.Sprintf("Undecided: its run as it is %s. %s It would stretch %s. What would decide it: a quieter machine, or more time (--within, --max-count).",
		seen, stopped(*s.Stop), strings.Join(parts, "; "))
}

// noneLimits is the answer where every part was decided and none limits:
// costing no more than the control, or met too rarely to queue.
func noneLimits(s *causal.Stretches, added, control string, p parts) string {
	if len(p.not) == 0 {
		return fmt.Sprintf("No single lock limits this: the workers found each part held by another too rarely for a queue there to hold them back, whatever adding %s to it cost: %s. %s",
			added, strings.Join(p.rarely, "; "), NotWatched(s.Benchmark))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "No single lock limits this: adding %s to each part cost no more than %s (within %s): %s",
		added, control, pct(s.Margin), strings.Join(p.not, "; "))
	writeParts(&b, rarelyWords, p.rarely)
	return b.String() + ". " + NotWatched(s.Benchmark)
}

// rarelyWords head the parts the workers met too rarely at to be named.
const rarelyWords = "found held by another too rarely for a queue there to hold the workers back, whatever the stretch cost"

// writeParts writes parts after what they share: "; undecided: a; b".
func writeParts(b *strings.Builder, words string, parts []string) {
	if len(parts) > 0 {
		fmt.Fprintf(b, "; %s: %s", words, strings.Join(parts, "; "))
	}
}

// NotWatched says what a why of a benchmark watched and what it did not,
// or of a study, that only its metered parts were stretched.
func NotWatched(benchmark bool) string {
	if !benchmark {
		return "Only the study's metered locks and channels were stretched."
	}
	return "Watched: every sync.Mutex and sync.RWMutex, sync.Map's own locks and channels (no stretch lengthens a channel's lock); not watched: atomic words."
}

// plural is one where n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// longPartName is the longest part name the table's first column holds.
const longPartName = 20

// WriteStretches writes the experiments for a terminal, then the answer.
func WriteStretches(w io.Writer, s *causal.Stretches) error {
	tp := collect.Mapped(s.Base, func(p results.Point) float64 { return p.Throughput })
	head := fmt.Sprintf("%s %s on %s, %s as it is: %v added per operation (%s of one, %v) to each part in its turn, and outside every lock as the control; %s (as it is, the control and each part)",
		s.Study, s.Variant, format.Count(s.CPUs, "CPU"), format.Rate(results.Median(tp), s.Unit), s.Extra, format.Percent(s.Frac, 0), s.OpTime,
		format.Count(len(s.Control.Points), "round"))
	fmt.Fprintf(w, "%s\n\n", format.Wrap(head, format.Width(w), ""))
	// A long part's name ("the (*Locked).Place at book.go:121 mutex") has a
	// line of its own above its figures.
	t := format.Table{Ragged: true}
	t.Row("stretched", "added", "measured", "cost %", "beyond control %", "verdict")
	by := fmt.Sprintf("%v/op", s.Control.Extra)
	if s.Control.Per == "a lock taken" {
		by = fmt.Sprintf("%v/lock", s.Control.Extra)
	}
	num := func(x float64) string { return strings.TrimSuffix(pct(x), " %") }
	t.Row("(control)", by, "", num(s.Control.Cost), "", "")
	for _, e := range s.Experiments {
		by := fmt.Sprintf("%v/use", e.Extra)
		measured := "-"
		if e.Injected != 0 {
			measured = e.Injected.String()
		}
		if e.Kind == "chan" {
			by = fmt.Sprintf("%v/send", e.Extra)
		}
		beyond := "-"
		if e.Interval {
			beyond = fmt.Sprintf("%s [%.1f, %.1f]", num(e.Beyond), 100*e.Lo, 100*e.Hi)
		}
		verdict := "undecided"
		switch {
		case e.MetRarely:
			verdict = "met rarely"
		case e.Limits:
			verdict = "limits"
		case e.Uncontended:
			verdict = "few waits"
		case e.Unmatched:
			verdict = "no match"
		case e.OverBound:
			verdict = "over bound"
		case e.Serial:
			verdict = "serial"
		case e.Decided:
			verdict = "does not"
		case !e.Interval:
			verdict = "too few"
		}
		name := e.Name
		if utf8.RuneCountInString(name) > longPartName {
			t.Line(name)
			name = ""
		}
		t.Row(name, by, measured, num(e.Cost), beyond, verdict)
	}
	if err := t.Write(w); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\n%s\n", format.Wrap(StretchAnswer(s), format.Width(w), ""))
	return err
}

// WriteStretchesJSON writes the experiments and the answer as one JSON object.
func WriteStretchesJSON(w io.Writer, s *causal.Stretches) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	type out struct {
		*causal.Stretches
		Rounds int    `json:"rounds"`
		Limit  string `json:"limit"`
		Answer string `json:"answer"`
	}
	o := out{Stretches: s, Rounds: len(s.Base), Answer: StretchAnswer(s)}
	if l := s.Limit(); l != nil {
		o.Limit = l.Name
	}
	return enc.Encode(o)
}
