package limits_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/brewput/brewput/experiment/limits"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/sim"
)

// CausalProfiles stop at each's first error, having handed the profiles before
// it, and return the error as it is; a context that ended stops them too.
func TestProfilesStop(t *testing.T) {
	cfgs := []model.Config{fifo("locking", 2), fifo("ideal", 1), fifo("locking", 1)}
	stop := errors.New("stop")
	var handed []int
	err := limits.CausalProfiles(context.Background(), cfgs, limits.EveryRelief, func(i int, _ *limits.CausalProfile, err error) error {
		if handed = append(handed, i); i == 1 {
			return stop
		}
		return err
	})
	if err != stop || !reflect.DeepEqual(handed, []int{0, 1}) {
		t.Errorf("each failing at the second profile: handed %v, %v; want 0 and 1, %v", handed, err, stop)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	handed = nil
	err = limits.CausalProfiles(ctx, cfgs, limits.EveryRelief, func(i int, _ *limits.CausalProfile, err error) error {
		handed = append(handed, i)
		return err
	})
	if !errors.Is(err, context.Canceled) || len(handed) != 0 {
		t.Errorf("cancelled: handed %v, %v; want none, %v", handed, err, context.Canceled)
	}
}

// At depth PointsOnly a point is what EveryRelief gives for it, band
// included, with no verdict: the shop's points and a YAML system's.
func TestProfilesPointsOnly(t *testing.T) {
	us := time.Microsecond
	costs := sim.Costs{Switch: 150, Wake: 75 * us, SpinWake: us, SpinWindow: 80 * us, MutexHandoff: 1200, ChanHandoff: 2900, BufChanHandoff: 2300}
	lo, hi := costs, costs
	lo.Wake, hi.Wake = 60*us, 90*us
	banded := model.DefaultConfig(3)
	banded.Mode, banded.Costs, banded.Range = "finelocking", costs, model.NewRange(lo, hi)
	yaml1, yaml3 := example(t, "finelocking.yaml", 1), example(t, "finelocking.yaml", 3)
	cfgs := []model.Config{fifo("locking", 2), fifo("multi-2", 4), banded, yaml1, yaml3}
	points := func(depth limits.Depth) []*limits.CausalProfile {
		var out []*limits.CausalProfile
		if err := limits.CausalProfiles(context.Background(), cfgs, depth, func(_ int, pr *limits.CausalProfile, err error) error {
			out = append(out, pr)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	full, bare := points(limits.EveryRelief), points(limits.PointsOnly)
	if bare[2].Now.Band == nil {
		t.Errorf("%s at depth PointsOnly has no band", bare[2].System)
	}
	for i := range full {
		if full[i].Point().Bottleneck == nil {
			t.Errorf("%s at depth EveryRelief names no limit", full[i].System)
		}
		if bare[i].Point().Bottleneck != nil || bare[i].Trials != nil {
			t.Errorf("%s at depth PointsOnly names a limit: %+v", bare[i].System, bare[i].Point().Bottleneck)
		}
		if !reflect.DeepEqual(bare[i].Now, full[i].Now) {
			t.Errorf("%s at depth PointsOnly:\n%+v\nwant EveryRelief's point:\n%+v", full[i].System, bare[i].Now, full[i].Now)
		}
	}
	yaml1.CPUs = 0
	if err := limits.CausalProfiles(context.Background(), []model.Config{yaml1}, limits.PointsOnly, func(_ int, _ *limits.CausalProfile, err error) error { return err }); err == nil {
		t.Errorf("%s on 0 CPUs at depth PointsOnly: no error", yaml1.Mode)
	}
}
