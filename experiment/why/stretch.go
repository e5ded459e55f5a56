package why

import (
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
		e := &s.Experiments[i]
		e.Cost, e.Beyond, e.Lo, e.Hi, e.Interval, e.Decided, e.Limits = math.NaN(), math.NaN(), math.Inf(-1), math.Inf(1), false, false, false
		own := costs(s, e.Points)
		if c := finite(own); len(c) > 0 {
			e.Cost = results.Median(c)
		}
		var diffs, quiet []float64
		for r := range min(len(own), len(control)) {
			d := own[r] - control[r]
			if math.IsNaN(d) {
				continue
			}
			diffs = append(diffs, d)
			if !s.Base[r].IsDisturbed() && !s.Control.Points[r].IsDisturbed() && !e.Points[r].IsDisturbed() {
				quiet = append(quiet, d)
			}
		}
		e.QuietRounds = len(quiet)
		// What each round's stretch added to a hold (NaN where not read).
		injected := make([]float64, min(len(e.Points), len(s.Base)))
		for r := range injected {
			stretched, ok1 := readGroup(e.Points[r], e.Group).heldPerUse()
			as, ok2 := readGroup(s.Base[r], e.Group).heldPerUse()
			injected[r] = math.NaN()
			if ok1 && ok2 && e.Kind != "chan" && s.HoldsTimeStretch {
				injected[r] = float64(stretched - as)
			}
		}
		e.Injected = Nanos(max(0, results.Median(finite(injected)))) // 0 for none
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
		// The bound of each undisturbed round: the time added an operation
		// (as asked, or as measured where more) against that round's
		// worker time an operation; and the stretch's own cost then.
		var bounds, quietCost []float64
		capturedRounds, turnRounds, quietBases := 0, 0, 0
		var demands []float64
		for r := range injected {
			b := s.Base[r]
			if b.IsDisturbed() {
				continue
			}
			quietBases++
			g := readGroup(b, e.Group)
			if g.captured(e.UsesPerOp, s.Margin, capturedBelow) {
				capturedRounds++
			}
			if g.captured(e.UsesPerOp, s.Margin, turnsBelow) {
				turnRounds++
			}
			if d, ok := g.demand(); ok {
				demands = append(demands, d)
			}
			if e.Points[r].IsDisturbed() {
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
		e.Bound, e.OverBound, e.Captured = math.NaN(), false, false
		if len(bounds) > 0 {
			e.Bound = results.Median(bounds)
		}
		if len(diffs) == 0 {
			continue
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
		if quietKnown && e.Kind != "chan" && 2*capturedRounds > quietBases && e.Beyond > 0 && !e.Unmatched {
			e.Captured = true
			e.Limits, e.Serial, e.OverBound, e.Uncontended = true, false, false, false
		}
		e.Decided = e.Limits || cleared
		e.CapturedMost = quietKnown && 2*capturedRounds > quietBases
		e.TurnsMost = quietKnown && 2*turnRounds > quietBases
		e.Demand = 0
		if len(demands) > 0 {
			e.Demand = results.Median(demands)
		}
		e.SaturatedMost = quietKnown && 2*len(demands) > quietBases && e.Demand >= 1
	}
	judgeQueued(s, serial)
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
