package calibrate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/brewput/brewput/internal/atomicfile"
	"github.com/brewput/brewput/internal/exitcode"
	"github.com/brewput/brewput/model/sim"
)

// DefaultPath is where brewput keeps this machine's calibration: the user's
// configuration directory ($XDG_CONFIG_HOME/brewput/calibration.json on
// Linux).
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("calibrate: no configuration directory to keep the calibration in: %w", err)
	}
	return filepath.Join(dir, "brewput", "calibration.json"), nil
}

// Default is the calibration kept at DefaultPath, and that path, so
// that an answer can say which calibration it came from. Where there is
// none yet, it measures this machine (MeasureQuiet) and saves
// the result there first, telling tell, if not nil, before and after. That
// first use keeps what it measured even on a busy machine, marked as
// forced, and says so, so that every later run does not measure again;
// brewput calibrate, run on purpose, is the one that refuses.
func Default(ctx context.Context, tell func(line string)) (Calibration, string, error) {
	if tell == nil {
		tell = func(string) {}
	}
	path, err := DefaultPath()
	if err != nil {
		return Calibration{}, "", err
	}
	c, err := Load(path)
	switch {
	case err == nil:
		return c, path, nil
	case !errors.Is(err, fs.ErrNotExist):
		return c, path, fmt.Errorf("calibration: %w", err)
	}
	if c, err = measureDefault(ctx, tell); err != nil {
		return c, path, err
	}
	c, _ = Keep(c, true)
	if err := Save(path, c); err != nil {
		return c, path, err
	}
	tell("saved the calibration to " + path)
	if c.Forced {
		tell(fmt.Sprintf("other processes used %.2f CPUs while it measured: run brewput calibrate on a quiet machine for costs to trust", c.Others))
	}
	return c, path, nil
}

// Save writes c to path as JSON, creating its folder, atomically: a
// reader sees the old file or the new one, never half of it.
func Save(path string, c Calibration) error {
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("calibrate: %w", err)
	}
	if err := atomicfile.WriteFile(path, append(data, '\n')); err != nil {
		return fmt.Errorf("calibrate: writing %s: %w", path, err)
	}
	return nil
}

// Load reads a calibration written by Save. A file that is not one gets an
// error naming it.
func Load(path string) (Calibration, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Calibration{}, err
	}
	var c Calibration
	if err := json.Unmarshal(data, &c); err != nil {
		return Calibration{}, fmt.Errorf("%s: not a brewput calibration: %v", path, err)
	}
	if c.Samples == 0 && c.Inferred == nil {
		return Calibration{}, fmt.Errorf("%s: not a brewput calibration (no samples recorded); run brewput calibrate --out %s", path, path)
	}
	for _, cs := range []sim.Costs{c.Costs, c.Lo, c.Hi} {
		for _, d := range []time.Duration{cs.Switch, cs.Wake, cs.SpinWake, cs.SpinWindow, cs.MutexHandoff, cs.ChanHandoff, cs.BufChanHandoff, cs.RunnextGrace, cs.MutexSpin} {
			if d < 0 {
				return Calibration{}, fmt.Errorf("%s: negative cost %v; run brewput calibrate again", path, d)
			}
		}
	}
	if c.Inferred != nil {
		return c, nil
	}
	if c.Repeats == 0 { // written before repeats: no intervals
		c.Lo, c.Hi = c.Costs, c.Costs
	}
	if c.Costs.RunnextGrace == 0 && c.Costs.Wake > 0 && c.Note == "" {
		c.Note = "measured before the runnext grace was: the model waits the 3 µs the runtime asks for, its wake-ups include what the OS made of them, and its spin window may be the time a new goroutine took to start; run brewput calibrate again"
	}
	return c, nil
}

// Failed is the error of a calibration that failed: an
// exitcode.Interruption where ctx ended, after which nothing is saved, or
// an exitcode.Failure.
func Failed(ctx context.Context, err error) error {
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return exitcode.Interruption{Err: fmt.Errorf("interrupted while calibrating; nothing saved")}
	}
	return exitcode.Failure{Err: err}
}
