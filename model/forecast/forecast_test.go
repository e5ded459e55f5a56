package forecast

import (
	"context"
	"testing"

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
