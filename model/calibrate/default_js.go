package calibrate

import (
	"context"
	"errors"

	"github.com/brewput/brewput/results"
)

// measureDefault refuses: in a browser (the playground's engine) one thread
// runs every goroutine, so what it would measure are not the runtime's costs
// on any machine. The playground hands its calibration over instead.
func measureDefault(context.Context, func(results.CalibrationEvent)) (Calibration, error) {
	return Calibration{}, errors.New("calibration: none saved, and WebAssembly in a browser cannot measure one: give --calibration")
}
