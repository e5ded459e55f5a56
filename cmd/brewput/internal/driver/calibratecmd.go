package driver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/brewput/brewput/internal/base/atomicfile"
	"github.com/brewput/brewput/internal/base/cliflag"
	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/report/text"
)

// Limits of --samples and --repeats, past which a typo would measure for hours.
const (
	maxSamples = 100_000
	maxRepeats = 1_000
)

func newCalibrateCmd(e *env) *cobra.Command {
	var (
		out         string
		show, force bool
		opt         calibrate.Options
		wait        = time.Minute
	)
	cmd := &cobra.Command{
		Use:   "calibrate",
		Short: "Measure the runtime's costs the go policy uses",
		Args:  unknownArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkSamples(opt); err != nil {
				return err
			}
			switch {
			case cmd.Flags().Changed("out") && out == "":
				return fmt.Errorf("--out \"\": want a file for the calibration, such as laptop-calibration.json; leave --out out for the user's config folder")
			case wait < 0:
				return fmt.Errorf("--wait %v: want zero or a positive duration such as 1m", wait)
			case show && (cmd.Flags().Changed("samples") || cmd.Flags().Changed("repeats") || cmd.Flags().Changed("wait") || force):
				return fmt.Errorf("--show: prints the saved calibration; it measures nothing, so --samples, --repeats, --wait and --force do not apply")
			}
			path := out
			if path == "" {
				p, err := calibrate.DefaultPath()
				if err != nil {
					return failure{Err: err}
				}
				path = p
			}
			if show {
				return showCalibration(e.stdout, path)
			}
			if err := checkCalibrationOut(path); err != nil {
				return fmt.Errorf("--out %s: %w", path, err)
			}
			opt.Curves = e.calibrateCurves
			return measureAndSave(cmd.Context(), opt, wait, force, path, e.stdout, e.tell)
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "file to keep the calibration in, or to --show\n(default: the user's config folder, brewput/calibration.json)")
	cmd.Flags().IntVar(&opt.Samples, "samples", calibrate.Samples, "runs of each microbenchmark per repeat")
	cmd.Flags().IntVar(&opt.Repeats, "repeats", calibrate.Repeats, "repeats of every microbenchmark,\nfor each cost's confidence interval")
	cmd.Flags().Var((*cliflag.Duration)(&wait), "wait", "longest wait for a quiet machine\nbefore measuring")
	cmd.Flags().BoolVar(&force, "force", false, "save the calibration even on a busy machine\n(other processes busy while it measured)")
	cmd.Flags().BoolVar(&show, "show", false, "print the saved calibration instead of measuring")
	return cmd
}

// checkSamples refuses --samples and --repeats out of range.
func checkSamples(opt calibrate.Options) error {
	switch {
	case opt.Samples < 5 || opt.Samples > maxSamples:
		return fmt.Errorf("--samples %d: want at least 5, at most %d", opt.Samples, maxSamples)
	case opt.Repeats < 1 || opt.Repeats > maxRepeats:
		return fmt.Errorf("--repeats %d: want at least 1 (6 or more for a 95 %% interval), at most %d", opt.Repeats, maxRepeats)
	}
	return nil
}

// checkCalibrationOut tells whether a calibration can be saved at path.
func checkCalibrationOut(path string) error {
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return fmt.Errorf("is a folder; want a file for the calibration")
	}
	return atomicfile.CheckDir(filepath.Dir(path), "the calibration")
}

// showCalibration writes the path and table of the calibration at path.
func showCalibration(w io.Writer, path string) error {
	c, err := calibrate.Load(path)
	if errors.Is(err, fs.ErrNotExist) {
		return failure{Err: fmt.Errorf("no calibration at %s; run brewput calibrate", path)}
	}
	if err != nil {
		return failure{Err: err}
	}
	fmt.Fprintf(w, "%s\n", path)
	text.WriteCalibrationTable(w, c.Table())
	return nil
}

// measureAndSave measures this machine, writes the table to w, and saves
// it at path unless calibrate.Keep refuses a disturbed one.
func measureAndSave(ctx context.Context, opt calibrate.Options, wait time.Duration, force bool, path string, w io.Writer, tell func(line string)) error {
	c, err := calibrate.MeasureQuiet(ctx, opt, wait, text.CalibrationTeller(tell))
	if err != nil {
		return calibrate.Failed(ctx, err)
	}
	// The one kept at path goes on in this one's band; one unread is replaced.
	if prev, err := calibrate.Load(path); err == nil {
		c = c.After(prev)
	}
	text.WriteCalibrationTable(w, c.Table())
	if c, err = calibrate.Keep(c, force); err != nil {
		return failure{Err: err}
	}
	if err := calibrate.Save(path, c); err != nil {
		return failure{Err: err}
	}
	fmt.Fprintf(w, "saved: %s\n", path)
	return nil
}
