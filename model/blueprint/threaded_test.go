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
// second busy one on, keeping the calibration's cost of moving a line.
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
			if e.Costs.Transfer != cfg.Costs.Transfer {
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
