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

	"github.com/brewput/brewput/internal/base/atomicfile"
	"github.com/brewput/brewput/internal/base/exitcode"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
)

// DefaultPath is where brewput keeps this machine's calibration:
// $XDG_CONFIG_HOME/brewput/calibration.json on Linux.
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("calibrate: no configuration directory to keep the calibration in: %w", err)
	}
	return filepath.Join(dir, "brewput", "calibration.json"), nil
}

// A Measurer measures this machine's costs for Default, telling tell how
// it goes.
type Measurer func(ctx context.Context, tell func(results.CalibrationEvent)) (Calibration, error)

// Default is the calibration kept at DefaultPath, and that path. Where
// there is none yet, it measures this machine (measure; nil for
// MeasureQuiet's defaults), telling tell, and saves it if the machine was
// quiet; else it is returned Unsaved, with path "".
func Default(ctx context.Context, measure Measurer, tell func(results.CalibrationEvent)) (Calibration, string, error) {
	if tell == nil {
		tell = func(results.CalibrationEvent) {}
	}
	if measure == nil {
		measure = measureDefault
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
	if c, err = measure(ctx, tell); err != nil {
		return c, path, err
	}
	if _, err := Keep(c, false); err != nil {
		c.Unsaved = true
		tell(results.CalibrationEvent{Kind: results.NotKept, Others: c.Others, Host: ReferenceHost})
		return c, "", nil
	}
	if err := Save(path, c); err != nil {
		return c, path, err
	}
	tell(results.CalibrationEvent{Kind: results.Saved, Path: path})
	return c, path, nil
}

// Save writes c to path as JSON atomically, creating its folder.
func Save(path string, c Calibration) error {
	c.Format = fileFormat
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

// Load reads a calibration written by Save.
func Load(path string) (Calibration, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Calibration{}, err
	}
	var c Calibration
	if err := json.Unmarshal(data, &c); err != nil {
		return Calibration{}, fmt.Errorf("%s: not a brewput calibration: %v", path, err)
	}
	if c.Samples == 0 {
		return Calibration{}, fmt.Errorf("%s: not a brewput calibration (no samples recorded); run brewput calibrate --out %s", path, path)
	}
	for _, cs := range []sim.Costs{c.Costs, c.Lo, c.Hi} {
		for _, d := range []time.Duration{cs.Switch, cs.Wake, cs.SpinWake, cs.SpinWindow, cs.MutexHandoff, cs.ChanHandoff, cs.BufChanHandoff, cs.RunnextGrace, cs.MutexSpin} {
			if d < 0 {
				return Calibration{}, fmt.Errorf("%s: negative cost %v; run brewput calibrate again", path, d)
			}
		}
	}
	upgrade(&c)
	if c.Repeats == 0 { // written before repeats: no intervals
		c.Lo, c.Hi = c.Costs, c.Costs
	}
	if c.Costs.RunnextGrace == 0 && c.Costs.Wake > 0 && c.Note == "" {
		c.Note = "measured before the runnext grace was: the model waits the 3 µs the runtime asks for, its wake-ups include what the OS made of them, and its spin window may be the time a new goroutine took to start; run brewput calibrate again"
	}
	return c, nil
}

// upgrade brings a calibration of an earlier format to this one.
func upgrade(c *Calibration) {
	if c.Format >= 1 {
		return
	}
	costs := []*sim.Costs{&c.Costs, &c.Lo, &c.Hi}
	for i := range c.Earlier {
		costs = append(costs, &c.Earlier[i].Costs, &c.Earlier[i].Lo, &c.Earlier[i].Hi)
	}
	for _, cs := range costs {
		cs.Transfer.Socket /= 2
	}
	for i := range c.Dists["transfer_ns"] {
		c.Dists["transfer_ns"][i] /= 2
	}
	c.Format = fileFormat
}

// Failed is a failed calibration's error: an exitcode.Interruption where
// ctx ended (nothing is saved), else an exitcode.Failure.
func Failed(ctx context.Context, err error) error {
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return exitcode.Interruption{Err: fmt.Errorf("interrupted while calibrating; nothing saved")}
	}
	return exitcode.Failure{Err: err}
}
