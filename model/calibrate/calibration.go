package calibrate

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
)

// Calibration is what Measure found on one machine.
type Calibration struct {
	Host results.Host `json:"host"`
	Date time.Time    `json:"date,omitzero"` // when it was measured
	// Costs are each cost's median over the repeats' medians (the spin
	// window's over its repeated bisections); Lo and Hi that median's 95 %
	// confidence interval (with six repeats, their least and most). Load
	// sets both to Costs in a file from before repeats.
	Costs sim.Costs `json:"costs"`
	Lo    sim.Costs `json:"costs_lo,omitzero"`
	Hi    sim.Costs `json:"costs_hi,omitzero"`
	// Samples is each microbenchmark's runs per repeat.
	Samples int `json:"samples"`
	Repeats int `json:"repeats,omitempty"`
	// Dists are the 0th to 100th percentiles of every sample of each cost,
	// by sim.Costs' JSON names.
	Dists map[string][]time.Duration `json:"distributions,omitempty"`
	// Others is the CPUs other processes used while Measure ran: above a
	// few tenths the wake-up reads high, the woken thread waiting for a
	// core. Waited is how long it first waited for a quiet machine.
	Others float64       `json:"others_cpus"`
	Waited time.Duration `json:"waited_ns,omitempty"`
	Forced bool          `json:"forced,omitempty"` // saved although the machine was busy (--force)
	// Unsaved says it was measured for one run on a busy machine and not
	// kept (Default): the next run measures again.
	Unsaved bool `json:"unsaved,omitempty"`
	// Note says what could not be measured and what was used instead.
	Note string `json:"note,omitempty"`
	// Given names by flag the costs Override put in place, in order; not saved.
	Given []string `json:"-"`
	// Inferred, where not nil, says the costs were inferred from measured
	// points (package infer), not microbenchmarked: Samples is 0, Host the
	// points' machine where they name one, Lo and Hi each cost's range.
	Inferred *Inference `json:"inferred,omitempty"`
}

// Inference is how a calibration's costs were inferred from measured points.
type Inference struct {
	// From names the files; Points and Runs are the configurations and
	// runs used, on CPUs.
	From   []string `json:"from"`
	Points int      `json:"points"`
	Runs   int      `json:"runs"`
	CPUs   []int    `json:"cpus"`
	// Runtime is the Go runtime whose scheduler the model followed ("",
	// "go1.9"): the costs are that scheduler's.
	Runtime string `json:"runtime,omitempty"`
	// Inferred names by flag the costs the points constrain; Kept those
	// they do not, which keep Base's values and intervals.
	Inferred []string            `json:"inferred"`
	Kept     []string            `json:"kept"`
	Base     results.Calibration `json:"base"`
	// Tolerance is how much farther outside its runs' band (relative) than
	// the best fit a consistent set of costs may put a point's throughput
	// or median latency.
	Tolerance float64 `json:"tolerance"`
	// Sets are costs consistent with the points, which a band simulates
	// (model.Range.Sets): each constrained cost in turn at either edge of
	// its range, and every kept one at Base's low, then high, edges.
	Sets        []sim.Costs `json:"sets,omitempty"`
	Fit         []PointFit  `json:"fit,omitempty"`
	Refused     []string    `json:"refused,omitempty"` // what it could not use, and why
	Evaluations int         `json:"evaluations"`       // the sets of costs it simulated every point with
}

// PointFit is how far the inferred costs' prediction of a point's
// throughput and median latency lies outside its runs' band, relative to
// the nearer edge (0 inside).
type PointFit struct {
	Point      string  `json:"point"`
	Throughput float64 `json:"throughput"`
	P50        float64 `json:"p50"`
}

// costNames name the costs in the order brewput calibrate prints them; a
// cost's flag (Field's, and brewput model's) is its name with dashes.
var costNames = []string{"wake", "spin wake", "spin window", "switch", "mutex handoff", "chan handoff", "buf chan handoff", "runnext grace", "mutex spin"}

// Field is the cost of c that flag names; nil for no cost.
func Field(c *sim.Costs, flag string) *time.Duration {
	return map[string]*time.Duration{"wake": &c.Wake, "spin-wake": &c.SpinWake, "spin-window": &c.SpinWindow, "switch": &c.Switch,
		"mutex-handoff": &c.MutexHandoff, "chan-handoff": &c.ChanHandoff, "buf-chan-handoff": &c.BufChanHandoff, "runnext-grace": &c.RunnextGrace,
		"mutex-spin": &c.MutexSpin}[flag]
}

// Rows lists c's costs with their intervals, as brewput calibrate prints them.
func (c Calibration) Rows() []results.Cost {
	var out []results.Cost
	for _, name := range costNames {
		flag := strings.ReplaceAll(name, " ", "-")
		out = append(out, results.Cost{Name: name, Median: *Field(&c.Costs, flag), Lo: *Field(&c.Lo, flag), Hi: *Field(&c.Hi, flag)})
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
	ref := results.Calibration{Host: host, Date: c.Date, Others: c.Others, Forced: c.Forced, Unsaved: c.Unsaved, Given: slices.Clone(c.Given), Costs: c.Rows()}
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

// CostsOf is Ref's inverse for the costs: each cost's median, to the
// nanosecond; one ref does not name is 0 (an older calibration's Lock
// never spun).
func CostsOf(ref results.Calibration) (sim.Costs, error) {
	var c sim.Costs
	for _, k := range ref.Costs {
		d := Field(&c, k.Flag())
		if d == nil {
			return sim.Costs{}, fmt.Errorf("calibration %s: no cost %q", ref.For(), k.Name)
		}
		*d = k.Median
	}
	return c, nil
}

// PolicyOf is the policy model point p was made under, read back (its
// calibration's costs by CostsOf): simulating model.ConfigOf(p) under it
// gives p again. A measured point, or a go one naming no calibration, has
// none.
func PolicyOf(p results.Point) (model.Policy, error) {
	if p.Kind != results.KindShop || !p.IsModel() {
		return model.Policy{}, fmt.Errorf("%s on %d CPUs: a measured point, not a prediction", p.Mode, p.CPUs)
	}
	pol := model.Policy{Policy: results.Policy{Sched: p.Sched, Seed: p.Seed, Runtime: p.Runtime}}
	if pol.Sched == "" {
		pol.Sched = model.DefaultSched
	}
	if pol.Sched != "go" {
		return pol, nil
	}
	if p.Calibration == nil {
		return model.Policy{}, fmt.Errorf("%s on %d CPUs: a go prediction that names no calibration", p.Mode, p.CPUs)
	}
	c, err := CostsOf(*p.Calibration)
	if err != nil {
		return model.Policy{}, err
	}
	pol.Costs = c
	pol.Background = p.Background
	return pol, nil
}
