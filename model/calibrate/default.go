//go:build !js

package calibrate

import (
	"context"
	"time"
)

// measureDefault measures this machine for Default, with the default
// samples and repeats after at most 2 s of waiting for a quiet machine.
func measureDefault(ctx context.Context, tell func(line string)) (Calibration, error) {
	tell("measuring the Go runtime's costs (kept if the machine is quiet)…")
	return MeasureQuiet(ctx, Options{}, 2*time.Second, tell)
}
