package limits

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// MinGain is the least gain that helps; gains within Tie are equal.
const (
	MinGain = 0.01
	Tie     = 0.01
)

// CausalProfile is a causal profile of one configuration.
type CausalProfile struct {
	System string        // names the configuration: "finelocking on 6 CPUs"
	Now    results.Point // the point as it is
	Config *model.Config // the shop's configuration as it is; nil for a YAML system
	Trials []Trial       // the reliefs tried, best first
	// Combined: the smallest combination gaining over MinGain, where no single relief does.
	Combined   *Trial
	Bottleneck results.Bottleneck // the verdict; zero at depth PointsOnly
}

// Depth is how far a simulation goes at each point.
type Depth int

const (
	EveryRelief Depth = iota // every relief tried, and the verdict
	PointsOnly               // each point as it is, with its band
)

// Trial is one experiment: what changed, what it costs, what it gave.
type Trial struct {
	results.Experiment
	// Becomes is what the system becomes: "finelocking, 2 grinders".
	Becomes []analysis.Setting
	Config  *model.Config // for the shop, what to run on real CPUs to try it
	Cost    Cost
	// Outcome is what the trial's point gave; the point itself is not kept.
	Outcome analysis.Outcome
	named   []string
}

// target is a system a causal profile relieves, as it is, without a band,
// and its blueprint: a YAML system's file, or the shop's mode compiled
// from what its family declares.
type target struct {
	cfg  model.Config
	b    *blueprint.Blueprint
	shop bool
	mode coffee.Mode // the shop's
}

func newTarget(cfg model.Config) (target, error) {
	if err := cfg.Validate(); err != nil {
		return target{}, err
	}
	return targetOf(cfg), nil
}

// targetOf is cfg as a causal profile's target, unchecked: validating builds
// the system, which an estimate must not.
func targetOf(cfg model.Config) target {
	t := target{cfg: cfg, b: cfg.System, shop: cfg.System == nil}
	t.cfg.Range = nil
	if t.shop {
		t.mode, _ = coffee.ParseMode(cfg.Mode)
		t.b = blueprint.Shop(t.mode, cfg.Steps, cfg.Variant)
	}
	return t
}

func (s target) model() string { return ModelLabel(s.cfg.Policy.Sched, s.cfg.Costs) }

func (s target) openLoop() float64 { return s.cfg.Resolve().Rate }

// load is the configuration with k's CPUs and customers: the same
// customers on more CPUs, unless k says more.
func (s target) load(k knobs) model.Config {
	c := s.cfg
	if k.cpus > 0 {
		c.CPUs += k.cpus
		c.Par = s.cfg.Resolve().Par
	}
	if k.customers > 0 {
		c.Par = k.customers
	}
	return c
}

func (s target) system() string {
	return fmt.Sprintf("%s on %s", s.b.Name, format.Count(s.cfg.CPUs, "CPU"))
}

// loadSettings begin what k makes of the system: its name, and its CPUs
// and customers where k changes them.
func (s target) loadSettings(k knobs) []analysis.Setting {
	set := []analysis.Setting{{Kind: analysis.SetSystem, Of: s.b.Name}}
	if k.cpus > 0 || k.customers > 0 {
		c := s.load(k)
		set = append(set, analysis.Setting{Kind: analysis.SetCPUs, N: float64(c.CPUs)},
			analysis.Setting{Kind: analysis.SetLoad, N: float64(c.Resolve().Par), Who: s.who()})
	}
	return set
}

func (s target) who() string {
	if s.openLoop() > 0 {
		return "server"
	}
	return "customer"
}

// CausalProfiles profiles each configuration at depth in one
// model.Simulate (which simulates once a relief that is another's point)
// and hands each causal profile, or why it failed, to each in order as
// soon as it is done. An error from each stops it, as ctx's.
func CausalProfiles(ctx context.Context, cfgs []model.Config, depth Depth, each func(i int, pr *CausalProfile, err error) error) error {
	type plan struct {
		t        target
		err      error
		rs       []relief
		from, to int // its simulations in runs
	}
	plans := make([]plan, len(cfgs))
	var runs []model.Config
	var now []bool // a point as it is, not a relief's trial
	for i, c := range cfgs {
		p := &plans[i]
		p.from = len(runs)
		if p.t, p.err = newTarget(c); p.err == nil {
			asIs := p.t.simulated(knobs{})
			asIs.Range = c.Range
			runs, now = append(runs, asIs), append(now, true)
			if depth == EveryRelief {
				p.rs = p.t.reliefs()
				for _, r := range p.rs {
					runs, now = append(runs, p.t.simulated(r.k)), append(now, false)
				}
			}
		}
		p.to = len(runs)
	}
	points := make([]results.Point, len(runs))
	errs := make([]error, len(runs))
	next := 0
	// hand hands on, in order, every causal profile whose runs are done.
	hand := func(done int) error {
		for ; next < len(plans) && plans[next].to <= done; next++ {
			p := &plans[next]
			var pr *CausalProfile
			err := p.err
			if err == nil {
				pr, err = finish(ctx, p.t, p.rs, points[p.from:p.to], errs[p.from:p.to], depth == PointsOnly)
			}
			clear(points[p.from:p.to]) // the causal profile keeps what it compares
			if err := each(next, pr, err); err != nil {
				return err
			}
		}
		return nil
	}
	if err := hand(0); err != nil {
		return err
	}
	_, err := model.Simulate(ctx, runs, func(j int, p results.Point, err error) error {
		if !now[j] && p.Shop != nil {
			// A relief's trial compares throughput and latency; its
			// reading of every resource would grow with their square.
			p.Shop.Machines = nil
		}
		points[j], errs[j] = p, err
		return hand(j + 1)
	})
	if err != nil {
		return err
	}
	return hand(len(runs))
}

// Simulations is how many simulations profiling cfg at depth takes at
// most: the point, each relief, and, where no single relief helps, the
// search for the smallest combination that does.
func Simulations(cfg model.Config, depth Depth) int {
	if depth == PointsOnly {
		return 1
	}
	if _, err := coffee.ParseMode(cfg.Mode); err != nil && cfg.System == nil {
		return 1 // refused later, as it is
	}
	rs := targetOf(cfg).reliefs()
	mains := map[string]bool{}
	for _, r := range rs {
		mains[r.named[0]] = true
	}
	return 1 + len(rs) + 1 + len(mains)
}

// finish is t's causal profile from its simulations (the point alone if bare).
func finish(ctx context.Context, t target, rs []relief, points []results.Point, errs []error, bare bool) (*CausalProfile, error) {
	if errs[0] != nil {
		return nil, fmt.Errorf("%s, as it is: %w", t.system(), errs[0])
	}
	pr := &CausalProfile{System: t.system(), Now: points[0]}
	if c, ok := t.config(knobs{}); ok {
		pr.Config = &c
	}
	if bare {
		return pr, nil
	}
	for n, r := range rs {
		if errs[n+1] != nil {
			return nil, fmt.Errorf("%s, a relief of kind %s of %s: %w", t.system(), r.kind, r.said.Of, errs[n+1])
		}
		pr.Trials = append(pr.Trials, trial(t, r, pr.Now, points[n+1]))
	}
	// Best first; equal gains keep the order tried.
	slices.SortStableFunc(pr.Trials, func(a, b Trial) int { return cmp.Compare(b.Gain, a.Gain) })
	if len(pr.Trials) == 0 || pr.Trials[0].Gain <= MinGain {
		c, err := combine(ctx, t, pr, rs)
		if err != nil {
			return nil, err
		}
		pr.Combined = c
	}
	pr.Bottleneck = verdict(t, pr)
	return pr, nil
}

// trial is relief r's experiment, from the point it gave against now.
func trial(t target, r relief, now, p results.Point) Trial {
	said := r.parts
	if said == nil {
		said = []results.Relief{r.said}
	}
	e := results.Experiment{Kind: r.kind, Reliefs: said, Resources: r.relieves,
		Throughput: p.Throughput, P50Ms: p.Latency.P50, P99Ms: p.Latency.P99}
	if now.Throughput > 0 {
		e.Gain = p.Throughput/now.Throughput - 1
	}
	if p.Dur.Seconds() < now.Dur.Seconds() {
		e.WindowS = p.Dur.Seconds() // a probe: its latencies are not the point's window's
	} else {
		if now.Latency.P50 > 0 {
			e.P50Change = p.Latency.P50/now.Latency.P50 - 1
		}
		if now.Latency.P99 > 0 {
			e.P99Change = p.Latency.P99/now.Latency.P99 - 1
		}
	}
	tr := Trial{Experiment: e, Becomes: t.becomes(r.k), Cost: r.cost, Outcome: outcome(p), named: r.named}
	if c, ok := t.config(r.k); ok {
		tr.Config = &c
	}
	return tr
}

// combine is the smallest combination of reliefs found gaining more than
// MinGain (nil if none): every resource relieved at once, then one after
// another dropped while the rest still helps, in rank's order.
func combine(ctx context.Context, t target, pr *CausalProfile, rs []relief) (*Trial, error) {
	byRes := map[string]int{} // a resource's preferred relief, of rs
	var order []string
	for i, r := range rs {
		main := r.named[0]
		cur, ok := byRes[main]
		if !ok {
			order = append(order, main)
		}
		if !ok || r.preference() < rs[cur].preference() {
			byRes[main] = i
		}
	}
	if len(order) < 2 {
		return nil, nil
	}
	gainOf := map[string]float64{}
	for _, tr := range pr.Trials {
		for _, n := range tr.named {
			gainOf[n] = max(gainOf[n], tr.Gain)
		}
	}
	rank := func(res string) int {
		switch {
		case res == "customers" || res == "servers":
			return 0
		case strings.HasPrefix(res, "channel:"):
			return 1
		case rs[byRes[res]].kind == Shorter: // only a faster step relieves it
			return 2
		case res == "cpus":
			return 3
		}
		return 4
	}
	slices.SortStableFunc(order, func(a, b string) int { return cmp.Or(cmp.Compare(rank(a), rank(b)), cmp.Compare(gainOf[a], gainOf[b])) })

	try := func(set []string) (Trial, error) {
		var k knobs
		var parts []relief
		for i, r := range rs { // in the order tried
			if slices.Contains(set, r.named[0]) && byRes[r.named[0]] == i {
				k = k.merge(r.k)
				parts = append(parts, r)
			}
		}
		p, err := model.Simulate(ctx, []model.Config{t.simulated(k)}, nil)
		if err != nil {
			return Trial{}, fmt.Errorf("%s, combined: %w", t.system(), err)
		}
		return trial(t, combined(parts, k), pr.Now, p[0]), nil
	}
	set := slices.Clone(order)
	best, err := try(set)
	if err != nil || best.Gain <= MinGain {
		return nil, err
	}
	for _, res := range order {
		if len(set) == 1 {
			break
		}
		without := slices.DeleteFunc(slices.Clone(set), func(s string) bool { return s == res })
		tr, err := try(without)
		if err != nil {
			return nil, err
		}
		if tr.Gain > MinGain {
			set, best = without, tr
		}
	}
	return &best, nil
}

func combined(parts []relief, k knobs) relief {
	c := relief{kind: Combined, k: k}
	for _, p := range parts {
		c.parts = append(c.parts, p.said)
		c.named = collect.AppendNew(c.named, p.named...)
		c.relieves = collect.AppendNew(c.relieves, p.relieves...)
		c.cost = c.cost.Add(p.cost)
	}
	return c
}
