package text

import (
	"fmt"
	"strings"
)

// Unused says which of a YAML system's resources no step uses: "cafe:
// unused, not simulated: till, … (4 resources)".
func Unused(system string, unused []string) string {
	names := strings.Join(unused[:min(3, len(unused))], ", ")
	if len(unused) > 3 {
		names += fmt.Sprintf(", … (%d resources)", len(unused))
	}
	return system + ": unused, not simulated: " + names
}

// StepsBurn says how the go policy's steps spend their time, after the
// model's description: by the clock (--burn wall) or as CPU time.
func StepsBurn(clock string) string {
	if clock == "wall" {
		return "; steps end on the clock (--burn wall)"
	}
	return "; steps burn CPU time (--burn cpu)"
}

// BuildingEngine says that the playground's engine is being built from pkg.
func BuildingEngine(pkg string) string {
	return "building the engine (GOOS=js GOARCH=wasm go build " + pkg + ")…"
}

// StoppedAt says that a why stopped at its limit, as why's out-of-time
// error says it: a sentence after a table, or a line beside JSON.
func StoppedAt(stopped string, sentence bool) string {
	if sentence {
		return "It " + stopped + "."
	}
	return "why " + stopped
}

// ScheduleWritten names the schedule pictures written (each an SVG with a
// PNG beside it).
func ScheduleWritten(paths []string) string {
	return strings.Join(paths, ", ") + " (and .png)"
}
