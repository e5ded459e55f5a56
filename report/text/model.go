package text

import (
	"fmt"
	"time"

	"github.com/brewput/brewput/results"
)

// ModelSetting says beside an answer which model policy p is and where
// its costs came from (from: "calibration FILE"; whose: "" for this machine).
func ModelSetting(p results.Policy, wake, mutexHandoff, chanHandoff time.Duration, from, machine, whose string) string {
	if p.Sched == "fifo" {
		return "the model, fifo policy (idealized CPUs: no calibration)"
	}
	s := "the model, go policy, " + from
	if machine != "" {
		s += ", " + machine
	}
	s += ": " + CostsSaid(whose, wake, mutexHandoff, chanHandoff) + " (every cost: --format json, or brewput calibrate --show)"
	if b := p.Background; b.CPUs > 0 {
		s += fmt.Sprintf("; other processes taking %.3g CPUs in bursts of %v", b.CPUs, b.Burst)
	}
	return s
}
