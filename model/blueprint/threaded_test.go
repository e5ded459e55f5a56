package blueprint_test

import (
	"context"
	"testing"
	"time"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/blueprint"
)

// banded simulates b at cfg, which has a Range, and returns its point and
// the band's edges against it.
func banded(t *testing.T, b *blueprint.Blueprint, cfg model.Config) (thr, lo, hi float64) {
	t.Helper()
	cfg.System, cfg.Mode = b, b.Name
	ps, err := model.Simulate(context.Background(), []model.Config{cfg}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := ps[0]
	if p.Band == nil {
		t.Fatalf("%s on %d CPUs: no band", b.Name, cfg.CPUs)
	}
	return p.Throughput, p.Band.Throughput[0] / p.Throughput, p.Band.Throughput[1] / p.Throughput
}

// TestBandThreaded: an unknown machine's CPUs may be hardware threads, two
// to a core (model.Hardware.Threaded): the band's slow edge also runs the
// point on such a machine, where two Ps busy on one core each run at
// about 0.62 of a core's speed. Customers that share nothing, on 8 CPUs:
// the band reaches down to about 0.62 of its point, and stays at it
// without the threads.
func TestBandThreaded(t *testing.T) {
	b := parse(t, `
steps:
  - {name: work, duration: 1us}`)
	for _, threaded := range []bool{false, true} {
		cfg := goAt(8)
		cfg.Range = &model.Range{Lo: cfg.Costs, Hi: cfg.Costs, Machine: &model.MachineRange{FastAll: 1, SlowAll: 1, Threaded: threaded}}
		cfg.Dur, cfg.Warmup = time.Millisecond, 100*time.Microsecond
		_, lo, _ := banded(t, b, cfg)
		switch {
		case threaded && (lo < 0.55 || lo > 0.7):
			t.Errorf("threaded: the band's low edge %.3f of the point, want about 0.62", lo)
		case !threaded && lo < 0.99:
			t.Errorf("not threaded: the band's low edge %.3f of the point, want 1", lo)
		}
	}
}

// TestBandPacked: on a machine of two sockets the operating system may
// spread the Ps over them, as the point does, or keep them on one first
// (model.MachineRange.Packed), which the band then also runs. Two
// customers taking one brief lock in turn on two CPUs move its line
// between them at every change of hands: between sockets at the point, at
// 150 ns, and within one in the packed runs, at 20 ns, so the band reaches
// well above its point where it spans the packing and stays at it where
// it does not.
func TestBandPacked(t *testing.T) {
	b := parse(t, `
resources:
  mu: 1
steps:
  - {name: outside, duration: 20ns}
  - {name: inside, duration: 20ns, holds: [mu]}`)
	move := model.MachineRange{FastAll: 1, SlowAll: 1}
	move.Fast.Socket, move.Fast.Remote = 20*time.Nanosecond, 150*time.Nanosecond
	move.Slow = move.Fast
	for _, packed := range []bool{false, true} {
		cfg := goAt(2)
		cfg.Costs.Transfer = move.Fast
		cfg.Machine.Sockets, cfg.Machine.CoresPerSocket, cfg.Machine.ThreadsPerCore = 2, 4, 1
		r := move
		r.Packed = packed
		cfg.Range = &model.Range{Lo: cfg.Costs, Hi: cfg.Costs, Machine: &r}
		cfg.Dur, cfg.Warmup = 200*time.Microsecond, 50*time.Microsecond
		thr, lo, hi := banded(t, b, cfg)
		t.Logf("packed %v: %.3g ops/s, band %.3g–%.3g of it", packed, thr, lo, hi)
		switch {
		case packed && hi < 1.5:
			t.Errorf("packed: the band's high edge %.2f of the point, want well above it", hi)
		case !packed && hi > 1.01:
			t.Errorf("spread only: the band's high edge %.2f of the point, want 1", hi)
		}
	}
}

// TestBandKnownMachineAllCore: on a machine whose costs were measured
// (model.Hardware.Known), how fast its cores run with every one busy was
// not: the band also runs each corner with the cores at 75 % from the
// second busy one on, keeping the calibration's cost of moving a line
// (and spanning how long a word stays at a core, which is not measured).
// Customers that share nothing, on 8 CPUs: the band reaches down to 0.75
// of its point; on one CPU it stays at it.
func TestBandKnownMachineAllCore(t *testing.T) {
	b := parse(t, `
steps:
  - {name: work, duration: 1us}`)
	hw := model.Hardware{Name: "this", Known: true}
	for _, n := range []int{1, 8} {
		cfg := goAt(n)
		cfg.Costs.Transfer.Socket = 40 * time.Nanosecond
		cfg.Range = &model.Range{Lo: cfg.Costs, Hi: cfg.Costs, Machine: hw.Range()}
		for _, e := range cfg.Edges() {
			if e.Costs.Transfer.Socket != cfg.Costs.Transfer.Socket {
				t.Fatalf("a known machine's edge moves lines at %+v, want its calibration's %+v", e.Costs.Transfer, cfg.Costs.Transfer)
			}
		}
		cfg.Dur, cfg.Warmup = time.Millisecond, 100*time.Microsecond
		_, lo, _ := banded(t, b, cfg)
		switch {
		case n == 8 && (lo < 0.73 || lo > 0.77):
			t.Errorf("8 CPUs: the band's low edge %.3f of the point, want 0.75", lo)
		case n == 1 && lo < 0.99:
			t.Errorf("1 CPU: the band's low edge %.3f of the point, want 1", lo)
		}
	}
}

// TestBandSpansWordStay: an atomic counter every one of 8 CPUs adds to
// (a {kind: word}) on an unknown machine: its point has the word stay at
// a core for half its move, and its band simulates each edge with the
// word staying none and all of it, so the band holds the band of no stay
// anywhere and reaches well above it. A mutex's word does not stay: the
// same counter behind a sync.Mutex predicts the same under any stay, and
// its band has fewer runs.
func TestBandSpansWordStay(t *testing.T) {
	counter := parse(t, `
name: counter
resources: {n: {kind: word}}
steps:
  - {name: add, duration: 6ns, writes: [n]}`)
	locked := parse(t, `
name: locked
resources: {mu: 1}
steps:
  - {name: add, duration: 6ns, holds: [mu]}`)
	hw := model.UnknownHardware(8)
	at := func(b *blueprint.Blueprint, stay float64, fastStay, slowStay float64) (thr, lo, hi float64, edges int) {
		cfg := goAt(8)
		cfg.Costs.Transfer, cfg.Machine = hw.Transfer, hw.Shape
		cfg.Costs.Transfer.Stay = stay
		r := hw.Range()
		r.Fast.Stay, r.Slow.Stay = fastStay, slowStay
		cfg.Range = &model.Range{Lo: cfg.Costs, Hi: cfg.Costs, Machine: r}
		cfg.Dur, cfg.Warmup = 200*time.Microsecond, 50*time.Microsecond
		cfg.System, cfg.Mode = b, b.Name
		edges = len(cfg.Edges())
		thr, lo, hi = banded(t, b, cfg)
		return thr, lo * thr, hi * thr, edges
	}
	if hw.Transfer.Stay != 0.5 || hw.Range().Fast.Stay != 1 || hw.Range().Slow.Stay != 0 {
		t.Fatalf("unknown machine: a word stays %v of its move at the point, %v to %v in the band; want 0.5, 1 to 0",
			hw.Transfer.Stay, hw.Range().Fast.Stay, hw.Range().Slow.Stay)
	}
	thr, lo, hi, edges := at(counter, 0.5, 1, 0)
	noStay, noStayLo, noStayHi, _ := at(counter, 0, 0, 0)
	t.Logf("counter: %.3g adds/s at half a move, band %.3g–%.3g; with no stay anywhere %.3g, band %.3g–%.3g",
		thr, lo, hi, noStay, noStayLo, noStayHi)
	if thr < 1.3*noStay {
		t.Errorf("a word staying half its move: %.3g adds/s, want well above the %.3g of none", thr, noStay)
	}
	if hi < noStayHi*1.1 || lo > noStayLo*1.01 {
		t.Errorf("band %.3g–%.3g: want it to hold no stay's %.3g–%.3g and reach well above it", lo, hi, noStayLo, noStayHi)
	}
	lockedHalf, _, _, lockedEdges := at(locked, 0.5, 1, 0)
	lockedNone, _, _, _ := at(locked, 0, 0, 0)
	if lockedHalf != lockedNone || lockedEdges >= edges {
		t.Errorf("behind a mutex: %.4g ops/s with a stay, %.4g without, %d edges against the word's %d; want the same, fewer edges",
			lockedHalf, lockedNone, lockedEdges, edges)
	}
}
