package limits

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// Advice is the answer to "what would help?" for one system
// (analysis.Advice, where it is kept); Cost, what a change adds.
type (
	Advice = analysis.Advice
	Cost   = analysis.Cost
)

// Advise is cfg's causal profile and the structural changes that apply,
// simulated and ranked together: the talk's for the shop (another copy of
// each machine or line, buffers, a split critical section), one more unit
// of every resource for a YAML system, and twice the CPUs.
func Advise(ctx context.Context, cfg model.Config) (*Advice, error) {
	var pr *CausalProfile
	err := CausalProfiles(ctx, []model.Config{cfg}, EveryRelief, func(_ int, p *CausalProfile, err error) error {
		pr = p
		return err
	})
	if err != nil {
		return nil, err
	}
	var changes []whatIf
	if b := cfg.System; b != nil {
		changes = systemWhatIfs(cfg, b)
	} else {
		changes = shopWhatIfs(cfg)
	}
	// Twice the CPUs (the causal profile has one more, and twice the customers).
	more := cfg
	more.CPUs *= 2
	becomes := []analysis.Setting{{Kind: analysis.SetCPUs, N: float64(more.CPUs)}}
	cost := Cost{CPUs: cfg.CPUs}
	if perCPU(cfg) {
		who := map[bool]string{false: "customer", true: "server"}[cfg.Rate > 0]
		if cfg.System != nil {
			who = ""
		}
		becomes = append(becomes, analysis.Setting{Kind: analysis.SetEach, Who: who})
		cost.Goroutines = cfg.Resolve().Par
	}
	changes = append(changes, whatIf{said: []results.Relief{{Kind: analysis.TwiceCPUs}}, becomes: becomes, cost: cost, cfg: more})
	return advise(ctx, pr, cfg.Policy.Sched, changes)
}

// shopWhatIfs are the changes of design cfg's mode declares and, in a
// pipeline with a buffer under 10, more buffer; each costs what it adds.
func shopWhatIfs(cfg model.Config) []whatIf {
	mode := coffee.MustParseMode(cfg.Mode)
	f := coffee.FamilyOf(mode)
	par := cfg.Resolve().Par
	var changes []whatIf
	add := func(w whatIf, to coffee.Mode) {
		c := cfg
		c.Mode, c.Variant = to.String(), coffee.Variant{}
		w.becomes, w.cost, w.cfg = []analysis.Setting{{Kind: analysis.SetSystem, Of: c.Mode}}, added(built(mode, par), built(to, par)), c
		changes = append(changes, w)
	}
	for _, n := range f.Neighbours {
		add(whatIf{design: n.Change}, n.Of(mode))
	}
	if f.Shape.N == coffee.ChannelBuffer && mode.N < 10 {
		to := 1
		if mode.N > 0 {
			to = 10
		}
		add(whatIf{said: []results.Relief{{Kind: analysis.Buffers, Count: to}}}, coffee.Mode{Family: mode.Family, N: to})
	}
	return changes
}

// built is what mode m's shop is made of, with par customers: machines,
// locks, goroutines beside the customers' and channel slots.
func built(m coffee.Mode, par int) Cost {
	p := blueprint.Shop(m, coffee.DefaultSteps(), coffee.Variant{}).Parts()
	c := Cost{Machines: p.Machines, Locks: p.Locks, Goroutines: p.Stages, BufferSlots: p.Slots, BufferBytes: p.Slots * coffee.TicketBytes}
	if f := coffee.FamilyOf(m).Shape; f.Holds == coffee.MachineLocks && f.Forked {
		c.Goroutines += par // each customer steams on a goroutine of its own
	}
	return c
}

// added is what changing a shop built of from into one built of to adds:
// fewer machines, locks or goroutines cost nothing; fewer slots save memory.
func added(from, to Cost) Cost {
	return Cost{Machines: max(0, to.Machines-from.Machines), Locks: max(0, to.Locks-from.Locks),
		Goroutines: max(0, to.Goroutines-from.Goroutines), BufferSlots: to.BufferSlots - from.BufferSlots,
		BufferBytes: to.BufferBytes - from.BufferBytes}
}

// perCPU reports whether cfg has a worker a CPU (--par 0, or the file).
func perCPU(cfg model.Config) bool {
	b := cfg.System
	if b == nil || cfg.Par > 0 {
		return cfg.Par == 0
	}
	if cfg.Resolve().Rate > 0 {
		return b.Load.Servers == 0
	}
	return b.Load.Customers == 0
}

// whatIf is a change of design: a family's declared one (design), or
// another (said), what the system becomes, and what it costs.
type whatIf struct {
	design  string
	said    []results.Relief
	becomes []analysis.Setting
	cost    Cost
	cfg     model.Config
}

// advise simulates the changes and ranks them with the causal profile's.
func advise(ctx context.Context, pr *CausalProfile, sched string, changes []whatIf) (*Advice, error) {
	cfgs := collect.Mapped(changes, func(c whatIf) model.Config { return c.cfg })
	points, err := model.Simulate(ctx, cfgs, func(i int, _ results.Point, err error) error {
		if err != nil {
			c := changes[i].cfg
			return fmt.Errorf("what if %s on %d CPUs, changed as advised: %w", cmp.Or(c.Mode, "the system"), c.CPUs, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	now, b := pr.Now, pr.Bottleneck
	a := &Advice{System: pr.System, Mode: now.Mode, CPUs: now.CPUs, Unit: now.Unit, Sched: cmp.Or(sched, "go"), Model: b.Model,
		Now: outcome(now)}
	a.Now.Bottleneck = &b
	option := func(said []results.Relief, becomes []analysis.Setting, kind string, cost Cost, got analysis.Outcome) analysis.Option {
		o := analysis.Option{Reliefs: said, Becomes: becomes, Kind: kind, Cost: cost, Outcome: got}
		if now.Throughput > 0 {
			o.ThroughputGain = got.Throughput/now.Throughput - 1
		}
		if now.Latency.P50 > 0 {
			o.LatencyGain = 1 - got.P50Ms/now.Latency.P50
		}
		return o
	}
	for _, tr := range pr.Trials {
		a.Options = append(a.Options, option(tr.Reliefs, tr.Becomes, tr.Kind, tr.Cost, tr.Outcome))
	}
	if c := pr.Combined; c != nil {
		a.Options = append(a.Options, option(c.Reliefs, c.Becomes, c.Kind, c.Cost, c.Outcome))
	}
	for i, t := range changes {
		o := option(t.said, t.becomes, analysis.Structural, t.cost, outcome(points[i]))
		o.Design = t.design
		a.Options = append(a.Options, o)
	}
	// As Advice.Options says; a design before the same made of reliefs.
	slices.SortStableFunc(a.Options, func(x, y analysis.Option) int {
		pct := func(f float64) float64 { return math.Round(100 * f) }
		hurts := func(o analysis.Option) int { return b2i(o.LatencyGain <= -0.05) }
		return cmp.Or(cmp.Compare(pct(y.ThroughputGain), pct(x.ThroughputGain)), cmp.Compare(hurts(x), hurts(y)),
			cmp.Compare(x.Cost.Weight(), y.Cost.Weight()), cmp.Compare(pct(y.LatencyGain), pct(x.LatencyGain)),
			cmp.Compare(b2i(y.Kind == analysis.Structural), b2i(x.Kind == analysis.Structural)))
	})
	return a, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func outcome(p results.Point) analysis.Outcome {
	return analysis.Outcome{Throughput: p.Throughput, P50Ms: p.Latency.P50, P99Ms: p.Latency.P99, MeanMs: p.Latency.Mean}
}
