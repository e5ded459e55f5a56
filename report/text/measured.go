package text

import (
	"fmt"
	"math"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
)

// disagrees is how far a measurement may be from the model's.
const disagrees = 0.05

// Measured says how point p compares with model, the model's throughput.
func Measured(p results.Point, model float64) string {
	if model <= 0 {
		return ""
	}
	d := p.Throughput/model - 1
	if p.IsDisturbed() {
		return fmt.Sprintf("Measured %.0f %s while %s of the machine's %d: disturbed, it says nothing about the design (the model gives %.0f).",
			p.Throughput, p.Unit, Interference(p), max(p.Host.Cores, p.CPUs), model)
	}
	if math.Abs(d) > disagrees {
		return fmt.Sprintf("The measurement disagrees with the model: %.0f %s measured, the model gives %.0f (%s); the profile is the model's.",
			p.Throughput, p.Unit, model, format.Gain(d))
	}
	return fmt.Sprintf("Measured %.0f %s, as the model gives (%.0f, %s).", p.Throughput, p.Unit, model, format.Gain(d))
}
