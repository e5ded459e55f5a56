//go:build !js

package calibrate

import (
	"context"
	"time"

	"github.com/brewput/brewput/results"
)

// measureDefault measures this machine for Default, with the default
// samples and repeats after at most 2 s of waiting for a quiet machine.
func measureDefault(ctx context.Context, tell func(results.CalibrationEvent)) (Calibration, error) {
	tell(results.CalibrationEvent{Kind: results.Calibrating})
	return MeasureQuiet(ctx, Options{}, 2*time.Second, tell)
}
