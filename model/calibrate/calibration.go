package calibrate

import (
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
)

// Calibration is what Measure found on one machine.
type Calibration struct {
	Host results.Host `json:"host"`
	// Date is when it was measured.
	Date time.Time `json:"date,omitzero"`
	// Costs are the point estimates: each cost's median over the repeats'
	// medians, the spin window the median of the repeats' bisections.
	Costs sim.Costs `json:"costs"`
	// Lo and Hi bound each cost: the 95 % confidence interval of its
	// median over the repeats (the least and the most of them with six
	// repeats), the spin window's over its repeated bisections. A file
	// from before repeats has neither; Load sets both to Costs.
	Lo sim.Costs `json:"costs_lo,omitzero"`
	Hi sim.Costs `json:"costs_hi,omitzero"`
	// Samples is how many times each microbenchmark ran per repeat,
	// Repeats how many repeats there were.
	Samples int `json:"samples"`
	Repeats int `json:"repeats,omitempty"`
	// Dists are the measured distributions, by cost (the JSON names of
	// sim.Costs' fields): the 0th, 1st, …, 100th percentiles of every
	// sample of every repeat.
	Dists map[string][]time.Duration `json:"distributions,omitempty"`
	// Others is how many CPUs' worth of time other processes used while
	// Measure ran: above a few tenths, the wake-up cost in particular reads
	// high, because the woken thread waits for a core. Waited is how long
	// the calibration waited for the machine to be quiet first.
	Others float64       `json:"others_cpus"`
	Waited time.Duration `json:"waited_ns,omitempty"`
	// Forced says it was saved although the machine was busy (--force).
	Forced bool `json:"forced,omitempty"`
	// Note says what could not be measured and what was used instead.
	Note string `json:"note,omitempty"`
	// Given names (by flag, as Rows does) the costs given in place of the
	// measured ones (Override), in the order given; it is not saved.
	Given []string `json:"-"`
	// Inferred, where not nil, says that the costs were inferred from
	// measured points (brewput calibrate --from, package infer) instead of
	// microbenchmarked: Samples is then 0, Host the points' machine where
	// they name one, and Lo and Hi each cost's range consistent with the
	// points.
	Inferred *Inference `json:"inferred,omitempty"`
}

// Inference is how a calibration's costs were inferred from measured
// points: which points, under which runtime, which costs they constrain,
// and the costs consistent with them.
type Inference struct {
	// From names the files of measured points; Points is how many of
	// their configurations it used and Runs how many runs of those.
	From   []string `json:"from"`
	Points int      `json:"points"`
	Runs   int      `json:"runs"`
	// CPUs are the CPU counts of the points used.
	CPUs []int `json:"cpus"`
	// Runtime is the Go runtime whose scheduler the model followed while
	// inferring ("" today's, "go1.9"): the costs are that scheduler's.
	Runtime string `json:"runtime,omitempty"`
	// Inferred names the costs the points constrain (as Rows' Flag), Kept
	// those they do not, which keep Base's values and intervals.
	Inferred []string `json:"inferred"`
	Kept     []string `json:"kept"`
	// Base names the calibration the kept costs come from, this machine's
	// unless another was given.
	Base results.Calibration `json:"base"`
	// Tolerance is how much farther from its runs' band (relative) than
	// the best fit's prediction a consistent set of costs may put any
	// point's throughput or median latency.
	Tolerance float64 `json:"tolerance"`
	// Sets are sets of costs consistent with the points: the inferred
	// costs with each constrained cost in turn at either edge of its
	// range, and with every kept cost at Base's low and high edges. A
	// band simulates them (model.Range.Sets).
	Sets []sim.Costs `json:"sets,omitempty"`
	// Fit says how close the inferred costs' predictions come to the
	// points: per point, the distance of each to its runs' band.
	Fit []PointFit `json:"fit,omitempty"`
	// Refused lists what it could not use, each with the reason.
	Refused []string `json:"refused,omitempty"`
	// Evaluations is how many sets of costs it simulated every point with.
	Evaluations int `json:"evaluations"`
}

// PointFit is how far the inferred costs' prediction of one point lies
// outside its runs' band, relative to the nearer edge (0 inside), for
// throughput and for the median latency.
type PointFit struct {
	Point      string  `json:"point"`
	Throughput float64 `json:"throughput"`
	P50        float64 `json:"p50"`
}

// Cost is one of the go policy's costs with its interval, as Rows lists
// them.
type Cost struct {
	Name           string // as brewput calibrate prints it, "wake"
	Flag           string // brewput model's flag for it, "wake"
	Median, Lo, Hi time.Duration
}

// costs name the costs, in the order brewput calibrate prints them, as
// it prints them and as brewput model's flags do.
var costs = []struct{ name, flag string }{
	{"wake", "wake"}, {"spin wake", "spin-wake"}, {"spin window", "spin-window"}, {"switch", "switch"},
	{"mutex handoff", "mutex-handoff"}, {"chan handoff", "chan-handoff"}, {"buf chan handoff", "buf-chan-handoff"},
	{"runnext grace", "runnext-grace"}, {"mutex spin", "mutex-spin"},
}

// Field is the cost of c that flag names (as Rows names them); nil for
// no cost.
func Field(c *sim.Costs, flag string) *time.Duration {
	return map[string]*time.Duration{"wake": &c.Wake, "spin-wake": &c.SpinWake, "spin-window": &c.SpinWindow, "switch": &c.Switch,
		"mutex-handoff": &c.MutexHandoff, "chan-handoff": &c.ChanHandoff, "buf-chan-handoff": &c.BufChanHandoff, "runnext-grace": &c.RunnextGrace,
		"mutex-spin": &c.MutexSpin}[flag]
}

// Rows lists c's costs in the order brewput calibrate prints them.
func (c Calibration) Rows() []Cost {
	var out []Cost
	for _, n := range costs {
		out = append(out, Cost{Name: n.name, Flag: n.flag, Median: *Field(&c.Costs, n.flag), Lo: *Field(&c.Lo, n.flag), Hi: *Field(&c.Hi, n.flag)})
	}
	return out
}

// Override puts d in place of the cost that flag names (as Rows names
// them), known exactly — its interval is d alone — and Ref then says it
// was given. An unknown flag is an error.
func (c *Calibration) Override(flag string, d time.Duration) error {
	if Field(&c.Costs, flag) == nil {
		return fmt.Errorf("calibrate: no cost %q", flag)
	}
	for _, cs := range []*sim.Costs{&c.Costs, &c.Lo, &c.Hi} {
		*Field(cs, flag) = d
	}
	if c.Inferred != nil {
		in := *c.Inferred
		in.Sets = slices.Clone(in.Sets)
		for i := range in.Sets {
			*Field(&in.Sets[i], flag) = d
		}
		c.Inferred = &in
	}
	c.Given = append(c.Given, flag)
	return nil
}

// Ref names c for the model points that use it: host, date, how busy the
// machine was, and every cost with its interval, and those given instead
// of measured (Override). A calibration that measured nothing (every cost
// given) names no host.
func (c Calibration) Ref() results.Calibration {
	host := c.Host.Name
	switch {
	case c.Inferred != nil:
	case c.Samples == 0:
		host = "none"
	case host == "":
		host = "an unnamed host"
	}
	ref := results.Calibration{Host: host, Date: c.Date, Others: c.Others, Forced: c.Forced, Given: slices.Clone(c.Given)}
	for _, r := range c.Rows() {
		ref.Costs = append(ref.Costs, results.Cost{Name: r.Name, Median: r.Median, Lo: r.Lo, Hi: r.Hi})
	}
	if in := c.Inferred; in != nil {
		for _, f := range in.From {
			ref.InferredFrom = append(ref.InferredFrom, filepath.Base(f))
		}
		ref.Points = in.Points
	}
	return ref
}

// Range is the uncertainty of c's costs for a band: the edges of their
// intervals, or, for inferred costs, the sets of costs consistent with
// the points they came from (Inference.Sets). nil where there is none.
func (c Calibration) Range() *model.Range {
	if c.Inferred != nil && len(c.Inferred.Sets) > 0 {
		return &model.Range{Lo: c.Lo, Hi: c.Hi, Sets: c.Inferred.Sets}
	}
	return model.NewRange(c.Lo, c.Hi)
}
