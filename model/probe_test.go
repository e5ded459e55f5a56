package model

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/brewput/brewput/results"
)

// A probe ends at the first of its windows that counts ProbeCycles drinks
// a customer; its throughput is within the precision that count gives of
// the full window's, and carried to the point's window it is the point's
// own where it simulates the very same configuration.
func TestProbeEndsEarlyAndCarriesToItsPoint(t *testing.T) {
	for _, mode := range []string{"finelocking", "multi-2", "linearpipe-1"} {
		cfg := DefaultConfig(4)
		cfg.Mode, cfg.Policy.Sched, cfg.Costs, cfg.Dur = mode, "go", fixedCosts(), 30*time.Second
		full, err := simulateOne(cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		if full.Window != cfg.Dur || len(full.Tally) == 0 {
			t.Fatalf("%s: the point measured %v with %d checkpoints; want its 30 s and a tally", mode, full.Window, len(full.Tally))
		}
		cfg.Probe = true
		p, err := simulateOne(cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(probeWindows(), p.Window) || p.Lattes < ProbeCycles*4 {
			t.Fatalf("%s: the probe measured %v, %d drinks; want one of %v, at least %d drinks", mode, p.Window, p.Lattes, probeWindows(), ProbeCycles*4)
		}
		if i := slices.Index(probeWindows(), p.Window); i > 0 && full.Tally[i-1].Lattes >= ProbeCycles*4 {
			t.Errorf("%s: the probe ran to %v where %v counted enough", mode, p.Window, probeWindows()[i-1])
		}
		if d := math.Abs(p.Throughput/full.Throughput - 1); d > 1.0/ProbeCycles {
			t.Errorf("%s: the probe's %.2f/s is %.3f %% from the window's %.2f/s; want within %.1f %%", mode, p.Throughput, 100*d, full.Throughput, 100.0/ProbeCycles)
		}
		if got := full.carry(p).Throughput; got != full.Throughput {
			t.Errorf("%s: the probe carried to the point's window gives %v/s; want the point's own %v/s", mode, got, full.Throughput)
		}
		if p.CPUUtil <= 0 || p.CPUUtil > 1 {
			t.Errorf("%s: the probe's CPU utilization %v is not over its own window", mode, p.CPUUtil)
		}
	}
}

// A window as short as MinProbeWindow, or an open loop, is simulated in
// full, probe or not.
func TestProbeOfAShortWindowRunsInFull(t *testing.T) {
	cfg := DefaultConfig(2)
	cfg.Mode, cfg.Policy.Sched, cfg.Costs, cfg.Dur, cfg.Probe = "finelocking", "go", fixedCosts(), MinProbeWindow, true
	open := cfg
	open.Dur, open.Rate = 5*time.Second, 300
	for _, c := range []Config{cfg, open} {
		r, err := simulateOne(c, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Window != c.Dur || r.Tally != nil {
			t.Errorf("rate %v, %v: measured %v with %d checkpoints; want all of it, none", c.Rate, c.Dur, r.Window, len(r.Tally))
		}
	}
}

// A band's edge whose latencies hold steady ends at BandWindow, and an
// edge that simulates the point's own configuration, carried to the
// point's window, gives the point's throughput; one of a point no longer
// than BandWindow runs the whole window. Simulate's band spans the point.
func TestBandEdgeEndsAtBandWindow(t *testing.T) {
	for _, mode := range []string{"finelocking", "linearpipe-1"} {
		cfg := DefaultConfig(4)
		cfg.Mode, cfg.Policy.Sched, cfg.Costs, cfg.Dur = mode, "go", fixedCosts(), 40*time.Second
		full, err := simulateOne(cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		e := cfg
		e.edge = true
		edge, err := simulateOne(e, nil)
		if err != nil {
			t.Fatal(err)
		}
		if edge.Window != BandWindow || full.carry(edge).Throughput != full.Throughput {
			t.Errorf("%s: the edge measured %v, carried %v/s; want %v, the point's %v/s", mode, edge.Window, full.carry(edge).Throughput, BandWindow, full.Throughput)
		}
		e.Dur = BandWindow
		if short, err := simulateOne(e, nil); err != nil || short.Window != BandWindow {
			t.Errorf("%s: an edge of a %v point measured %v (%v); want all of it", mode, BandWindow, short.Window, err)
		}
		rng := Range{Lo: fixedCosts(), Hi: fixedCosts()}
		rng.Lo.Wake, rng.Hi.Wake = rng.Lo.Wake/2, rng.Hi.Wake*2
		cfg.Range = &rng
		banded, err := Simulate(context.Background(), []Config{cfg}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cfg.Edges() {
			if !c.edge {
				t.Errorf("%s: a band config %+v is not an edge", mode, c)
			}
		}
		p50 := results.Ms(full.Latency.P50)
		if b := banded[0].Band; b == nil || b.Throughput[0] > full.Throughput || b.Throughput[1] < full.Throughput || b.P50Ms[0] > p50 || b.P50Ms[1] < p50 {
			t.Errorf("%s: band %+v does not span the point, %v/s, p50 %v", mode, b, full.Throughput, full.Latency.P50)
		}
	}
}
