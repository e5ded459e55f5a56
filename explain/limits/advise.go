package limits

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// Advice is the answer to "what would help?" for one system
// (analysis.Advice, where it is kept); Cost, what a change adds.
type (
	Advice = analysis.Advice
	Cost   = analysis.Cost
)

// whatIf is one structural change to simulate.
type whatIf struct {
	change, as string
	cost       Cost
	cfg        model.Config
}

// advise simulates the changes and ranks them with the causal profile's.
func advise(ctx context.Context, pr *CausalProfile, sched string, changes []whatIf) (*Advice, error) {
	cfgs := make([]model.Config, len(changes))
	for i, c := range changes {
		cfgs[i] = c.cfg
	}
	points, err := model.Simulate(ctx, cfgs, func(i int, _ results.Point, err error) error {
		if err != nil {
			return fmt.Errorf("what if %s (%s): %w", changes[i].change, changes[i].as, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	now := pr.Now
	b := pr.Bottleneck
	a := &Advice{System: pr.System, Mode: now.Mode, CPUs: now.CPUs, Unit: now.Unit, Sched: cmp.Or(sched, "go"), Model: b.Model,
		Now: outcome(now)}
	a.Now.Bottleneck = &b
	option := func(change, as, kind string, cost Cost, got analysis.Outcome) analysis.Option {
		o := analysis.Option{Change: change, As: as, Kind: kind, Cost: cost, Outcome: got}
		if now.Throughput > 0 {
			o.ThroughputGain = got.Throughput/now.Throughput - 1
		}
		if now.Latency.P50 > 0 {
			o.LatencyGain = 1 - got.P50Ms/now.Latency.P50
		}
		return o
	}
	for _, tr := range pr.Trials {
		a.Options = append(a.Options, option(tr.Change, tr.As, tr.Kind, tr.Cost, tr.Outcome))
	}
	if c := pr.Combined; c != nil {
		a.Options = append(a.Options, option(c.Change, c.As, c.Kind, c.Cost, c.Outcome))
	}
	for i, t := range changes {
		a.Options = append(a.Options, option(t.change, t.as, analysis.Structural, t.cost, outcome(points[i])))
	}
	// As Advice.Options says; a design before the same made of reliefs.
	slices.SortStableFunc(a.Options, func(x, y analysis.Option) int {
		pct := func(f float64) float64 { return math.Round(100 * f) }
		hurts := func(o analysis.Option) int { return b2i(o.LatencyGain <= -0.05) }
		return cmp.Or(cmp.Compare(pct(y.ThroughputGain), pct(x.ThroughputGain)), cmp.Compare(hurts(x), hurts(y)),
			cmp.Compare(x.Cost.Weight(), y.Cost.Weight()), cmp.Compare(pct(y.LatencyGain), pct(x.LatencyGain)),
			cmp.Compare(b2i(y.Kind == analysis.Structural), b2i(x.Kind == analysis.Structural)))
	})
	a.Answer = answer(a)
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

// answer says in a line what limits the system and what would help most.
func answer(a *Advice) string {
	now := fmt.Sprintf("%s makes %.0f %s, limited by %s", a.System, a.Now.Throughput, a.Unit, LimitedBy(a.Now.Bottleneck))
	if len(a.Options) == 0 || a.Options[0].ThroughputGain <= MinGain {
		best := ""
		for _, o := range a.Options {
			if o.LatencyGain >= 0.05 && o.ThroughputGain > -0.01 {
				best = fmt.Sprintf("; %s (%s) cuts the median latency by %.0f %%", o.Change, o.As, 100*o.LatencyGain)
				break
			}
		}
		return fmt.Sprintf("%s. None of the %d changes tried raises throughput by more than 1 %%%s.", now, len(a.Options), best)
	}
	o := a.Options[0]
	return fmt.Sprintf("%s. Best change: %s (%s): %.0f %s (%s), median latency %s (%s); it costs %s.",
		now, o.Change, o.As, o.Throughput, a.Unit, format.Gain(o.ThroughputGain), format.Wait(o.P50Ms), latencyChange(o.LatencyGain), o.Cost)
}

// LimitedBy says a verdict briefly: "the grinder (another grinder: +13 %)".
func LimitedBy(b *results.Bottleneck) string {
	if b == nil {
		return "nothing known"
	}
	who := b.Named
	switch {
	case b.Resource == "arrivals":
		return "its arrivals (it keeps up; no relief raises throughput)"
	case b.Resource == "none":
		return "nothing any relief tried can lift by more than 1 %"
	case b.Combined != nil:
		return fmt.Sprintf("%s together (no single relief gains more than 1 %%; %s: %s)", who, b.Combined.Change, format.Gain(b.Gain))
	}
	best := b.Experiments[0]
	if len(b.Resources) > 1 {
		who += " together"
	}
	return fmt.Sprintf("%s (%s: %s)", who, best.Change, format.Gain(best.Gain))
}

func latencyChange(g float64) string {
	if math.Abs(g) < 0.005 {
		return "unchanged"
	}
	if g > 0 {
		return fmt.Sprintf("%.0f %% less", 100*g)
	}
	return fmt.Sprintf("%.0f %% more", -100*g)
}
