// Package causal holds, as data, what why measured on real CPUs: a shop
// point's reliefs beside the model's predictions (Reliefs), and a
// program's parts each made slower in its turn beside a matched control
// (Stretches). experiment/why runs and judges them; report/text says them.
package causal

import (
	"encoding/json"
	"math"
	"slices"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
)

// Stretches is the causal profile of a user's own code on real CPUs, as
// Coz (SOSP 2015) measures one, with a matched control: each group of
// metered locks and channels is made slower in its turn (meter.Stretch)
// by Frac of an operation, the control adding that time outside every
// lock; a part limits where the paired difference's interval lies above
// Margin (docs/own-code.md).
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
	// costs where every operation waits its turn for it.
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
	// spin inside, so that Injected can be read from them.
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
	// first run as it is; Extra, what each use was stretched by (a hold
	// made longer, a sender spinning before each send): Stretches.Extra
	// over UsesPerOp.
	UsesPerOp float64 `json:"uses_per_op"`
	Extra     Nanos   `json:"extra_ns"`
	// Injected is what the stretched runs' meters measured was added to
	// each hold, the median over the rounds; 0 where not measured (see
	// HoldsTimeStretch) or hidden by holds that vary more than the stretch.
	Injected Nanos `json:"injected_ns,omitempty"`
	// Share is the workers' time it was held or waited for in the first
	// run as it is: a secondary figure, never the test.
	Share float64 `json:"share"`
	// Waited is the share of the workers' time they waited for a lock of
	// the group as it is, the median over the rounds (see Uncontended).
	Waited float64 `json:"waited"`
	// Busy is the share of the time the group's busiest lock was held as
	// it is, the median over the rounds: near 1, a lock every worker
	// queues for.
	Busy float64 `json:"busy"`
	// Handoffs is the share of the group's holds whose next hold was
	// another goroutine's, as it is, the median over the rounds, where the
	// meters counted them (HandoffsKnown).
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
	// and its stretch's median beyond the control is above zero: it limits.
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
	// in under half of what taking it side by side would pass it (see
	// Queued).
	TurnsMost bool `json:"-"`
}

// SerialControl reports whether the control cost nearer what time added
// where every operation waits its turn costs (Bottleneck) than what it
// costs where nothing queues, Frac/(1+Frac): then the workers ran largely
// one at a time as they are (see Stretched.Serial).
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

// QuietRounds is the fewest undisturbed rounds of any experiment.
func (s *Stretches) QuietRounds() int {
	q := len(s.Control.Points)
	for _, e := range s.Experiments {
		q = min(q, e.QuietRounds)
	}
	return q
}

// MarshalJSON writes what JSON cannot hold, an interval too wide to give
// (Interval false), as 0.
func (e Stretched) MarshalJSON() ([]byte, error) {
	type plain Stretched // without this method
	p := plain(e)
	zeroNonFinite(&p.Cost, &p.Beyond, &p.Lo, &p.Hi, &p.Bound)
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
