//go:build !js

package calibrate

import "context"

// measureDefault measures this machine for Default.
func measureDefault(ctx context.Context, tell func(line string)) (Calibration, error) {
	tell("measuring the Go runtime's costs for the go policy (once; brewput calibrate measures them again)…")
	return MeasureQuiet(ctx, DefaultHow(), tell)
}
