package calibrate

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/curves"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
)

// Calibration is what Measure found on one machine.
type Calibration struct {
	Host results.Host `json:"host"`
	Date time.Time    `json:"date,omitzero"` // when it was measured
	// Costs are each cost's median over the repeats' medians; Lo and Hi
	// that median's 95 % confidence interval.
	Costs sim.Costs `json:"costs"`
	Lo    sim.Costs `json:"costs_lo,omitzero"`
	Hi    sim.Costs `json:"costs_hi,omitzero"`
	// Samples is each microbenchmark's runs per repeat.
	Samples int `json:"samples"`
	Repeats int `json:"repeats,omitempty"`
	// Dists are the 0th to 100th percentiles of every sample of each cost,
	// by sim.Costs' JSON names.
	Dists map[string][]time.Duration `json:"distributions,omitempty"`
	// Others is the CPUs other processes used while Measure ran; Waited
	// how long it first waited for a quiet machine.
	Others  float64       `json:"others_cpus"`
	Waited  time.Duration `json:"waited_ns,omitempty"`
	Forced  bool          `json:"forced,omitempty"`  // saved although the machine was busy (--force)
	Unsaved bool          `json:"unsaved,omitempty"` // measured on a busy machine and not kept (Default)
	// Note says what could not be measured and what was used instead.
	Note string `json:"note,omitempty"`
	// Given names by flag the costs Override put in place, in order; not saved.
	Given []string `json:"-"`
	// Earlier are this machine's earlier quiet calibrations, newest first
	// (After); a band spans their costs' intervals too (Span).
	Earlier []Earlier `json:"earlier,omitempty"`
	// SetAside, where not nil, is the busy machine's calibration these
	// costs are used in place of (Hedged).
	SetAside *results.SetAside `json:"set_aside,omitempty"`
	// Curves are how contended shapes scale on this machine's cores.
	Curves *curves.Curves `json:"curves,omitempty"`
	// Format is the file's version: before 1 the transfer was half a
	// round trip (Load halves it).
	Format int `json:"format,omitempty"`
}

// fileFormat is the version of the file Measure's calibrations are saved as.
const fileFormat = 1

// costNames name the costs in the order brewput calibrate prints them; a
// cost's flag (Field's, and brewput model's) is its name with dashes.
var costNames = []string{"wake", "spin wake", "spin window", "switch", "mutex handoff", "chan handoff", "buf chan handoff", "runnext grace", "mutex spin", "runtime lock", "transfer"}

// Field is the cost of c that flag names; nil for no cost.
func Field(c *sim.Costs, flag string) *time.Duration {
	return map[string]*time.Duration{"wake": &c.Wake, "spin-wake": &c.SpinWake, "spin-window": &c.SpinWindow, "switch": &c.Switch,
		"mutex-handoff": &c.MutexHandoff, "chan-handoff": &c.ChanHandoff, "buf-chan-handoff": &c.BufChanHandoff, "runnext-grace": &c.RunnextGrace,
		"mutex-spin": &c.MutexSpin, "runtime-lock": &c.RuntimeLock, "transfer": &c.Transfer.Socket}[flag]
}

// Rows lists c's costs with their intervals, as brewput calibrate prints them.
func (c Calibration) Rows() []results.Cost { return c.rows(c.Lo, c.Hi) }

// rows are c's costs, each with its edges in lo and hi.
func (c Calibration) rows(lo, hi sim.Costs) []results.Cost {
	var out []results.Cost
	for _, name := range costNames {
		flag := strings.ReplaceAll(name, " ", "-")
		out = append(out, results.Cost{Name: name, Median: *Field(&c.Costs, flag), Lo: *Field(&lo, flag), Hi: *Field(&hi, flag)})
	}
	return out
}

// Override puts d in place of the cost that flag names, its interval d
// alone, and Ref then says it was given.
func (c *Calibration) Override(flag string, d time.Duration) error {
	if Field(&c.Costs, flag) == nil {
		return fmt.Errorf("calibrate: no cost %q", flag)
	}
	for _, cs := range []*sim.Costs{&c.Costs, &c.Lo, &c.Hi} {
		*Field(cs, flag) = d
	}
	c.Earlier = slices.Clone(c.Earlier)
	for i := range c.Earlier {
		e := &c.Earlier[i]
		for _, cs := range []*sim.Costs{&e.Costs, &e.Lo, &e.Hi} {
			*Field(cs, flag) = d
		}
	}
	c.Given = append(c.Given, flag)
	return nil
}

// Ref names c for the model points that use it: host, date, how busy the
// machine was, every cost with the range a band spans, and those given
// (Override).
func (c Calibration) Ref() results.Calibration {
	host := c.Host.Name
	switch {
	case c.Samples == 0:
		host = "none"
	case host == "":
		host = "an unnamed host"
	}
	ref := results.Calibration{Host: host, Date: c.Date, Others: c.Others, Forced: c.Forced, Unsaved: c.Unsaved, Given: slices.Clone(c.Given), Costs: c.rows(c.Span()), SetAside: c.SetAside}
	if len(c.Earlier) > 0 {
		ref.Calibrations, ref.Since = 1+len(c.Earlier), c.Since()
	}
	return ref
}

// Range is the uncertainty of c's costs for a band (Span); nil for none.
func (c Calibration) Range() *model.Range { return model.NewRange(c.Span()) }

// CostsOf is Ref's inverse for the costs: each cost's median; one ref
// does not name is 0.
func CostsOf(ref results.Calibration) (sim.Costs, error) {
	var c sim.Costs
	for _, k := range ref.Costs {
		d := Field(&c, k.Flag())
		if d == nil {
			return sim.Costs{}, fmt.Errorf("calibration %s: no cost %q", ref.Host, k.Name)
		}
		*d = k.Median
	}
	return c, nil
}

// PolicyOf is the policy model point p was made under, read back:
// simulating model.ConfigOf(p) under it gives p again.
func PolicyOf(p results.Point) (model.Policy, error) {
	if p.Kind != results.KindShop || !p.IsModel() {
		return model.Policy{}, fmt.Errorf("%s on %d CPUs: a measured point, not a prediction", p.Mode, p.CPUs)
	}
	pol := model.Policy{Policy: results.Policy{Sched: p.Sched, Seed: p.Seed}}
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
