package blueprint_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/results"
)

// result is a simulated point as these tests check it, read back from
// what model.Simulate gives: durations as durations, and a bound that
// nothing sets as +Inf, as the model computes them.
type result struct {
	Lattes, Drops, Arrived, growth int
	Throughput, CPUUtil, Little    float64
	Latency                        model.Latency
	Service                        *model.Latency
	Machines                       []use
	Bounds                         model.Bounds
	Warmup, Window                 time.Duration
	Sched                          string
	Seed                           uint64
}

// use is a resource's or stage's use as these tests check it.
type use struct {
	Name                  string
	Uses                  int64
	BusyFrac, WorkingFrac float64
	MeanWait              time.Duration
}

func (r result) Growth() int  { return r.growth }
func (r result) Steady() bool { return results.QueueSteady(r.growth, r.Arrived) }

// fifo is a configuration of the exact tests: n CPUs under fifo, 1 s after
// a 100 ms warm-up, which puts the window in the steady state. Every
// example with fixed durations settles into a cycle that divides 1 s, so
// the window holds an exact number of orders.
func fifo(n int) model.Config {
	c := model.SystemConfig(new(blueprint.Blueprint), n)
	c.Policy.Sched = "fifo"
	return c
}

// goAt is b on n CPUs under the go policy, with no costs.
func goAt(n int) model.Config { return model.SystemConfig(new(blueprint.Blueprint), n) }

// simulate runs b at cfg.
func simulate(b *blueprint.Blueprint, cfg model.Config) (result, error) {
	cfg.System, cfg.Mode = b, b.Name
	return simulateConfig(cfg)
}

// simulateConfig runs cfg.
func simulateConfig(cfg model.Config) (result, error) {
	ps, err := model.Simulate(context.Background(), []model.Config{cfg}, nil)
	if err != nil {
		return result{}, err
	}
	return resultOf(ps[0]), nil
}

// run runs b at cfg and fails the test on an error.
func run(t *testing.T, b *blueprint.Blueprint, cfg model.Config) result {
	t.Helper()
	r, err := simulate(b, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func resultOf(p results.Point) result {
	d := func(ms float64) time.Duration { return time.Duration(math.Round(ms * float64(time.Millisecond))) }
	s := func(s float64) time.Duration { return time.Duration(math.Round(s * float64(time.Second))) }
	lat := func(l results.Latency) model.Latency {
		return model.Latency{Min: d(l.Min), P05: d(l.P05), P25: d(l.P25), P50: d(l.P50), P75: d(l.P75), P90: d(l.P90),
			P95: d(l.P95), P99: d(l.P99), Max: d(l.Max), Mean: d(l.Mean)}
	}
	inf := func(x float64) float64 {
		if x == 0 {
			return math.Inf(1)
		}
		return x
	}
	r := result{Lattes: int(p.Ops), Drops: int(p.Metrics[results.Drops]), Arrived: p.Bounds.Arrived, growth: p.Bounds.Growth,
		Throughput: p.Throughput, CPUUtil: p.Metrics[results.Util], Little: p.Bounds.Little, Latency: lat(p.Latency),
		Bounds: model.Bounds{CPU: inf(p.Bounds.CPU), Structural: inf(p.Bounds.Structural), Resource: p.Bounds.Resource,
			ThroughputMax: inf(p.Bounds.ThroughputMax), Limit: p.Bounds.SetBy, LatencyMin: d(p.Bounds.LatencyMinMs)},
		Warmup: s(p.Warmup.Seconds()), Window: s(p.Dur.Seconds()), Sched: p.Sched, Seed: p.Seed}
	if p.Service != nil {
		svc := lat(*p.Service)
		r.Service = &svc
	}
	for _, m := range p.Machines() {
		r.Machines = append(r.Machines, use{Name: m.Name, Uses: m.Uses, BusyFrac: m.BusyFrac, WorkingFrac: m.WorkingFrac, MeanWait: d(m.MeanWaitMs)})
	}
	return r
}
