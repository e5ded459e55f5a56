package why

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/measure/meter"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/stats"
)

// Stretches is the causal profile of a user's own code on real CPUs, as
// Coz (SOSP 2015) measures one, with a matched control: each group of
// metered locks and channels is made slower in its turn (meter.Stretch)
// by the same extra time per operation, Frac of an operation, and in the
// same rounds the control adds that time to each operation outside every
// lock. A part limits the program where stretching it costs more than its
// control: where the interval of the paired difference, round by round,
// lies above Margin. Time added where nothing waits on it costs what it
// costs anywhere; time added inside a lock the others queue for costs
// more, however short the lock's hold.
type Stretches struct {
	Study   string `json:"study"`
	Variant string `json:"variant"`
	CPUs    int    `json:"cpus"`
	// Frac is the extra time an experiment adds per operation, as a share
	// of OpTime, a worker's time per operation in the first run as it is;
	// Extra is Frac × OpTime.
	Frac   float64 `json:"frac"`
	OpTime Nanos   `json:"op_ns"`
	Extra  Nanos   `json:"extra_per_op_ns"`
	// Margin is how much more of the throughput than the control a
	// stretch must cost to limit, or less to not: a tenth of the share
	// Extra takes of an operation with it.
	Margin float64 `json:"margin"`
	// Bottleneck is Frac×n/(1+Frac×n) with n workers, what the time added
	// costs where every operation waits its turn for it (on 2 CPUs at 0.5:
	// 50 %, where Frac/(1+Frac), 33.3 %, is what it costs where nothing
	// queues).
	Bottleneck float64 `json:"bottleneck_cost"`
	Unit       string  `json:"unit"`
	// Base are the variant's runs as it is, one a round.
	Base []results.Point `json:"-"`
	// Control is the matched control: Extra per operation outside every
	// lock, one run a round.
	Control Control `json:"control"`
	// Experiments are the meters' groups in the variant's order.
	Experiments []Stretched `json:"experiments"`
	// HoldsTimeStretch says the meters time a stretched hold whole, its
	// spin inside, so that what was injected can be read from them (a
	// study's meters and a watched benchmark's sampled holds do; a
	// reader's hold is not timed).
	HoldsTimeStretch bool `json:"holds_time_stretch"`
}

// Nanos is a time in nanoseconds, its fraction kept: a stretch spread
// over the locks an operation takes is often a nanosecond or two, which
// a time.Duration would show as "1ns" where it is 1.6.
type Nanos float64

// String writes n as a time.Duration does, a fraction under 10 ns kept:
// "31ns", "1.6ns", "1.25µs".
func (n Nanos) String() string { return format.Nanos(float64(n)) }

// Control is the matched control's runs and their cost.
type Control struct {
	// Extra is what was added: to each operation, or where Per says
	// "a lock taken", before every lock (a watched benchmark's).
	Extra Nanos  `json:"extra_ns"`
	Per   string `json:"per,omitempty"`
	// Points are its runs, one a round.
	Points []results.Point `json:"-"`
	// Cost is the median over the rounds of the throughput lost against
	// the round's run as it is; Lo and Hi its 95 % interval, infinite with
	// too few rounds (0 in JSON).
	Cost float64 `json:"cost"`
	Lo   float64 `json:"cost_lo"`
	Hi   float64 `json:"cost_hi"`
}

// Stretched is one experiment: one part made slower by its Extra a use.
type Stretched struct {
	// Name says what was stretched: "the shard mutexes (16)".
	Name string `json:"name"`
	// Group is the meters' group (results.MeterGroup) and Kind their kind
	// ("mutex", "rwmutex", "chan").
	Group   string `json:"group"`
	Kind    string `json:"kind"`
	Members int    `json:"members,omitempty"`
	// UsesPerOp is how many times an operation used the group in the
	// first run as it is (a channel: sent on it); Extra, what each use was
	// stretched by, the stretches' Extra per operation over UsesPerOp: a
	// lock's hold made longer, a channel's sender spinning it before each
	// send, as a slower stage ahead of the handoff would.
	UsesPerOp float64 `json:"uses_per_op"`
	Extra     Nanos   `json:"extra_ns"`
	// Injected is what the stretched runs' own meters measured was added
	// to each use: their mean hold less the runs' as it is, the median
	// over the rounds; 0 where not measured (a channel, a readers' site:
	// see HoldsTimeStretch), or where the stretched holds measured no
	// longer than as it is: a hold that varies between runs by more than
	// the stretch (a long one, timed in a sample) hides it.
	Injected Nanos `json:"injected_ns,omitempty"`
	// Share is the workers' time it was held or waited for in the first
	// run as it is: a secondary figure, never the test.
	Share float64 `json:"share"`
	// Waited is the share of the workers' time they waited for a lock
	// of the group, as it is: the median over the rounds. A stretch that
	// adds half an operation to every hold of a shared lock can make it a
	// queue that was not there (a logger's short lock in a long
	// operation, which relieving gains nothing), and a lock whose cost is
	// the cache line moving between cores (a rate limiter's) is waited
	// for little: a lock waited for less than Margin of the time whose
	// stretch costs more than the control is left undecided, never named.
	// Not used for a channel, whose stretch spins on its sender's side,
	// before the handoff.
	Waited float64 `json:"waited"`
	// Busy is the share of the time the group's busiest lock was held as
	// it is, the median over the rounds: near 1, a lock every worker
	// queues for.
	Busy float64 `json:"busy"`
	// Handoffs is the share of the group's holds whose next hold was
	// another goroutine's, as it is, the median over the rounds; HandoffsKnown
	// says the meters counted them (a watched benchmark's do).
	Handoffs      float64 `json:"handoffs"`
	HandoffsKnown bool    `json:"handoffs_known"`
	// Serial says the stretch cost more than its control, but the control
	// cost nearer Bottleneck than Frac/(1+Frac): the time added outside
	// every lock was not absorbed by waiting, as it is where one lock
	// holds the workers back by its queue, but cost nearly as on a path
	// they take one at a time (logrus to io.Discard, which gains little
	// from a second CPU with its lock or without: 42-48 % at half an
	// operation), and a stretch that makes a lock a queue on top of that
	// cannot tell whether the lock is what holds them back; nor, where it
	// cost no more than its control, that the lock is not it, if the
	// workers waited for it Margin of their time or more. The part is
	// undecided, never named nor cleared, however long the lock was held as it is
	// (the busy share of logrus's lock read 7-75 % from run to run,
	// go-metrics' 54-59 %). It is not a reason to
	// clear nothing: on the 2-core VM the control of 64 shards, parallel
	// as they are, cost 46 % (a spin beside another costs more than
	// alone), and a stretch costing what the control costs is cleared.
	Serial bool `json:"control_serial,omitempty"`
	// Uncontended says the stretch cost more than its control, yet the
	// lock was waited for less than Margin of the time as it is: the
	// stretch may have made the queue it measured, and the part is
	// undecided.
	Uncontended bool `json:"uncontended,omitempty"`
	// Bound is what the time the stretch added, Extra a use as asked or
	// as measured where more (Injected), costs where every operation waits
	// its turn for it: n×E/(T+n×E) with n workers, E that time an
	// operation and T a worker's time an operation as it is (see
	// Stretches.Bottleneck), the median over the undisturbed rounds. Time
	// added to a path can cost no more than that: at worst every
	// operation waits for the whole of it in turn. OverBound says the
	// stretch cost more than Bound by more than Margin: the stretch made
	// waste of its own (waiters parked behind the longer hold and woken
	// late), not the cost of the time it added, and shows nothing of the
	// lock as it is (logrus to io.Discard, four short holds an Info: 57-64
	// % against 50 %, where no lock limits it). The part is undecided,
	// never named, unless the watcher saw it Captured.
	Bound     float64 `json:"bound"`
	OverBound bool    `json:"over_bound,omitempty"`
	// Captured says the watcher saw, in the undisturbed runs as it is,
	// that the workers took turns at this lock: they waited for it at
	// least Margin of their time, and its holds passed to another
	// goroutine in under a tenth of what its takers would pass it if they
	// took it side by side, (n-1)/n of the operations, over its uses an
	// operation where more than one: one worker took it back to back
	// while the others waited. Time added outside it is then on the path
	// one worker at a time runs as much as time inside it, so that the
	// control costs nearly what the stretch costs (go-metrics' shared
	// histogram: holds passed in 0.4-2.5 % of them, waited 30 % of the
	// time, control 36-55 %); the part limits the program where, beside
	// that, its stretch cost more than its control (the median beyond
	// it above zero). A lock all the workers take whose holds pass
	// between them as often as that does not hold them back in turn
	// (logrus's, 24 % of its holds against 12.5 %). Only a sync.Mutex's:
	// an RWMutex's readers hold it side by side, and its next hold may be
	// a reader's beside the last.
	Captured bool `json:"captured,omitempty"`
	// Queued says the watcher and the control together saw the workers
	// held one at a time at this lock, whatever its stretch cost against
	// the control: in the undisturbed runs as it is they waited for it at
	// least Margin of their time, and for no other part as long as that;
	// and the control cost nearer Bottleneck than Frac/(1+Frac) (time
	// added outside every lock was not absorbed by waiting, as where they
	// run one at a time), or more than Frac/(1+Frac) and the watcher saw
	// their holds pass as a Captured lock's do; either way, the control's
	// interval lay wholly Margin or more above Frac/(1+Frac); and the
	// watcher counted its holds passing between the workers in under half
	// of what taking it side by side would pass it, in most of those runs:
	// a worker that had it kept it while the others waited, so that the
	// one-at-a-time is this lock's. Waits alone do not say so: where the
	// lock's data moves between the CPUs as much without the lock, the
	// workers run one at a time and wait at the lock, yet a lock split in
	// shards makes no more (examples/cache's write-heavy study: control 55
	// %, waited 23 %; its sharded design 83-87 ns an operation on 2 CPUs
	// against the one mutex's 73-79), and a study's meters do not count
	// handoffs: such a lock is left undecided. Where
	// the workers queue at a short lock, time before it and time inside it
	// each change how it passes between the CPUs (time before widens the
	// gap in which another takes it; time inside lets the holder take it
	// again while the waiter sleeps), so that neither the stretch nor its
	// control is a match for the lock as it is: a shared rate.Limiter's
	// stretch cost 43 % beside a control of 48 %, go-metrics' shared
	// histogram's 34 % beside 41 %, while a limiter or a histogram per
	// goroutine made twice as much on 2 CPUs. The part is named, by what
	// was seen, not by the stretch; Captured takes precedence in the answer.
	Queued bool `json:"queued,omitempty"`
	// Unmatched says the stretch cost less than its control, the
	// interval wholly below -Margin, or below zero where the workers
	// waited for the lock Margin of their time or more: time added before every lock cost
	// more than the same time inside this one, which a control that
	// leaves the lock as it is cannot. Time before a short lock widens
	// the gap between one worker's holds, in which another takes it, so
	// that it moves between the CPUs more often, while time inside it
	// lets the holder take it again and the waiter sleep (validation/truth's
	// 12 ns hold: 0.3 handoffs an operation as it is, none with 25 ns
	// inside, up to 0.3 with 25 ns before it). The control is no match
	// for the lock, and the part is undecided, never cleared.
	Unmatched bool `json:"control_unmatched,omitempty"`
	// Points are its runs, one a round.
	Points []results.Point `json:"-"`
	// Cost is the median over the rounds of the throughput lost against
	// the round's run as it is; Beyond, of its cost less the control's in
	// the same round, with Lo and Hi its 95 % interval, infinite with too
	// few rounds (Interval false; 0 in JSON).
	Cost     float64 `json:"cost"`
	Beyond   float64 `json:"beyond_control"`
	Lo       float64 `json:"beyond_lo"`
	Hi       float64 `json:"beyond_hi"`
	Interval bool    `json:"interval"`
	// Decided says the interval over the QuietRounds alone (rounds none
	// of whose three runs, as it is, the control and the stretch, was
	// disturbed; Beyond, Lo and Hi are theirs where they are enough for
	// an interval) lies wholly above Margin, or wholly below it; Limits,
	// above. Beside another busy process the CPUs the two would share are
	// not there, and time added anywhere costs alike, while a holder
	// descheduled holding its lock makes a stretched lock cost more: a
	// disturbed round decides nothing.
	Decided     bool `json:"decided"`
	Limits      bool `json:"limits"`
	QuietRounds int  `json:"quiet_rounds"`

	// capturedMost says most undisturbed runs as it is saw the lock
	// Captured's way, whatever the stretch cost.
	capturedMost bool
	// turnsMost says most of them saw its holds pass between the workers
	// in under half of what taking it side by side would pass it (see
	// Queued).
	turnsMost bool
}

// DefaultFrac is the stretch why adds per operation, as a share of one:
// enough to move an operation measurably on a noisy machine, however
// short its locks' holds. A smaller one does not see a short lock whose
// cost is its handoffs between cores: at a tenth of an operation (5 to
// 23 ns) go-metrics' shared histogram and a shared rate.Limiter cost
// what their controls cost, where half an operation names both.
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
	type group struct {
		kind       string
		members    int
		held, uses float64
		waited     float64
	}
	var order []string
	groups := map[string]*group{}
	for _, m := range base.Machines() {
		held := m.BusyFrac * base.Dur.Seconds() // a channel's sends: its handoffs' time
		if m.Kind == meter.KindReceive {
			continue // a channel is stretched, and counted, by its sends
		}
		name := results.MeterGroup(m.Name)
		kind := m.Kind
		switch {
		case kind == meter.KindSend:
			kind = "chan"
		case exclusive(m):
			kind = meter.KindMutex
		}
		g := groups[name]
		if g == nil {
			g = &group{kind: kind}
			groups[name] = g
			order = append(order, name)
		}
		if kind != g.kind && g.kind == meter.KindMutex {
			g.kind = kind // one of its locks had readers: an RWMutex shared
		}
		g.members++
		g.held += held
		g.waited += m.MeanWaitMs / 1e3 * float64(m.Uses)
		g.uses += float64(m.Uses)
	}
	for _, name := range order {
		g := groups[name]
		if g.uses == 0 || ops == 0 {
			continue // never used in the window: nothing to stretch
		}
		e := Stretched{Name: partName(name, g.kind, g.members), Group: name, Kind: g.kind, Members: g.members,
			UsesPerOp: g.uses / ops, Share: (g.held + g.waited) / worker}
		e.Extra = s.Extra / Nanos(e.UsesPerOp)
		s.Experiments = append(s.Experiments, e)
	}
	return s
}

// exclusive says m's lock is held by one goroutine at a time: a mutex,
// or a watched RWMutex none took to read (an LRU cache's, whose every Get
// reorders its list under Lock), which is one as much as a mutex is. A
// meter does not tell readers apart (its Goroutines are not known).
func exclusive(m results.Machine) bool {
	return m.Kind == meter.KindMutex || m.Kind == meter.KindRWMutex && m.Reads == 0 && m.Goroutines > 0
}

// partName names a group of meters for people.
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
func (s *Stretches) costs(runs []results.Point) []float64 {
	out := make([]float64, min(len(runs), len(s.Base)))
	for r := range out {
		out[r] = math.NaN()
		if b := s.Base[r].Throughput; b > 0 {
			out[r] = 1 - runs[r].Throughput/b
		}
	}
	return out
}

// finite is xs without NaNs.
func finite(xs []float64) []float64 {
	return slices.DeleteFunc(slices.Clone(xs), math.IsNaN)
}

// heldPerUse is a group's mean hold per use in p, and whether it was
// measured.
func heldPerUse(p results.Point, group string) (Nanos, bool) {
	held, uses := 0.0, 0.0
	for _, m := range p.Machines() {
		if results.MeterGroup(m.Name) == group && m.Kind != meter.KindSend && m.Kind != meter.KindReceive {
			held += m.BusyFrac * p.Dur.Seconds()
			uses += float64(m.Uses - m.Reads)
		}
	}
	if uses <= 0 || held <= 0 {
		return 0, false
	}
	return Nanos(held / uses * 1e9), true
}

// waitedShare is the share of the workers' time p's workers waited for
// the group's locks.
func waitedShare(p results.Point, group string) (float64, bool) {
	worker := float64(max(p.Par, 1)) * p.Dur.Seconds()
	if worker <= 0 {
		return 0, false
	}
	waited := 0.0
	for _, m := range p.Machines() {
		if results.MeterGroup(m.Name) == group {
			waited += m.MeanWaitMs / 1e3 * float64(m.Uses)
		}
	}
	return waited / worker, true
}

// handoffShares is, for each of points that counted them, the share of
// the group's holds whose next hold was another goroutine's.
func handoffShares(points []results.Point, group string) []float64 {
	var out []float64
	for _, p := range points {
		follows, handoffs := 0.0, 0.0
		for _, m := range p.Machines() {
			if results.MeterGroup(m.Name) == group {
				follows += float64(m.Follows)
				handoffs += float64(m.Handoffs)
			}
		}
		if follows > 0 {
			out = append(out, handoffs/follows)
		}
	}
	return out
}

// capturedBelow is how much less often than its takers would pass it
// side by side a lock must pass between them to be Captured: a tenth,
// runs of one worker's holds ten times as long as chance makes. turnsBelow
// is Queued's: half, runs of one worker's holds twice as long.
const (
	capturedBelow = 0.1
	turnsBelow    = 0.5
)

// captured reports whether p's workers took turns at the group's locks
// (see Stretched.Captured), and the share of its holds that passed
// between goroutines.
func captured(p results.Point, group string, usesPerOp, margin, below float64) (bool, float64) {
	follows, handoffs, takers := 0.0, 0.0, 0.0
	for _, m := range p.Machines() {
		if results.MeterGroup(m.Name) != group {
			continue
		}
		if !exclusive(m) {
			return false, 0 // readers hold an RWMutex side by side
		}
		follows += float64(m.Follows)
		handoffs += float64(m.Handoffs)
		takers = max(takers, m.Takers)
	}
	waited, ok := waitedShare(p, group)
	if follows <= 0 || takers < 1.5 || !ok {
		return false, 0
	}
	n := math.Round(takers)
	h := handoffs / follows
	sideBySide := (n - 1) / n / max(usesPerOp, 1)
	return waited >= margin && h < below*sideBySide, h
}

// Judge computes the control's cost and each experiment's, paired by
// round with the control's, and whether it limits the variant.
func (s *Stretches) Judge() {
	control := s.costs(s.Control.Points)
	s.Control.Cost, s.Control.Lo, s.Control.Hi = math.NaN(), math.Inf(-1), math.Inf(1)
	if c := finite(control); len(c) > 0 {
		sum := stats.Values(c)
		s.Control.Cost, s.Control.Lo, s.Control.Hi = sum.Median, sum.Lo, sum.Hi
	}
	serial := s.serialControl()
	for i := range s.Experiments {
		e := &s.Experiments[i]
		e.Cost, e.Beyond, e.Lo, e.Hi, e.Interval, e.Decided, e.Limits = math.NaN(), math.NaN(), math.Inf(-1), math.Inf(1), false, false, false
		own := s.costs(e.Points)
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
		var injected []float64
		for r := range min(len(e.Points), len(s.Base)) {
			stretched, ok1 := heldPerUse(e.Points[r], e.Group)
			as, ok2 := heldPerUse(s.Base[r], e.Group)
			if ok1 && ok2 && e.Kind != "chan" && s.HoldsTimeStretch {
				injected = append(injected, float64(stretched-as))
			}
		}
		e.Injected = 0
		if m := results.Median(injected); m > 0 { // 0 for none
			e.Injected = Nanos(m)
		}
		var waited, busy []float64
		for _, b := range s.Base {
			if w, ok := waitedShare(b, e.Group); ok {
				waited = append(waited, w)
			}
			most := 0.0
			for _, m := range b.Machines() {
				if results.MeterGroup(m.Name) == e.Group {
					most = max(most, m.BusyFrac)
				}
			}
			busy = append(busy, most)
		}
		h := handoffShares(s.Base, e.Group)
		e.Busy, e.Handoffs, e.HandoffsKnown = results.Median(busy), results.Median(h), len(h) > 0 // 0 for none
		e.Waited, e.Uncontended, e.Unmatched, e.Serial = results.Median(waited), false, false, false
		// The bound of each undisturbed round: the time added (as asked, or
		// as measured where more) an operation, against that round's
		// worker time an operation as it is.
		var bounds []float64
		capturedRounds, turnRounds, quietBases := 0, 0, 0
		for r := range min(len(e.Points), len(s.Base)) {
			b := s.Base[r]
			if b.IsDisturbed() {
				continue
			}
			quietBases++
			if c, _ := captured(b, e.Group, e.UsesPerOp, s.Margin, capturedBelow); c {
				capturedRounds++
			}
			if c, _ := captured(b, e.Group, e.UsesPerOp, s.Margin, turnsBelow); c {
				turnRounds++
			}
			if e.Points[r].IsDisturbed() || b.Ops <= 0 {
				continue
			}
			n := float64(max(b.Par, 1))
			op := n * b.Dur.Seconds() / float64(b.Ops) * 1e9
			added := float64(e.Extra)
			if stretched, ok1 := heldPerUse(e.Points[r], e.Group); ok1 && s.HoldsTimeStretch && e.Kind != "chan" {
				if as, ok2 := heldPerUse(b, e.Group); ok2 {
					added = max(added, float64(stretched-as))
				}
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
		// busy process a holder is descheduled holding its lock, and a
		// stretched hold is more often, so that a lock nobody queues for
		// on a quiet machine costs more than its control. Where they are
		// too few for an interval, the figure is every round's, and
		// nothing is decided.
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
		// or at all where the workers queued for the lock as it is, whose
		// handoffs the control then moved (a shared go-metrics
		// Histogram's: -6.9 % [-10.1, -2.6], waited for a fifth of the
		// time). Where nobody waited, time inside and before a lock cost
		// alike, and a stretch a little cheaper is the injection's grain.
		e.Unmatched = quietKnown && (e.Hi < -s.Margin || e.Hi < 0 && e.Kind != "chan" && e.Waited >= s.Margin)
		cleared := quietKnown && e.Hi < s.Margin && !e.Unmatched
		if serial && e.Limits {
			e.Limits, e.Serial = false, true
		}
		// Where the workers ran largely one at a time and waited for this
		// lock, time inside it costing no more than time outside every
		// lock shows only that both are on the one path they take in
		// turn, which may be this lock's (a shared rate.Limiter's: control
		// 52 %, its stretch 42 %, waited for 22 % of the time).
		if cleared && serial && e.Kind != "chan" && e.Waited >= s.Margin {
			cleared, e.Serial = false, true
		}
		// The stretch's own cost, over its undisturbed rounds, against
		// what the time it added can cost.
		var quietCost []float64
		for r := range min(len(own), len(s.Base)) {
			if !math.IsNaN(own[r]) && !s.Base[r].IsDisturbed() && !e.Points[r].IsDisturbed() {
				quietCost = append(quietCost, own[r])
			}
		}
		if quietKnown && len(quietCost) > 0 && !math.IsNaN(e.Bound) && results.Median(quietCost) > e.Bound+s.Margin {
			e.OverBound = true
			cleared = false
			if e.Limits {
				e.Limits, e.Serial, e.Uncontended = false, false, false
			}
		}
		// Most undisturbed runs as it is saw the workers take turns at
		// the lock, and the stretch cost more than its control.
		if quietKnown && e.Kind != "chan" && 2*capturedRounds > quietBases && e.Beyond > 0 && !e.Unmatched {
			e.Captured = true
			e.Limits, e.Serial, e.OverBound, e.Uncontended = true, false, false, false
		}
		e.Decided = e.Limits || cleared
		e.capturedMost = quietKnown && 2*capturedRounds > quietBases
		e.turnsMost = quietKnown && 2*turnRounds > quietBases
	}
	s.judgeQueued(serial)
}

// judgeQueued names the part the workers queued for, one at a time,
// where the stretch against its control could not (see Stretched.Queued).
func (s *Stretches) judgeQueued(serial bool) {
	// The control's interval, not its median alone, clear of what time
	// added where nothing queues costs: a control of 46.5 % [28.9, 57.3]
	// (a shared rate.Limiter's, 6 rounds) shows no queue yet.
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
		if !sole || absorbed || !e.turnsMost || !serial && !e.capturedMost {
			continue
		}
		e.Queued, e.Limits, e.Decided = true, true, true
		e.Serial, e.OverBound, e.Uncontended = false, false, false
	}
}

// serialControl reports whether the control cost nearer what time added
// where every operation waits its turn costs (Bottleneck) than what it
// costs where nothing queues, Frac/(1+Frac): then the workers ran largely
// one at a time as they are (see Stretched.Serial).
func (s *Stretches) serialControl() bool {
	if s.Bottleneck <= 0 || math.IsNaN(s.Control.Cost) {
		return false
	}
	return s.Control.Cost > (s.Frac/(1+s.Frac)+s.Bottleneck)/2
}

// Decided reports whether every experiment is decided.
func (s *Stretches) Decided() bool {
	return !slices.ContainsFunc(s.Experiments, func(e Stretched) bool { return !e.Decided })
}

// Limit is the experiment that limits the variant most, its cost beyond
// the control's the greatest; nil if none.
func (s *Stretches) Limit() *Stretched {
	var best *Stretched
	for i := range s.Experiments {
		e := &s.Experiments[i]
		if e.Limits && (best == nil || e.Beyond > best.Beyond) {
			best = e
		}
	}
	return best
}

// pct writes a share in percent with one decimal, "-" where unknown.
func pct(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "-"
	}
	return format.Percent(x, 1)
}

// beyondText writes an experiment's cost beyond its control with its
// interval: "+31.2 % [28.0, 35.1]", or "(too few rounds for an interval)".
func (e Stretched) beyondText() string {
	if !e.Interval {
		return pct(e.Beyond) + " (too few rounds for an interval)"
	}
	return fmt.Sprintf("%s [%.1f, %.1f]", pct(e.Beyond), 100*e.Lo, 100*e.Hi)
}

// stretchedWhat says what an experiment added: "31ns to each hold".
func (e Stretched) stretchedWhat() string {
	if e.Kind == "chan" {
		return fmt.Sprintf("%v before each send", e.Extra)
	}
	return fmt.Sprintf("%v to each hold", e.Extra)
}

// Answer says what limits the variant, undecided first where it is:
// "The cache mutex limits this: …", "Undecided after 6 rounds: …", or
// "No single lock limits this: …".
func (s *Stretches) Answer() string {
	var b strings.Builder
	added := fmt.Sprintf("%v per operation (%s of one)", s.Extra, format.Percent(s.Frac, 0))
	control := "the same time outside every lock"
	if !math.IsNaN(s.Control.Cost) {
		control += ", which cost " + pct(s.Control.Cost)
	}
	var undecided, limits, not []string
	idle, unmatched, serial, over := 0, 0, 0, 0
	for _, e := range s.Experiments {
		line := fmt.Sprintf("%s, %s: %s beyond the control", e.Name, e.stretchedWhat(), e.beyondText())
		switch {
		case e.Limits:
			limits = append(limits, line)
		case e.OverBound:
			over++
			undecided = append(undecided, fmt.Sprintf("%s, yet it cost %s, more than time added where every operation waits its turn for it can cost (%s): the stretch made waste of its own, waiters parked behind the longer hold, and shows nothing of the lock as it is", line, pct(e.Cost), pct(e.Bound)))
		case e.Uncontended:
			idle++
			undecided = append(undecided, fmt.Sprintf("%s, yet waited for %s of the time as it is, less than %s: the stretch may have made the queue it measured", line, pct(e.Waited), pct(s.Margin)))
		case e.Unmatched:
			unmatched++
			undecided = append(undecided, fmt.Sprintf("%s: time before every lock cost more than the same time inside this one, so the control changed how the lock passes between the CPUs and is no match for it", line))
		case e.Serial:
			serial++
			if e.Kind != "chan" {
				line += fmt.Sprintf(", waited for %s of the time as it is", pct(e.Waited))
			}
			undecided = append(undecided, line)
		case e.Decided:
			not = append(not, line)
		default:
			undecided = append(undecided, line)
		}
	}
	decide := "What would decide it: more rounds (--max-count, --within), a quieter machine, or a larger --stretch."
	switch {
	case idle > 0 && idle == len(undecided):
		decide = "What would decide it: a relief measured (the code changed so that the lock is not shared), or a smaller --stretch, which makes less of a queue."
	case unmatched+serial+over > 0 && unmatched+serial+over == len(undecided):
		decide = "What would decide it: a relief measured (the code changed so that the lock is not shared)."
	case idle > 0 || unmatched > 0 || serial > 0 || over > 0:
		decide = "What would decide it: more rounds (--max-count, --within), a quieter machine, a relief measured (the code changed so that a lock waited for little, or one the control is no match for, is not shared)."
	}
	rounds := format.Count(len(s.Control.Points), "round")
	if s.quietRounds() == 0 && len(s.Control.Points) > 0 {
		// No round to decide on: a larger stretch or a relief would be
		// measured beside the same busy machine.
		decide = "What would decide it: a quieter machine; every round was disturbed."
	}
	l := s.Limit()
	switch {
	case l != nil:
		what := l.Name
		if l.Members > 1 {
			what += " together"
		}
		if l.Captured {
			// Named by what the watcher saw, not by the stretch: where the
			// workers run one at a time, time added outside the lock is on
			// the same path and the control costs about what the stretch
			// does, so the sentence says which it was.
			than := "more than " + control
			if !l.Interval || l.Lo <= 0 {
				than = "about as much as " + control + ", as time added anywhere costs where the workers run one at a time"
			}
			fmt.Fprintf(&b, "%s limits this, by what the watcher saw as it is: the workers waited for it %s of their time, and it passed from one to another in %s of its holds, under a tenth of what they would pass it taking it side by side: one took it back to back while the others waited, so they ran one at a time at it; adding %s to it (%s) cost %s of the throughput, %s: %s beyond it",
				format.Capital(what), pct(l.Waited), pct(l.Handoffs), added, l.stretchedWhat(), pct(l.Cost), than, l.beyondText())
		} else if l.Queued {
			// Named by what the watcher and the control saw: the stretch's
			// cost beside the control's is given, and why it decides
			// nothing here.
			how := fmt.Sprintf("nearer what time added where every operation waits its turn costs (%s) than where nothing queues (%s)", pct(s.Bottleneck), pct(s.Frac/(1+s.Frac)))
			turns := "under half"
			if !s.serialControl() {
				how = fmt.Sprintf("more than where nothing queues (%s)", pct(s.Frac/(1+s.Frac)))
				turns = "under a tenth"
			}
			fmt.Fprintf(&b, "%s limits this, by what the watcher and the control saw as it is: the workers waited for it %s of their time, for no other lock as long, and it passed from one to another in %s of its holds, %s of what they would pass it taking it side by side, while the same time outside every lock cost %s, %s: they ran one at a time, taking turns at this lock; adding %s to it (%s) cost %s, %s beyond the control, which decides nothing where the workers queue at a lock, as time before it and time inside it each change how it passes between the CPUs",
				format.Capital(what), pct(l.Waited), pct(l.Handoffs), turns, pct(s.Control.Cost), how, added, l.stretchedWhat(), pct(l.Cost), l.beyondText())
		} else {
			fmt.Fprintf(&b, "%s limits this: adding %s to it (%s) cost %s of the throughput, more than %s: %s beyond it",
				format.Capital(what), added, l.stretchedWhat(), pct(l.Cost), control, l.beyondText())
			if l.Kind != "chan" {
				fmt.Fprintf(&b, "; the workers waited for it %s of their time as it is", pct(l.Waited))
			}
		}
		limits = slices.DeleteFunc(limits, func(x string) bool { return strings.HasPrefix(x, l.Name+",") })
		if len(limits) > 0 {
			fmt.Fprintf(&b, "; also more than the control: %s", strings.Join(limits, "; "))
		}
		if len(undecided) > 0 {
			fmt.Fprintf(&b, "; undecided: %s", strings.Join(undecided, "; "))
		}
		if len(not) > 0 {
			fmt.Fprintf(&b, "; no more than the control: %s", strings.Join(not, "; "))
		}
		b.WriteString(".")
		if l.Captured || l.Queued {
			// Seen, not relieved: a lock whose data moves between the CPUs
			// with it or without it (examples/cache's, written at random
			// keys) is taken in turns all the same, and split into shards
			// makes no more.
			b.WriteString(" This rests on what was seen, not on a relief: the stretch shows what longer holds cost; whether splitting the lock would help, where its data moves between the CPUs with it or without it, only a relief measured shows.")
		}
	case len(undecided) > 0:
		these := plural(len(undecided), "this lock", "these locks")
		switch {
		case idle == len(undecided):
			fmt.Fprintf(&b, "Undecided after %s: adding %s to %s cost more than %s, but as it is the workers waited for %s less than %s of their time: %s",
				rounds, added, these, control, plural(len(undecided), "it", "each"), pct(s.Margin), strings.Join(undecided, "; "))
		case unmatched == len(undecided):
			fmt.Fprintf(&b, "Undecided after %s: adding %s to %s cost less than %s: %s",
				rounds, added, these, control, strings.Join(undecided, "; "))
		case over == len(undecided):
			fmt.Fprintf(&b, "Undecided after %s: adding %s to %s cost more than %s, and more than the time added can cost: %s",
				rounds, added, these, control, strings.Join(undecided, "; "))
		case serial == len(undecided):
			fmt.Fprintf(&b, "Undecided after %s: adding %s outside every lock (the control) cost %s, nearer what it costs where every operation waits its turn (%s) than where nothing queues (%s): as it is the workers ran largely one at a time, held back by something every operation shares, and a stretch of one part cannot tell whether it is that part: %s",
				rounds, added, pct(s.Control.Cost), pct(s.Bottleneck), pct(s.Frac/(1+s.Frac)), strings.Join(undecided, "; "))
		case idle == 0 && unmatched == 0 && serial == 0 && over == 0:
			fmt.Fprintf(&b, "Undecided after %s: adding %s to %s cost neither clearly more than %s, nor clearly no more (within %s): %s",
				rounds, added, plural(len(undecided), "this part", "these parts"), control, pct(s.Margin), strings.Join(undecided, "; "))
		default:
			fmt.Fprintf(&b, "Undecided after %s: adding %s to these parts decided none of them against %s: %s",
				rounds, added, control, strings.Join(undecided, "; "))
		}
		if len(not) > 0 {
			fmt.Fprintf(&b, "; no more than the control: %s", strings.Join(not, "; "))
		}
		b.WriteString(".")
		if q := s.quietRounds(); q < len(s.Control.Points) {
			fmt.Fprintf(&b, " Only %d of the %d rounds ran undisturbed, and a part is decided on undisturbed rounds alone.", q, len(s.Control.Points))
		}
		b.WriteString(" " + decide)
	default:
		fmt.Fprintf(&b, "No single lock limits this: adding %s to each part cost no more than %s (within %s): %s.",
			added, control, pct(s.Margin), strings.Join(not, "; "))
	}
	if d := disturbed(s.Base); d > 0 {
		fmt.Fprintf(&b, " %d of the %d runs as it is were disturbed: other processes took CPU while they ran.", d, len(s.Base))
	}
	return b.String()
}

// quietRounds is the fewest undisturbed rounds of any experiment.
func (s *Stretches) quietRounds() int {
	q := len(s.Control.Points)
	for _, e := range s.Experiments {
		q = min(q, e.QuietRounds)
	}
	return q
}

// plural is one where n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// longPartName is the longest name of a part the table's first column
// holds.
const longPartName = 20

// WriteTable writes the experiments for a terminal, then the answer.
func (s *Stretches) WriteTable(w io.Writer) error {
	tp := make([]float64, len(s.Base))
	for i, p := range s.Base {
		tp[i] = p.Throughput
	}
	head := fmt.Sprintf("%s %s on %s, %s as it is: %v added per operation (%s of one, %v) to each part in its turn, and outside every lock as the control; %s (as it is, the control and each part)",
		s.Study, s.Variant, format.Count(s.CPUs, "CPU"), format.Rate(results.Median(tp), s.Unit), s.Extra, format.Percent(s.Frac, 0), s.OpTime,
		format.Count(len(s.Control.Points), "round"))
	fmt.Fprintf(w, "%s\n\n", format.Wrap(head, format.Width(w), ""))
	// A long part's name ("the (*Locked).Place at book.go:121 mutex") has a
	// line of its own above its figures, lest the table pass
	// format.Width(w).
	t := format.Table{Ragged: true}
	t.Row("stretched", "added", "measured", "cost %", "beyond control %", "verdict")
	by := fmt.Sprintf("%v/op", s.Control.Extra)
	if s.Control.Per == "a lock taken" {
		by = fmt.Sprintf("%v/lock", s.Control.Extra)
	}
	num := func(x float64) string {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return "-"
		}
		return fmt.Sprintf("%.1f", 100*x)
	}
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
	for _, f := range []*float64{&p.Cost, &p.Beyond, &p.Lo, &p.Hi, &p.Bound} {
		if math.IsInf(*f, 0) || math.IsNaN(*f) {
			*f = 0
		}
	}
	return json.Marshal(p)
}

// MarshalJSON writes what JSON cannot hold, an interval too wide to give,
// as 0.
func (c Control) MarshalJSON() ([]byte, error) {
	type plain Control // without this method
	p := plain(c)
	for _, f := range []*float64{&p.Cost, &p.Lo, &p.Hi} {
		if math.IsInf(*f, 0) || math.IsNaN(*f) {
			*f = 0
		}
	}
	return json.Marshal(p)
}
