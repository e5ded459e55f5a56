// Package causal holds, as data, what why measured on real CPUs: a shop
// point's reliefs beside the model's predictions, and a program's parts
// each made slower in its turn beside a matched control (Stretches).
package causal

import (
	"encoding/json"
	"math"
	"slices"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
)

// Stretches is the causal profile of a user's own code on real CPUs, as
// Coz measures one: each group of metered locks and channels is made
// slower in its turn by Frac of an operation, a control adding that time
// outside every lock; a part limits where the paired difference's interval
// lies above Margin (docs/own-code.md).
type Stretches struct {
	Study   string `json:"study"`
	Variant string `json:"variant"`
	CPUs    int    `json:"cpus"`
	// Frac is the extra time an experiment adds per operation, a share of
	// OpTime, a worker's time per operation as it is; Extra is Frac × OpTime.
	Frac   float64 `json:"frac"`
	OpTime Nanos   `json:"op_ns"`
	Extra  Nanos   `json:"extra_per_op_ns"`
	// Margin is how much more of the throughput than the control a stretch
	// must cost to limit: a tenth of Extra's share of an operation.
	Margin float64 `json:"margin"`
	// Bottleneck is Frac×n/(1+Frac×n) with n workers, what the time added
	// costs where every operation waits its turn for it.
	Bottleneck float64 `json:"bottleneck_cost"`
	Unit       string  `json:"unit"`
	// Base are the variant's runs as it is, one a round; Control its
	// matched control's.
	Base    []results.Point `json:"-"`
	Control Control         `json:"control"`
	// Experiments are the meters' groups in the variant's order.
	Experiments []Stretched `json:"experiments"`
	// HoldsTimeStretch says the meters time a stretched hold whole, its
	// spin inside, so that Injected can be read from them.
	HoldsTimeStretch bool `json:"holds_time_stretch"`
	// Stop, where set, says the experiment stopped early because it would
	// not decide: too few of its rounds ran undisturbed for enough of them
	// to, in the rounds left.
	Stop *Stop `json:"stop,omitempty"`
	// Benchmark says the variant is a Go benchmark whose every sync.Mutex
	// and RWMutex was watched, not a study's metered parts.
	Benchmark bool `json:"benchmark,omitempty"`
}

// Stop is why an experiment stopped before it could decide: after
// Rounds rounds, Quiet of them undisturbed, at about RoundS seconds a
// round only Left more would end within WithinS seconds of its start (0:
// no limit) and its most rounds, where a part is decided on Need
// undisturbed rounds.
type Stop struct {
	Rounds  int     `json:"rounds"`
	Quiet   int     `json:"quiet"`
	Left    int     `json:"left"`
	Need    int     `json:"need"`
	RoundS  float64 `json:"round_s"`
	WithinS float64 `json:"within_s"`
}

// Nanos is a time in nanoseconds, its fraction kept: a stretch spread over
// an operation's locks is often 1.6 ns, which a time.Duration rounds.
type Nanos float64

// String writes n as a time.Duration does, a fraction under 10 ns kept.
func (n Nanos) String() string { return format.Nanos(float64(n)) }

// Control is the matched control, Extra per operation outside every lock:
// its runs and their cost.
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
	// UsesPerOp is how many times an operation used the group as it is;
	// Extra, what each use was stretched by: Stretches.Extra over UsesPerOp.
	UsesPerOp float64 `json:"uses_per_op"`
	Extra     Nanos   `json:"extra_ns"`
	// Injected is the median over the undisturbed rounds (all, where none
	// is) of what the meters measured was added to each hold; 0 where not
	// measured or hidden by holds that vary more than the stretch.
	Injected Nanos `json:"injected_ns,omitempty"`
	// ControlScale is Injected over Extra where the stretch measurably
	// added more than it asked (0 where not): the control's cost in each
	// round is judged at that many times its time, as it would cost where
	// nothing queues; ControlCost is the median of those costs.
	ControlScale float64 `json:"control_scale,omitempty"`
	ControlCost  float64 `json:"control_cost,omitempty"`
	// Meets is the median over the undisturbed runs as it is of the share
	// of the group's uses that found its lock held by another worker, and
	// MeetsStretched over the stretched runs; MetRarely says both were
	// under a tenth (known): its queue cannot hold the workers back, and
	// it is never named, whatever its stretch cost.
	Meets          float64 `json:"meets,omitempty"`
	MeetsStretched float64 `json:"meets_stretched,omitempty"`
	MetRarely      bool    `json:"met_rarely,omitempty"`
	// Share is the workers' time it was held or waited for in the first
	// run as it is: a secondary figure, never the test.
	Share float64 `json:"share"`
	// Waited, Busy and Handoffs are medians over the rounds as it is: the
	// share of the workers' time they waited for a lock of the group; of
	// the time its busiest lock was held (near 1, a lock every worker
	// queues for); of its holds whose next hold was another goroutine's,
	// where the meters counted them (HandoffsKnown).
	Waited        float64 `json:"waited"`
	Busy          float64 `json:"busy"`
	Handoffs      float64 `json:"handoffs"`
	HandoffsKnown bool    `json:"handoffs_known"`
	// Serial says the stretch cost more than its control, which cost
	// nearer Bottleneck than Frac/(1+Frac) (SerialControl). Undecided.
	Serial bool `json:"control_serial,omitempty"`
	// Uncontended says the stretch cost more than its control, yet the
	// lock was waited for less than Margin of the time as it is: a
	// stretch can make the queue it measures. Undecided.
	Uncontended bool `json:"uncontended,omitempty"`
	// Bound is the most the time the stretch added can cost, where every
	// operation waits its turn for it; OverBound says it cost more than
	// Bound by more than Margin: undecided, unless Captured.
	Bound     float64 `json:"bound"`
	OverBound bool    `json:"over_bound,omitempty"`
	// Captured says the watcher saw, in the undisturbed runs as it is, one
	// worker take this sync.Mutex back to back while the others waited,
	// and its stretch cost more than the control: it limits.
	Captured bool `json:"captured,omitempty"`
	// Queued says the watcher and the control together saw the workers
	// take turns at this lock, whatever its stretch cost: it limits, unless
	// Captured says so first.
	Queued bool `json:"queued,omitempty"`
	// Unmatched says the stretch cost less than its control: the control
	// is no match for the lock. Undecided.
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
	// Decided says the interval over the QuietRounds alone (rounds none of
	// whose three runs was disturbed; Beyond, Lo and Hi are theirs where
	// enough) lies wholly above Margin, or wholly below; Limits, above.
	Decided     bool `json:"decided"`
	Limits      bool `json:"limits"`
	QuietRounds int  `json:"quiet_rounds"`

	// CapturedMost says most undisturbed runs as it is saw the lock
	// Captured's way, whatever the stretch cost.
	CapturedMost bool `json:"-"`
	// TurnsMost says most of them saw its holds pass between the workers
	// half as often as taking it side by side would (see Queued).
	TurnsMost bool `json:"-"`
	// Demand is the median over them of the share of the time its one
	// lock would be held at the rate the workers asked for it, waits
	// aside: its busy share over the share of their time they did not
	// wait for it (0 where not known); SaturatedMost, that it is 1 or more
	// (see Queued).
	Demand        float64 `json:"demand,omitempty"`
	SaturatedMost bool    `json:"-"`
}

// SerialControl reports whether the control cost nearer Bottleneck than
// Frac/(1+Frac), what it costs where nothing queues: the workers ran
// largely one at a time as they are.
func (s *Stretches) SerialControl() bool {
	if s.Bottleneck <= 0 || math.IsNaN(s.Control.Cost) {
		return false
	}
	return s.Control.Cost > (s.Frac/(1+s.Frac)+s.Bottleneck)/2
}

// Decided reports whether every experiment is decided.
func (s *Stretches) Decided() bool {
	return !slices.ContainsFunc(s.Experiments, func(e Stretched) bool { return !e.Decided })
}

// Limit is the experiment that limits the variant most; nil if none.
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

// QuietRounds is the fewest undisturbed rounds of any experiment.
func (s *Stretches) QuietRounds() int {
	q := len(s.Control.Points)
	for _, e := range s.Experiments {
		q = min(q, e.QuietRounds)
	}
	return q
}

// MarshalJSON writes an interval too wide to give as 0.
func (e Stretched) MarshalJSON() ([]byte, error) {
	type plain Stretched // without this method
	p := plain(e)
	zeroNonFinite(&p.Cost, &p.Beyond, &p.Lo, &p.Hi, &p.Bound, &p.ControlCost)
	return json.Marshal(p)
}

// MarshalJSON writes an interval too wide to give as 0.
func (c Control) MarshalJSON() ([]byte, error) {
	type plain Control // without this method
	p := plain(c)
	zeroNonFinite(&p.Cost, &p.Lo, &p.Hi)
	return json.Marshal(p)
}

func zeroNonFinite(fs ...*float64) {
	for _, f := range fs {
		if math.IsInf(*f, 0) || math.IsNaN(*f) {
			*f = 0
		}
	}
}
