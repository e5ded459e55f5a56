package calibrate

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/brewput/brewput/internal/quiet"
)

// QuietBelow is the most CPUs' worth of time other processes may use while
// a calibration measures for it to be saved without --force.
const QuietBelow = 0.2

// MeasureQuiet waits up to wait for a quiet machine (telling tell, if not
// nil, where it stayed busy), then measures. Others is the most other
// processes used before or while it measured.
func MeasureQuiet(ctx context.Context, opt Options, wait time.Duration, tell func(line string)) (Calibration, error) {
	before, waited, err := quiet.Wait(ctx, wait, 500*time.Millisecond, QuietBelow)
	if err != nil {
		return Calibration{}, err
	}
	if before >= QuietBelow && tell != nil {
		tell(fmt.Sprintf("calibrate: the machine stayed busy for %v (other processes used %.2f CPUs); measuring anyway", waited.Round(time.Second), before))
	}
	c, err := Measure(ctx, opt)
	if err != nil {
		return c, err
	}
	c.Others = max(c.Others, before)
	c.Waited = waited
	return c, nil
}

// ErrBusy is the error of Keep refusing a calibration measured while other
// processes used QuietBelow CPUs or more.
var ErrBusy = errors.New("calibrate: the machine was busy")

// Keep returns c if it may be saved: measured on a quiet machine, or
// forced (and marked so); else an error wrapping ErrBusy.
func Keep(c Calibration, force bool) (Calibration, error) {
	switch {
	case c.Others < QuietBelow:
		return c, nil
	case force:
		c.Forced = true
		return c, nil
	}
	return c, fmt.Errorf("not saved: other processes used %.2f CPUs while calibrating (quiet is under %.1f); run brewput calibrate again on a quiet machine, or keep this one with --force: %w", c.Others, QuietBelow, ErrBusy)
}
