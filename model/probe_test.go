package model

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/brewput/brewput/coffee"
)

// A probe ends at the first of its windows that counts ProbeCycles drinks
// a customer; its throughput is within the precision that count gives of
// the full window's, and carried to the point's window it is the point's
// own where it simulates the very same configuration.
func TestProbeEndsEarlyAndCarriesToItsPoint(t *testing.T) {
	for _, mode := range []string{"finelocking", "multi-2", "linearpipe-1"} {
		cfg := DefaultConfig(4)
		cfg.Mode, cfg.Sched, cfg.Costs, cfg.Duration = coffee.MustParseMode(mode), "go", fixedCosts(), 30*time.Second
		full, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if full.Window != cfg.Duration || len(full.Tally) == 0 {
			t.Fatalf("%s: the point measured %v with %d checkpoints; want its 30 s and a tally", mode, full.Window, len(full.Tally))
		}
		cfg.Probe = true
		p, err := Run(cfg)
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
		if got := full.Carry(p).Throughput; got != full.Throughput {
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
	cfg.Mode, cfg.Sched, cfg.Costs, cfg.Duration, cfg.Probe = coffee.MustParseMode("finelocking"), "go", fixedCosts(), MinProbeWindow, true
	open := cfg
	open.Duration, open.Rate = 5*time.Second, 300
	for _, c := range []Config{cfg, open} {
		r, err := Run(c)
		if err != nil {
			t.Fatal(err)
		}
		if r.Window != c.Duration || r.Tally != nil {
			t.Errorf("rate %v, %v: measured %v with %d checkpoints; want all of it, none", c.Rate, c.Duration, r.Window, len(r.Tally))
		}
	}
}

// A band's edge whose latencies hold steady ends at BandWindow, and an
// edge that simulates the point's own configuration, carried to the
// point's window, gives the point's throughput; one of a point no longer
// than BandWindow runs the whole window. Run's own band spans the point.
func TestBandEdgeEndsAtBandWindow(t *testing.T) {
	for _, mode := range []string{"finelocking", "linearpipe-1"} {
		cfg := DefaultConfig(4)
		cfg.Mode, cfg.Sched, cfg.Costs, cfg.Duration = coffee.MustParseMode(mode), "go", fixedCosts(), 40*time.Second
		full, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		e := cfg
		e.Edge = true
		edge, err := Run(e)
		if err != nil {
			t.Fatal(err)
		}
		if edge.Window != BandWindow || full.Carry(edge).Throughput != full.Throughput {
			t.Errorf("%s: the edge measured %v, carried %v/s; want %v, the point's %v/s", mode, edge.Window, full.Carry(edge).Throughput, BandWindow, full.Throughput)
		}
		e.Duration = BandWindow
		if short, err := Run(e); err != nil || short.Window != BandWindow {
			t.Errorf("%s: an edge of a %v point measured %v (%v); want all of it", mode, BandWindow, short.Window, err)
		}
		rng := Range{Lo: fixedCosts(), Hi: fixedCosts()}
		rng.Lo.Wake, rng.Hi.Wake = rng.Lo.Wake/2, rng.Hi.Wake*2
		cfg.Range = &rng
		banded, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cfg.BandConfigs() {
			if !c.Edge {
				t.Errorf("%s: a band config %+v is not an edge", mode, c)
			}
		}
		if b := banded.Band; b == nil || b.ThroughputLo > full.Throughput || b.ThroughputHi < full.Throughput || b.P50Lo > full.Latency.P50 || b.P50Hi < full.Latency.P50 {
			t.Errorf("%s: band %+v does not span the point, %v/s, p50 %v", mode, banded.Band, full.Throughput, full.Latency.P50)
		}
	}
}
