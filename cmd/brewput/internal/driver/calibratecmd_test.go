package driver

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brewput/brewput/model/calibrate"
)

// Samples and repeats out of range are refused naming the flag; a folder
// in the calibration's place, or a file in its folder's, is refused
// before anything is measured; showing a calibration that is not there
// is a failure that says how to make one.
func TestCalibrateChecks(t *testing.T) {
	opt := calibrate.Options{Samples: calibrate.Samples, Repeats: calibrate.Repeats}
	if err := checkSamples(opt); err != nil {
		t.Errorf("checkSamples of the defaults = %v", err)
	}
	for _, c := range []struct {
		samples, repeats int
		want             string
	}{{4, 6, "--samples 4: want at least 5"}, {maxSamples + 1, 6, "--samples 100001"}, {100, 0, "--repeats 0: want at least 1"}, {100, maxRepeats + 1, "--repeats 1001"}} {
		opt.Samples, opt.Repeats = c.samples, c.repeats
		if err := checkSamples(opt); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("checkSamples of %d samples, %d repeats = %v, want %q", c.samples, c.repeats, err, c.want)
		}
	}
	dir := t.TempDir()
	if err := checkCalibrationOut(filepath.Join(dir, "sub", "cal.json")); err != nil {
		t.Errorf("checkCalibrationOut in a folder that can be made: %v", err)
	}
	if err := checkCalibrationOut(dir); err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("checkCalibrationOut of a folder = %v, want it refused", err)
	}
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := checkCalibrationOut(filepath.Join(file, "cal.json")); err == nil || !strings.Contains(err.Error(), "want a folder for the calibration") {
		t.Errorf("checkCalibrationOut under a file = %v, want a folder for the calibration", err)
	}
	var out bytes.Buffer
	err := showCalibration(&out, filepath.Join(dir, "none.json"))
	if !errors.As(err, new(failure)) || !strings.Contains(err.Error(), "run brewput calibrate") || out.Len() > 0 {
		t.Errorf("showCalibration of no calibration = %v, wrote %q; want a failure saying to run brewput calibrate", err, out.String())
	}
}
