package model

import (
	"time"

	"github.com/brewput/brewput/model/blueprint"
)

// Structure is what a system's bounds come from; Bounds what it allows.
type (
	Structure = blueprint.Structure
	Bounds    = blueprint.Bounds
)

// Trace asks a run for its exact schedule over Span from the end of the
// warm-up (Start), by CPU and time, the runtime's own work included.
type Trace struct {
	Span  time.Duration
	Start time.Duration
	Steps []Step
}
