package why

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/brewput/brewput/explain/compare"
	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/measure/meter"
	"github.com/brewput/brewput/results"
)

// Stretches is the causal profile of a user's own code on real CPUs, as
// Coz (SOSP 2015) measures one: each group of metered locks and channels,
// and the work outside every meter, is made slower in its turn
// (meter.Stretch), and what that costs the throughput against the variant
// as it is says what the program waits on. A part limits it where
// stretching it costs more than the same extra work would done in
// parallel: its share of the workers' time times the stretch.
type Stretches struct {
	Study   string `json:"study"`
	Variant string `json:"variant"`
	CPUs    int    `json:"cpus"`
	// Frac is the stretch: 0.1 is every part 10 % longer in its turn.
	Frac float64 `json:"frac"`
	Unit string  `json:"unit"`
	// Base are the variant's runs as it is, one a round.
	Base []results.Point `json:"-"`
	// Experiments are the meters' groups in the variant's order, then the
	// work outside them.
	Experiments []Stretched `json:"experiments"`
}

// Stretched is one experiment: one part made Frac longer.
type Stretched struct {
	// Name says what was stretched: "the shard mutexes (16)".
	Name string `json:"name"`
	// Group is the meters' group (meter.Group) and Kind their kind
	// ("mutex", "rwmutex", "chan"); both "" for the work outside.
	Group   string `json:"group,omitempty"`
	Kind    string `json:"kind,omitempty"`
	Members int    `json:"members,omitempty"`
	// Extra is what each use of a lock, or each operation outside, was
	// stretched by; a channel's handoff is stretched by Frac of itself.
	Extra time.Duration `json:"extra_ns"`
	// Per says what Extra was added to where not "a use" of a lock or
	// "an op" outside: "a lock taken" where the work outside was added
	// before every lock (a watched benchmark's).
	Per string `json:"per,omitempty"`
	// Share is its part of the workers' time in the first run as it is;
	// Parallel, Frac × Share, what the stretch would cost done in parallel.
	Share    float64 `json:"share"`
	Parallel float64 `json:"parallel"`
	// Points are its runs, one a round.
	Points []results.Point `json:"-"`
	// Cost is the median over the rounds of the throughput lost against
	// the round's run as it is; Lo and Hi its 95 % interval, infinite
	// with too few rounds (Interval false; 0 in JSON).
	Cost     float64 `json:"cost"`
	Lo       float64 `json:"cost_lo"`
	Hi       float64 `json:"cost_hi"`
	Interval bool    `json:"interval"`
	// Decided says the interval lies wholly on one side of Parallel;
	// Limits that it lies above it, and above 0.
	Decided bool `json:"decided"`
	Limits  bool `json:"limits"`
}

// PlanStretches lays out the experiments on a variant from its first run
// as it is, base (meters armed, meter.NewStretch): one per group of
// meters, each use Frac of the group's mean hold longer, and one for the
// work outside every meter, each operation Frac of its mean longer.
func PlanStretches(study string, frac float64, base results.Point) *Stretches {
	s := &Stretches{Study: study, Variant: base.Mode, CPUs: base.CPUs, Frac: frac, Unit: base.Unit}
	par := float64(max(base.Par, 1))
	worker := par * base.Dur.Seconds() // the workers' time in the window, in seconds
	inMeters := 0.0                    // of it, the time held or waited for in any meter
	type group struct {
		kind       string
		members    int
		held, uses float64
	}
	var order []string
	groups := map[string]*group{}
	for _, m := range base.Machines() {
		held := m.BusyFrac * base.Dur.Seconds()
		inMeters += held + m.MeanWaitMs/1e3*float64(m.Uses)
		if m.Kind == meter.KindReceive {
			continue // a channel is stretched, and counted, by its sends
		}
		name := meter.Group(m.Name)
		g := groups[name]
		if g == nil {
			kind := m.Kind
			if kind == meter.KindSend {
				kind = "chan"
			}
			g = &group{kind: kind}
			groups[name] = g
			order = append(order, name)
		}
		g.members++
		g.held += held
		g.uses += float64(m.Uses)
	}
	for _, name := range order {
		g := groups[name]
		if g.uses == 0 {
			continue // never used in the window: nothing to stretch
		}
		e := Stretched{Name: partName(name, g.kind, g.members), Group: name, Kind: g.kind, Members: g.members,
			Share: g.held / worker, Parallel: frac * (g.held / worker)}
		if g.kind != "chan" {
			e.Extra = time.Duration(frac * g.held / g.uses * 1e9)
		}
		s.Experiments = append(s.Experiments, e)
	}
	outside := max(0, worker-inMeters)
	out := Stretched{Name: "the work outside every meter", Share: outside / worker, Parallel: frac * (outside / worker)}
	if base.Ops > 0 {
		out.Extra = time.Duration(frac * outside / float64(base.Ops) * 1e9)
	}
	s.Experiments = append(s.Experiments, out)
	return s
}

// partName names a group of meters for people.
func partName(group, kind string, members int) string {
	switch {
	case kind == "chan":
		return "the " + group + " channel's handoff"
	case members > 1:
		return fmt.Sprintf("the %s %ses (%d)", group, kind, members)
	}
	return "the " + group + " " + kind
}

// Judge computes each experiment's cost from the runs so far, paired by
// round, and whether it limits the variant.
func (s *Stretches) Judge() {
	for i := range s.Experiments {
		e := &s.Experiments[i]
		var costs []float64
		for r := range min(len(e.Points), len(s.Base)) {
			if b := s.Base[r].Throughput; b > 0 {
				costs = append(costs, 1-e.Points[r].Throughput/b)
			}
		}
		e.Cost, e.Lo, e.Hi, e.Interval, e.Decided, e.Limits = math.NaN(), math.Inf(-1), math.Inf(1), false, false, false
		if len(costs) == 0 {
			continue
		}
		sum := compare.SummarizeValues(costs)
		e.Cost, e.Lo, e.Hi = sum.Median, sum.Lo, sum.Hi
		known := !math.IsInf(e.Lo, 0) && !math.IsInf(e.Hi, 0)
		e.Interval = known
		e.Decided = known && (e.Lo > e.Parallel || e.Hi < e.Parallel)
		e.Limits = known && e.Lo > e.Parallel && e.Lo > 0
	}
}

// Decided reports whether every experiment is decided.
func (s *Stretches) Decided() bool {
	return !slices.ContainsFunc(s.Experiments, func(e Stretched) bool { return !e.Decided })
}

// Limit is the costliest experiment that limits the variant, nil if none.
func (s *Stretches) Limit() *Stretched {
	var best *Stretched
	for i := range s.Experiments {
		e := &s.Experiments[i]
		if e.Limits && (best == nil || e.Cost > best.Cost) {
			best = e
		}
	}
	return best
}

// costText writes a cost with its interval: "9.1 % [8.2, 9.9]", or "9.1 %
// (too few rounds for an interval)".
func (e Stretched) costText() string {
	if math.IsInf(e.Lo, 0) || math.IsInf(e.Hi, 0) {
		return format.Percent(e.Cost, 1) + " (too few rounds for an interval)"
	}
	return fmt.Sprintf("%s [%.1f, %.1f]", format.Percent(e.Cost, 1), 100*e.Lo, 100*e.Hi)
}

// stretchedWhat says what an experiment did: "holding it 10 % longer".
func (e Stretched) stretchedWhat(frac float64) string {
	switch {
	case e.Group == "":
		return fmt.Sprintf("%s longer", format.Percent(frac, 1))
	case e.Kind == "chan":
		return fmt.Sprintf("handing over %s slower", format.Percent(frac, 1))
	}
	return fmt.Sprintf("holding it %s longer", format.Percent(frac, 1))
}

// Answer says in a sentence or two what limits the variant: "The cache
// mutex limits this: holding it 10 % longer cost 9.1 % [8.2, 9.9] …", or
// "No single lock limits this: …".
func (s *Stretches) Answer() string {
	var b strings.Builder
	others := s.Experiments
	if l := s.Limit(); l != nil {
		what := l.Name
		if l.Group != "" && l.Members > 1 {
			what += " together"
		}
		fmt.Fprintf(&b, "%s limits this: %s cost %s of the throughput, more than the %s as much more work would cost done in parallel",
			format.Capital(what), l.stretchedWhat(s.Frac), l.costText(), format.Percent(l.Parallel, 1))
		others = slices.DeleteFunc(slices.Clone(others), func(e Stretched) bool { return e.Name == l.Name })
	} else {
		b.WriteString("No single lock limits this: no part, stretched, cost more than as much more work would cost done in parallel")
	}
	var parts []string
	for _, e := range others {
		parts = append(parts, fmt.Sprintf("%s, %s: %s (in parallel: %s)", e.Name, strings.TrimPrefix(e.stretchedWhat(s.Frac), "holding it "), e.costText(), format.Percent(e.Parallel, 1)))
	}
	if len(parts) > 0 {
		b.WriteString("; " + strings.Join(parts, "; "))
	}
	b.WriteString(".")
	if !s.Decided() {
		fmt.Fprintf(&b, " After %s, not every interval lies on one side of its cost in parallel: where one holds it, that part is not named.", format.Count(len(s.Base), "round"))
	}
	if d := disturbed(s.Base); d > 0 {
		fmt.Fprintf(&b, " %d of the %d runs as it is were disturbed: other processes took CPU while they ran.", d, len(s.Base))
	}
	return b.String()
}

// longPartName is the longest name of a part the table's first column
// holds.
const longPartName = 24

// WriteTable writes the experiments for a terminal, then the answer.
func (s *Stretches) WriteTable(w io.Writer) error {
	head := fmt.Sprintf("%s %s on %s, each part stretched %s in its turn, %s of each (as it is and stretched, in rounds)",
		s.Study, s.Variant, format.Count(s.CPUs, "CPU"), format.Percent(s.Frac, 1), format.Count(len(s.Base), "run"))
	fmt.Fprintf(w, "%s\n\n", format.Wrap(head, format.Width(w), ""))
	// A long part's name ("the (*Locked).Place at book.go:121 mutex") has a
	// line of its own above its figures, and the verdict wraps, lest the
	// table pass format.Width(w).
	t := format.Table{Ragged: true}
	t.Row("stretched", "by", "throughput", "cost", "95 % interval", "in parallel", "verdict")
	rate := func(ps []results.Point) string {
		tp := make([]float64, len(ps))
		for i, p := range ps {
			tp[i] = p.Throughput
		}
		return format.Rate(results.Median(tp), s.Unit)
	}
	t.Row("(as it is)", "", rate(s.Base), "", "", "", "")
	for _, e := range s.Experiments {
		by := fmt.Sprintf("%v a use", e.Extra)
		switch {
		case e.Per != "":
			by = fmt.Sprintf("%v %s", e.Extra, e.Per)
		case e.Group == "":
			by = fmt.Sprintf("%v an op", e.Extra)
		case e.Kind == "chan":
			by = format.Percent(s.Frac, 1) + " of each handoff"
		}
		interval := "-"
		if !math.IsInf(e.Lo, 0) && !math.IsInf(e.Hi, 0) {
			interval = fmt.Sprintf("[%.1f, %.1f] %%", 100*e.Lo, 100*e.Hi)
		}
		verdict := "not named"
		switch {
		case e.Limits:
			verdict = "costs more than in parallel"
		case e.Decided:
			verdict = "no more than in parallel"
		case !math.IsInf(e.Lo, 0):
			verdict = "undecided"
		}
		name := e.Name
		if utf8.RuneCountInString(name) > longPartName {
			t.Line(name)
			name = ""
		}
		t.Row(name, by, rate(e.Points), format.Percent(e.Cost, 1), interval, format.Percent(e.Parallel, 1), verdict)
	}
	if err := t.Write(w); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\n%s\n", format.Wrap(s.Answer(), format.Width(w), ""))
	return err
}

// WriteJSON writes the experiments and the answer as one JSON object.
func (s *Stretches) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	type out struct {
		*Stretches
		Rounds int    `json:"rounds"`
		Limit  string `json:"limit"`
		Answer string `json:"answer"`
	}
	o := out{Stretches: s, Rounds: len(s.Base), Answer: s.Answer()}
	if l := s.Limit(); l != nil {
		o.Limit = l.Name
	}
	return enc.Encode(o)
}

// MarshalJSON writes what JSON cannot hold, an interval too wide to give
// (Interval false), as 0.
func (e Stretched) MarshalJSON() ([]byte, error) {
	type plain Stretched // without this method
	p := plain(e)
	for _, f := range []*float64{&p.Cost, &p.Lo, &p.Hi} {
		if math.IsInf(*f, 0) || math.IsNaN(*f) {
			*f = 0
		}
	}
	return json.Marshal(p)
}
