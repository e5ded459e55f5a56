package text

import (
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/results"
)

// TestCalibrationWords: a calibration says the host and date its costs
// are for, how far to trust them (a busy machine's not at all, and
// whether it was kept), what it set aside, its costs with their intervals
// and the flags given, and what its band spans.
func TestCalibrationWords(t *testing.T) {
	date := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	costs := []results.Cost{{Name: "wake", Median: 84 * time.Microsecond, Lo: 80 * time.Microsecond, Hi: 90 * time.Microsecond},
		{Name: "spin wake", Median: 17796, Lo: 16 * time.Microsecond, Hi: 20 * time.Microsecond},
		{Name: "switch", Median: 145, Lo: 145, Hi: 145}, {Name: "spin window", Median: 3 * time.Microsecond, Lo: 3 * time.Microsecond, Hi: 3 * time.Microsecond}}
	cal := results.Calibration{Host: "vm", Date: date, Costs: costs, Given: []string{"spin-window", "switch"}}
	want := "for vm's runtime costs, measured 2026-11-22 10:00 UTC on a quiet machine (other processes used 0.00 CPUs): wake 84µs [80µs, 90µs], spin wake 17.796µs [16µs, 20µs], switch 145ns, spin window 3µs; given as flags: spin-window 3µs, switch 145ns; its band spans the costs' 95 % intervals, not the mechanisms the model leaves out"
	if got := CalibrationLine(cal); got != want {
		t.Errorf("CalibrationLine = %q\nwant %q", got, want)
	}
	measured := results.Calibration{Host: "vm", Date: date, Costs: costs[:1]}
	quiet := "for vm's runtime costs, measured 2026-11-22 10:00 UTC on a quiet machine (other processes used 0.00 CPUs)"
	if got := CalibrationFor(measured); got != quiet {
		t.Errorf("CalibrationFor = %q, want %q", got, quiet)
	}
	for _, tc := range []struct {
		c    results.Calibration
		want string
	}{
		{results.Calibration{Host: "vm", Date: date, Others: 0.85, Unsaved: true},
			"for vm's runtime costs, measured 2026-11-22 10:00 UTC on a busy machine (other processes used 0.85 CPUs): not to be trusted, used for this run only and not saved"},
		{results.Calibration{Host: "vm", Date: date, Others: 0.6, Forced: true},
			"for vm's runtime costs, measured 2026-11-22 10:00 UTC on a busy machine (other processes used 0.60 CPUs): not to be trusted, kept with --force"},
		{results.Calibration{Host: "vm", Date: date, Others: 0.3},
			"for vm's runtime costs, measured 2026-11-22 10:00 UTC on a busy machine (other processes used 0.30 CPUs): not to be trusted"},
	} {
		if got := CalibrationFor(tc.c); got != tc.want {
			t.Errorf("CalibrationFor = %q\nwant %q", got, tc.want)
		}
	}
	hedged := measured
	hedged.SetAside = &results.SetAside{Date: date.Add(time.Hour), Others: 1.37, Unsaved: true, Reference: true}
	if got, want := CalibrationFor(hedged), quiet+"; set aside: the calibration measured for this run on a busy machine (other processes used 1.37 CPUs), no quiet one being kept (brewput calibrate on a quiet machine keeps one)"; got != want {
		t.Errorf("CalibrationFor = %q\nwant %q", got, want)
	}
	spans := results.Calibration{Host: "vm", Date: date, Costs: costs, Calibrations: 5, Since: date.Add(-37 * time.Hour)}
	if got, want := CalibrationLine(spans), "its band spans the costs' 95 % intervals over 5 calibrations of this machine since 2026-11-20 21:00 UTC, not the mechanisms"; !strings.Contains(got, want) {
		t.Errorf("CalibrationLine = %q\nwant it to say %q", got, want)
	}
}
