package why

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/measure/meter"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/causal"
	"github.com/brewput/brewput/results/stats"
)

// The stretches' data are results/causal's; why plans, runs and
// judges them.
type (
	Stretches = causal.Stretches
	Stretched = causal.Stretched
	Control   = causal.Control
	Nanos     = causal.Nanos
)

// DefaultFrac is the stretch why adds per operation, as a share of one:
// at a tenth (5 to 23 ns) go-metrics' shared histogram and a shared
// rate.Limiter cost what their controls cost, where half names both.
const DefaultFrac = 0.5

// PlanStretches lays out the experiments on a variant from its first run
// as it is, base (meters armed, meter.NewStretch): one per group of
// meters used in the window, each adding frac of an operation's time per
// operation to the group's uses, and the matched control, adding as much
// to each operation outside every lock.
func PlanStretches(study string, frac float64, base results.Point) *Stretches {
	s := &Stretches{Study: study, Variant: base.Mode, CPUs: base.CPUs, Frac: frac, Unit: base.Unit}
	par := float64(max(base.Par, 1))
	worker := par * base.Dur.Seconds() // the workers' time in the window, in seconds
	ops := float64(base.Ops)
	if ops > 0 {
		s.OpTime = Nanos(worker / ops * 1e9)
	}
	s.Extra = Nanos(frac * float64(s.OpTime))
	s.Margin = frac / (1 + frac) / 10
	s.Bottleneck = frac * par / (1 + frac*par)
	s.Control.Extra = s.Extra
	groups, machines := collect.GroupBy(base.Machines(), func(m results.Machine) (string, bool) {
		return results.MeterGroup(m.Name), m.Kind != meter.KindReceive // a channel is stretched, and counted, by its sends
	})
	for _, name := range groups {
		kind, held, waited, uses := "", 0.0, 0.0, 0.0
		for _, m := range machines[name] {
			k := m.Kind
			switch {
			case k == meter.KindSend:
				k = "chan"
			case exclusive(m):
				k = meter.KindMutex
			}
			if kind == "" || kind == meter.KindMutex {
				kind = k // one of its locks had readers: an RWMutex shared
			}
			held += m.BusyFrac * base.Dur.Seconds() // a channel's sends: its handoffs' time
			waited += m.MeanWaitMs / 1e3 * float64(m.Uses)
			uses += float64(m.Uses)
		}
		if uses == 0 || ops == 0 {
			continue // never used in the window: nothing to stretch
		}
		n := len(machines[name])
		e := Stretched{Name: partName(name, kind, n), Group: name, Kind: kind, Members: n, UsesPerOp: uses / ops, Share: (held + waited) / worker}
		e.Extra = s.Extra / Nanos(e.UsesPerOp)
		s.Experiments = append(s.Experiments, e)
	}
	return s
}

// exclusive says m's lock is held by one goroutine at a time: a mutex,
// or a watched RWMutex none took to read (an LRU cache's, whose every Get
// reorders its list under Lock).
func exclusive(m results.Machine) bool {
	return m.Kind == meter.KindMutex || m.Kind == meter.KindRWMutex && m.Reads == 0 && m.Goroutines > 0
}

func partName(group, kind string, members int) string {
	switch {
	case kind == "chan":
		return "the " + group + " channel's senders"
	case members > 1:
		return fmt.Sprintf("the %s %ses (%d)", group, kind, members)
	}
	return "the " + group + " " + kind
}

// UndisturbedRounds is how many of s's rounds ran with none of their
// runs disturbed: as it is, the control and every part.
func UndisturbedRounds(s *Stretches) int {
	n := 0
	for r := range s.Control.Points {
		runs := [][]results.Point{s.Control.Points}
		for _, e := range s.Experiments {
			runs = append(runs, e.Points)
		}
		if r < len(s.Base) && slices.IndexFunc(runs, func(ps []results.Point) bool { return r >= len(ps) }) < 0 && quietRound(s, r, runs...) {
			n++
		}
	}
	return n
}

// costs are the throughput each run of runs lost against the round's run
// as it is, by round; NaN where a round has no base.
func costs(s *Stretches, runs []results.Point) []float64 {
	out := make([]float64, min(len(runs), len(s.Base)))
	for r := range out {
		out[r] = math.NaN()
		if b := s.Base[r].Throughput; b > 0 {
			out[r] = 1 - runs[r].Throughput/b
		}
	}
	return out
}

func finite(xs []float64) []float64 {
	return slices.DeleteFunc(slices.Clone(xs), math.IsNaN)
}

// reading is what p's meters of one group read: their holds' time and
// uses (a channel's aside), in seconds the workers' time in the window
// and their wait for the group, how often a hold was followed by another
// seen to end and by another goroutine's, and the most takers and the
// busiest member.
type reading struct {
	held, uses, worker, waited float64
	follows, handoffs          float64
	takers, busy               float64
	busyUses                   float64 // its members' busy shares weighed by their uses
	locks                      int
	shared                     bool // a member was held by readers side by side
}

func readGroup(p results.Point, group string) reading {
	r := reading{worker: float64(max(p.Par, 1)) * p.Dur.Seconds()}
	for _, m := range p.Machines() {
		if results.MeterGroup(m.Name) != group {
			continue
		}
		if m.Kind != meter.KindSend && m.Kind != meter.KindReceive {
			r.held += m.BusyFrac * p.Dur.Seconds()
			r.uses += float64(m.Uses - m.Reads)
			r.busyUses += float64(m.Uses-m.Reads) * m.BusyFrac
		}
		r.waited += m.MeanWaitMs / 1e3 * float64(m.Uses)
		r.follows, r.handoffs = r.follows+float64(m.Follows), r.handoffs+float64(m.Handoffs)
		r.takers, r.busy, r.shared = max(r.takers, m.Takers), max(r.busy, m.BusyFrac), r.shared || !exclusive(m)
		r.locks++
	}
	return r
}

// heldPerUse is the group's mean hold per use, if measured.
func (r reading) heldPerUse() (Nanos, bool) {
	if r.uses <= 0 || r.held <= 0 {
		return 0, false
	}
	return Nanos(r.held / r.uses * 1e9), true
}

// meets is the share of the group's uses that found its lock held by
// another worker: a member's busy share, weighed by its uses, less the
// taker's own (1/n of it, with n its takers, or all par workers where
// not counted). Not known where its holds were not timed, or readers
// held a member side by side.
func (r reading) meets(par int) (float64, bool) {
	if r.shared || r.uses <= 0 || r.held <= 0 {
		return 0, false
	}
	n := cmp.Or(math.Round(r.takers), float64(max(par, 1)))
	if n < 2 {
		return 0, true // a lock a worker: none meets another at it
	}
	return (n - 1) / n * r.busyUses / r.uses, true
}

// waitedShare is the share of the workers' time they waited for the
// group's locks.
func (r reading) waitedShare() (float64, bool) {
	if r.worker <= 0 {
		return 0, false
	}
	return r.waited / r.worker, true
}

// capturedBelow is how much less often than its takers would pass it
// side by side a lock must pass between them to be Captured: a tenth,
// runs of one worker's holds ten times as long as chance makes. turnsBelow
// is Queued's: half, runs of one worker's holds twice as long.
const (
	capturedBelow = 0.1
	turnsBelow    = 0.5
)

// demand is the share of the time the group's one lock would be held at
// the rate its workers asked for it, waits aside: its busy share over the
// share of their time they did not wait for it. At 1 or more the lock is
// the bottleneck (asymptotic bounds: Lazowska et al., Quantitative System
// Performance, ch. 5). Not known for a group of several locks, or one
// that readers held side by side.
func (r reading) demand() (float64, bool) {
	waited, ok := r.waitedShare()
	if !ok || r.shared || r.locks != 1 || waited >= 1 {
		return 0, false
	}
	return r.busy / (1 - waited), true
}

// captured reports whether the workers took turns at the group's locks
// (see Stretched.Captured); never where readers held one side by side.
func (r reading) captured(usesPerOp, margin, below float64) bool {
	waited, ok := r.waitedShare()
	if r.shared || r.follows <= 0 || r.takers < 1.5 || !ok {
		return false
	}
	n := math.Round(r.takers)
	sideBySide := (n - 1) / n / max(usesPerOp, 1)
	return waited >= margin && r.handoffs/r.follows < below*sideBySide
}

// Judge computes the control's cost and each experiment's, paired by
// round with the control's, and whether it limits the variant.
func Judge(s *Stretches) {
	control := costs(s, s.Control.Points)
	s.Control.Cost, s.Control.Lo, s.Control.Hi = math.NaN(), math.Inf(-1), math.Inf(1)
	if c := finite(control); len(c) > 0 {
		sum := stats.Values(c)
		s.Control.Cost, s.Control.Lo, s.Control.Hi = sum.Median, sum.Lo, sum.Hi
	}
	serial := s.SerialControl()
	for i := range s.Experiments {
		judgeOne(s, &s.Experiments[i], control, serial)
	}
	judgeQueued(s, serial)
}

// quietRound says whether none of round r's runs, as it is and those
// given, was disturbed.
func quietRound(s *Stretches, r int, runs ...[]results.Point) bool {
	return !s.Base[r].IsDisturbed() && !slices.ContainsFunc(runs, func(ps []results.Point) bool { return ps[r].IsDisturbed() })
}

// quietMedian is the median of xs over the rounds quiet says, or over
// all where none is; NaN where none is known.
func quietMedian(xs []float64, quiet func(r int) bool) float64 {
	var q []float64
	for r, x := range xs {
		if !math.IsNaN(x) && quiet(r) {
			q = append(q, x)
		}
	}
	if len(q) == 0 {
		q = finite(xs)
	}
	if len(q) == 0 {
		return math.NaN()
	}
	return results.Median(q)
}

// injected is what each round's stretch added to a hold, as the meters
// timed it (NaN where not read).
func injected(s *Stretches, e *Stretched) []float64 {
	out := make([]float64, min(len(e.Points), len(s.Base)))
	for r := range out {
		stretched, ok1 := readGroup(e.Points[r], e.Group).heldPerUse()
		as, ok2 := readGroup(s.Base[r], e.Group).heldPerUse()
		out[r] = math.NaN()
		if ok1 && ok2 && e.Kind != "chan" && s.HoldsTimeStretch {
			out[r] = float64(stretched - as)
		}
	}
	return out
}

// scaledCost is what time added that cost c of the throughput would cost
// k times as long, where nothing queues: an operation's time grows by the
// time added, so that c/(1-c), the time added over the time as it is,
// grows k times.
func scaledCost(c, k float64) float64 {
	if math.IsNaN(c) || c >= 1 || k == 1 {
		return c
	}
	x := c / (1 - c) * k
	return x / (1 + x)
}

// controlAtInjected is the control's cost in each round at the time e's
// stretch measurably added: a stretched hold that took longer than asked
// (3.24 µs for 2.82) adds more than the control did, which costs more
// where nothing queues. The control's spin is not timed; spun alone it
// takes what it asks. It sets e's ControlScale and ControlCost.
func controlAtInjected(e *Stretched, control []float64) []float64 {
	e.ControlScale, e.ControlCost = 0, math.NaN()
	scale := 1.0
	if e.Extra > 0 && e.Injected > e.Extra {
		scale = float64(e.Injected / e.Extra)
		e.ControlScale = scale
	}
	out := collect.Mapped(control, func(c float64) float64 { return scaledCost(c, scale) })
	if c := finite(out); len(c) > 0 {
		e.ControlCost = results.Median(c)
	}
	return out
}

// judgeOne judges e against the control, whose costs by round are
// control.
func judgeOne(s *Stretches, e *Stretched, control []float64, serial bool) {
	e.Cost, e.Beyond, e.Lo, e.Hi, e.Interval, e.Decided, e.Limits = math.NaN(), math.NaN(), math.Inf(-1), math.Inf(1), false, false, false
	own := costs(s, e.Points)
	if c := finite(own); len(c) > 0 {
		e.Cost = results.Median(c)
	}
	added := injected(s, e)
	quietPair := func(r int) bool { return quietRound(s, r, e.Points) }
	e.Injected = 0 // for none
	if m := quietMedian(added, quietPair); m > 0 {
		e.Injected = Nanos(m)
	}
	controlAt := controlAtInjected(e, control)
	var diffs, quiet []float64
	for r := range min(len(own), len(controlAt)) {
		d := own[r] - controlAt[r]
		if math.IsNaN(d) {
			continue
		}
		diffs = append(diffs, d)
		if quietRound(s, r, s.Control.Points, e.Points) {
			quiet = append(quiet, d)
		}
	}
	e.QuietRounds = len(quiet)
	as := readBases(s, e)
	bounds, quietCost := boundsOf(s, e, own, added)
	e.Bound, e.OverBound, e.Captured = math.NaN(), false, false
	if len(bounds) > 0 {
		e.Bound = results.Median(bounds)
	}
	e.Meets, e.MeetsStretched, e.MetRarely = meets(s, e)
	if len(diffs) == 0 {
		return
	}
	// The verdict rests on the undisturbed rounds alone: beside a
	// busy process a stretched hold is descheduled more often, so that
	// a lock nobody queues for costs more than its control. Where they
	// are too few for an interval, nothing is decided.
	sum := stats.Values(diffs)
	quietKnown := false
	if len(quiet) > 0 {
		if q := stats.Values(quiet); !math.IsInf(q.Lo, 0) && !math.IsInf(q.Hi, 0) {
			sum, quietKnown = q, true
		}
	}
	e.Beyond, e.Lo, e.Hi = sum.Median, sum.Lo, sum.Hi
	e.Interval = !math.IsInf(e.Lo, 0) && !math.IsInf(e.Hi, 0)
	e.Limits = quietKnown && e.Lo > s.Margin
	if e.Limits && e.Kind != "chan" && e.Waited < s.Margin {
		e.Limits, e.Uncontended = false, true
	}
	// Cheaper inside the lock than before it: by more than the margin,
	// or at all where the workers queued for the lock, whose handoffs
	// the control then moved (a shared go-metrics Histogram's: -6.9 %
	// [-10.1, -2.6]). Where nobody waited, a stretch a little cheaper
	// is the injection's grain.
	e.Unmatched = quietKnown && (e.Hi < -s.Margin || e.Hi < 0 && e.Kind != "chan" && e.Waited >= s.Margin)
	cleared := quietKnown && e.Hi < s.Margin && !e.Unmatched
	if serial && e.Limits {
		e.Limits, e.Serial = false, true
	}
	// Where the workers ran largely one at a time and waited for this
	// lock, inside costing no more than outside shows only that both
	// are on the one path they take in turn, which may be this lock's
	// (a shared rate.Limiter's: control 52 %, its stretch 42 %).
	if cleared && serial && e.Kind != "chan" && e.Waited >= s.Margin {
		cleared, e.Serial = false, true
	}
	// The stretch's own cost against what the time it added can cost.
	if quietKnown && len(quietCost) > 0 && !math.IsNaN(e.Bound) && results.Median(quietCost) > e.Bound+s.Margin {
		e.OverBound = true
		cleared = false
		if e.Limits {
			e.Limits, e.Serial, e.Uncontended = false, false, false
		}
	}
	// Most undisturbed runs saw the workers take turns at the lock,
	// and the stretch cost more than its control.
	if quietKnown && e.Kind != "chan" && 2*as.captured > as.quiet && e.Beyond > 0 && !e.Unmatched {
		e.Captured = true
		e.Limits, e.Serial, e.OverBound, e.Uncontended = true, false, false, false
	}
	// A lock the workers seldom found held cannot queue them, whatever
	// its stretch cost: relieving it could not help (metBelow).
	if e.MetRarely {
		e.Limits, e.Captured, e.Serial, e.OverBound, e.Uncontended, e.Unmatched = false, false, false, false, false, false
		cleared = quietKnown
	}
	e.Decided = e.Limits || cleared
	e.CapturedMost = quietKnown && 2*as.captured > as.quiet
	e.TurnsMost = quietKnown && 2*as.turns > as.quiet
	e.SaturatedMost = quietKnown && 2*as.demands > as.quiet && e.Demand >= 1
}

// baseRounds counts the undisturbed rounds as it is (quiet), and those
// whose watcher saw the lock captured, passed in turns, or its demand.
type baseRounds struct{ quiet, captured, turns, demands int }

// readBases reads e's group in the runs as it is: the medians of its
// waits, busy share, handoffs and demand, and how many rounds saw what.
func readBases(s *Stretches, e *Stretched) baseRounds {
	var waited, busy, handoffShares []float64
	for _, b := range s.Base {
		g := readGroup(b, e.Group)
		if g.follows > 0 {
			handoffShares = append(handoffShares, g.handoffs/g.follows)
		}
		if w, ok := g.waitedShare(); ok {
			waited = append(waited, w)
		}
		busy = append(busy, g.busy)
	}
	e.Busy, e.Handoffs, e.HandoffsKnown = results.Median(busy), results.Median(handoffShares), len(handoffShares) > 0 // 0 for none
	e.Waited, e.Uncontended, e.Unmatched, e.Serial = results.Median(waited), false, false, false
	var out baseRounds
	var demands []float64
	for r := range min(len(e.Points), len(s.Base)) {
		b := s.Base[r]
		if b.IsDisturbed() {
			continue
		}
		out.quiet++
		g := readGroup(b, e.Group)
		if g.captured(e.UsesPerOp, s.Margin, capturedBelow) {
			out.captured++
		}
		if g.captured(e.UsesPerOp, s.Margin, turnsBelow) {
			out.turns++
		}
		if d, ok := g.demand(); ok {
			demands = append(demands, d)
		}
	}
	e.Demand, out.demands = 0, len(demands)
	if len(demands) > 0 {
		e.Demand = results.Median(demands)
	}
	return out
}

// boundsOf is, for each undisturbed round, the bound of what the time
// e's stretch added an operation can cost (as asked, or as measured
// where more) against that round's worker time an operation; and the
// stretch's own cost then.
func boundsOf(s *Stretches, e *Stretched, own, injected []float64) (bounds, quietCost []float64) {
	for r := range min(len(e.Points), len(s.Base)) {
		b := s.Base[r]
		if b.IsDisturbed() || e.Points[r].IsDisturbed() {
			continue
		}
		if !math.IsNaN(own[r]) {
			quietCost = append(quietCost, own[r])
		}
		if b.Ops <= 0 {
			continue
		}
		n := float64(max(b.Par, 1))
		op := n * b.Dur.Seconds() / float64(b.Ops) * 1e9
		added := float64(e.Extra)
		if !math.IsNaN(injected[r]) {
			added = max(added, injected[r])
		}
		added *= e.UsesPerOp
		if op > 0 {
			bounds = append(bounds, n*added/(op+n*added))
		}
	}
	return bounds, quietCost
}

// metBelow is the share of a lock's uses that must find it held by
// another worker, as it is or stretched, for its queue to hold the
// workers back. Time added inside a lock costs more than the same time
// outside it only where another worker waits for it: at most that share
// of the time added, which at a tenth is the margin (a tenth of what the
// time costs where nothing queues). A stretch of such a lock that costs
// more came from something else: a hold past what a waiter spins for
// puts the waiter to sleep, a cost the lock as it is does not have (the
// 64 shards of a book two workers share, met in 1.2 % of their uses).
const metBelow = 0.1

// meets is the median over the undisturbed runs as it is, and over the
// stretched ones, of the share of e's uses that found its lock held by
// another worker (Stretched.Meets), and whether both lie under metBelow.
func meets(s *Stretches, e *Stretched) (asIs, stretched float64, rarely bool) {
	if e.Kind == "chan" {
		return 0, 0, false
	}
	read := func(ps []results.Point, quiet func(r int) bool) (float64, bool) {
		var xs []float64
		for r, p := range ps {
			if m, ok := readGroup(p, e.Group).meets(p.Par); ok && quiet(r) {
				xs = append(xs, m)
			}
		}
		if len(xs) == 0 {
			return 0, false
		}
		return results.Median(xs), true
	}
	asIs, ok1 := read(s.Base, func(r int) bool { return !s.Base[r].IsDisturbed() })
	stretched, ok2 := read(e.Points, func(r int) bool { return !e.Points[r].IsDisturbed() })
	return asIs, stretched, ok1 && ok2 && max(asIs, stretched) < metBelow
}

// judgeQueued names the part the workers queued for, one at a time,
// where the stretch against its control could not (see Stretched.Queued).
func judgeQueued(s *Stretches, serial bool) {
	// The control's interval, not its median alone, clear of what time
	// added where nothing queues costs: 46.5 % [28.9, 57.3] (a shared
	// rate.Limiter's) shows no queue yet.
	absorbed := math.IsNaN(s.Control.Lo) || s.Control.Lo < s.Frac/(1+s.Frac)+s.Margin
	for i := range s.Experiments {
		e := &s.Experiments[i]
		e.Queued = false
		if e.Kind == "chan" || e.Kind == meter.KindRWMutex || e.QuietRounds == 0 || e.Waited < s.Margin || e.Limits {
			continue
		}
		sole := true
		for j, o := range s.Experiments {
			if j != i && o.Waited >= s.Margin {
				sole = false
			}
		}
		if !sole || absorbed || !e.TurnsMost && !e.SaturatedMost || !serial && !e.CapturedMost {
			continue
		}
		e.Queued, e.Limits, e.Decided = true, true, true
		e.Serial, e.OverBound, e.Uncontended = false, false, false
	}
}
