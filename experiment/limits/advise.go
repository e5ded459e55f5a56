package limits

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

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
	now, b := pr.Now, pr.Bottleneck
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
