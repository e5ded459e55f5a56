package limits_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/explain/limits"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
)

// Simulate hands each point to add in order, numbers the rounds, and
// stops at add's first error, returning the points added before it as
// they were, and the error as it is.
func TestSimulate(t *testing.T) {
	cfgs := []model.Config{fifo("locking", 2), fifo("ideal", 1), fifo("locking", 1)}
	var got []results.Point
	add := func(p *results.Point) error { got = append(got, *p); return nil }
	points, err := limits.Simulate(context.Background(), cfgs, 2, limits.Profiled, add)
	if err != nil {
		t.Fatal(err)
	}
	if len(points) != 6 || len(got) != 6 {
		t.Fatalf("%d points, %d added; want 6", len(points), len(got))
	}
	for i, p := range points {
		if want := i/len(cfgs) + 1; p.Rep != want || p.CPUs != cfgs[i%len(cfgs)].CPUs || p.Bottleneck == nil || got[i].Rep != want {
			t.Errorf("point %d: rep %d, cpus %d, bottleneck %v; want rep %d, cpus %d, a bottleneck", i, p.Rep, p.CPUs, p.Bottleneck, want, cfgs[i%len(cfgs)].CPUs)
		}
	}
	stop := errors.New("stop")
	n := 0
	points, err = limits.Simulate(context.Background(), cfgs, 1, limits.Profiled, func(*results.Point) error {
		if n++; n == 2 {
			return stop
		}
		return nil
	})
	if err != stop || len(points) != 1 {
		t.Errorf("add failing at the second point: %d points, %v; want 1, %v", len(points), err, stop)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if points, err := limits.Simulate(ctx, cfgs, 1, limits.Profiled, add); !errors.Is(err, context.Canceled) || len(points) != 0 {
		t.Errorf("cancelled: %d points, %v; want none, %v", len(points), err, context.Canceled)
	}
}

// At depth PointsOnly a point is what Profiled gives for it, band
// included, with no verdict: the shop's points and a YAML system's.
func TestSimulatePointsOnly(t *testing.T) {
	us := time.Microsecond
	costs := sim.Costs{Switch: 150, Wake: 75 * us, SpinWake: us, SpinWindow: 80 * us, MutexHandoff: 1200, ChanHandoff: 2900, BufChanHandoff: 2300}
	lo, hi := costs, costs
	lo.Wake, hi.Wake = 60*us, 90*us
	banded := model.DefaultConfig(3)
	banded.Mode, banded.Costs, banded.Range = coffee.MustParseMode("finelocking"), costs, model.NewRange(lo, hi)
	cfgs := []model.Config{fifo("locking", 2), fifo("multi-2", 4), banded}
	nop := func(*results.Point) error { return nil }
	full, err := limits.Simulate(context.Background(), cfgs, 1, limits.Profiled, nop)
	if err != nil {
		t.Fatal(err)
	}
	bare, err := limits.Simulate(context.Background(), cfgs, 1, limits.PointsOnly, nop)
	if err != nil {
		t.Fatal(err)
	}
	if bare[2].Band == nil {
		t.Errorf("%s at depth PointsOnly has no band", bare[2].Mode)
	}
	for i := range full {
		if full[i].Bottleneck == nil {
			t.Errorf("%s on %d CPUs at depth Profiled names no limit", full[i].Mode, full[i].CPUs)
		}
		if bare[i].Bottleneck != nil {
			t.Errorf("%s on %d CPUs at depth PointsOnly names a limit: %+v", bare[i].Mode, bare[i].CPUs, bare[i].Bottleneck)
		}
		want := full[i]
		want.Bottleneck = nil
		if !reflect.DeepEqual(bare[i], want) {
			t.Errorf("%s on %d CPUs at depth PointsOnly:\n%+v\nwant Profiled's point:\n%+v", want.Mode, want.CPUs, bare[i], want)
		}
	}

	bp, opt := example(t, "finelocking.yaml", 2)
	fullY, err := limits.SimulateBlueprint(context.Background(), bp, []int{1, 3}, 1, limits.Profiled, opt, nop)
	if err != nil {
		t.Fatal(err)
	}
	bareY, err := limits.SimulateBlueprint(context.Background(), bp, []int{1, 3}, 1, limits.PointsOnly, opt, nop)
	if err != nil {
		t.Fatal(err)
	}
	for i := range fullY {
		want := fullY[i]
		want.Bottleneck = nil
		if !reflect.DeepEqual(bareY[i], want) {
			t.Errorf("%s on %d CPUs at depth PointsOnly:\n%+v\nwant Profiled's point:\n%+v", bp.Name, want.CPUs, bareY[i], want)
		}
	}
	opt.CPUs = 0
	if _, err := limits.SimulateBlueprint(context.Background(), bp, []int{0}, 1, limits.PointsOnly, opt, nop); err == nil {
		t.Errorf("%s on 0 CPUs at depth PointsOnly: no error", bp.Name)
	}
}
