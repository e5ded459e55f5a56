package calibrate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/brewput/brewput/internal/atomicfile"
	"github.com/brewput/brewput/internal/exitcode"
)

// Limits of How's samples and repeats, past which a typo would measure for
// hours: a sample of the slowest microbenchmark takes about 1.5 ms.
const (
	MaxSamples = 100_000
	MaxRepeats = 1_000
)

// Check refuses how's samples and repeats out of range, before anything
// is measured; its errors name them as brewput calibrate's flags do.
func (how How) Check() error {
	for _, c := range []struct {
		flag           string
		v, least, most int
		why            string
	}{{"samples", how.Samples, 5, MaxSamples, ""}, {"repeats", how.Repeats, 1, MaxRepeats, " (6 or more for a 95 % interval)"}} {
		if c.v < c.least || c.v > c.most {
			return fmt.Errorf("--%s %d: want at least %d%s, at most %d", c.flag, c.v, c.least, c.why, c.most)
		}
	}
	return nil
}

// CheckOut tells, before anything is measured, whether a calibration can
// be saved at path: not a folder, and its folder one that exists and is
// writable, or can be made (Save makes it).
func CheckOut(path string) error {
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return fmt.Errorf("is a folder; want a file for the calibration")
	}
	return atomicfile.CheckDir(filepath.Dir(path), "the calibration")
}

// Show writes the calibration saved at path to w: the path, then its
// table. A missing or unreadable one is an exitcode.Failure.
func Show(w io.Writer, path string) error {
	c, err := Load(path)
	if errors.Is(err, fs.ErrNotExist) {
		return exitcode.Failure{Err: fmt.Errorf("no calibration at %s; run brewput calibrate", path)}
	}
	if err != nil {
		return exitcode.Failure{Err: err}
	}
	fmt.Fprintf(w, "%s\n", path)
	c.WriteTable(w)
	return nil
}

// MeasureAndSave measures this machine as how says (MeasureQuiet, telling
// tell), writes the table to w, and saves the calibration at path unless
// other processes disturbed it and how does not force it (Keep); then w
// hears where it went. Its errors are as Failed says, or Failures.
func MeasureAndSave(ctx context.Context, how How, path string, w io.Writer, tell func(line string)) error {
	c, err := MeasureQuiet(ctx, how, tell)
	if err != nil {
		return Failed(ctx, err)
	}
	c.WriteTable(w)
	if c, err = Keep(c, how.Force); err != nil {
		return exitcode.Failure{Err: err}
	}
	if err := Save(path, c); err != nil {
		return exitcode.Failure{Err: err}
	}
	fmt.Fprintf(w, "saved: %s\n", path)
	return nil
}
