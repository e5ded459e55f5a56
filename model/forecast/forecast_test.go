package forecast

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/model/curves"
	"github.com/brewput/brewput/results"
)

// A prediction given the measuring machine's curves (validation's) does
// not measure this one's: on a machine with no calibration kept, that took
// minutes, twice at once, in validation/published.
func TestMachinesGivenHereMeasureNothing(t *testing.T) {
	dir := t.TempDir()
	for _, env := range []string{"XDG_CONFIG_HOME", "HOME", "AppData"} {
		t.Setenv(env, dir)
	}
	measured := 0
	measure := func(context.Context, func(results.CalibrationEvent)) (calibrate.Calibration, error) {
		measured++
		return calibrate.Calibration{}, nil
	}
	here := curves.Reference()
	got, err := Machines(context.Background(), "", here, measure, nil)
	if err != nil || got.Here != here || measured != 0 {
		t.Errorf("given here: %v, here kept %v, measured %d times; want here kept, none", err, got.Here == here, measured)
	}
	if _, err := Machines(context.Background(), "", nil, measure, nil); err != nil || measured != 1 {
		t.Errorf("not given here, no calibration kept: %v, measured %d times; want once", err, measured)
	}
}

// A count past what the target's curves reach is not predicted, nor any
// past it, and says so as a typed fact: the first such count, how far the
// curves were measured and carried; the counts below it are predicted,
// past the curves' own CPUs too.
func TestPredictPastReach(t *testing.T) {
	ref := curves.Reference()
	small := *ref
	small.Points = slices.DeleteFunc(slices.Clone(ref.Points), func(p curves.Point) bool { return p.CPUs > 4 })
	var runs []results.Point
	for i, thr := range []float64{1e6, 1.02e6, 1.98e6, 2e6} {
		n := 1 + i/2
		runs = append(runs, results.Point{Kind: results.KindStudy, Source: results.SourceMeasured, Spec: results.Spec{Mode: "free", CPUs: n,
			Load: results.Load{Par: n, Dur: time.Second}}, Ops: int64(thr), Throughput: thr, Unit: "ops/s", Study: &results.Study{Name: "s"}})
	}
	f, err := Predict(Options{Name: "s", Variants: []string{"free"}, CPUs: []int{1, 2, 16, 64, 128, 256}}, runs,
		Target{Here: ref, There: small.Carry(256)})
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, p := range f.Points {
		got = append(got, p.CPUs)
	}
	want := results.NotPredicted{Mode: "free", Why: results.DeclinedPastCurves, CPUs: 128, Measured: 4, Reach: 64}
	if !slices.Equal(got, []int{1, 2, 16, 64}) || len(f.NotPredicted) != 1 || f.NotPredicted[0] != want {
		t.Errorf("predicted on %v, not predicted %+v; want 1, 2, 16 and 64, then %+v", got, f.NotPredicted, want)
	}
}
