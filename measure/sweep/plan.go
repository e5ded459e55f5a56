package sweep

import (
	"encoding/json"
	"fmt"
	"runtime"

	"github.com/brewput/brewput/results"
)

// Plan is the journal's plan of st, measured by brewput command ("run",
// or "brewput" for the main job): what a run cut short needs to finish.
func (st Batch) Plan(command string) results.Plan {
	js, _ := json.Marshal(st) // a Batch is plain data
	return results.Plan{Command: command, Points: st.Total(), Study: js}
}

// BatchOf is the study a journal's plan holds, for resuming it with brewput
// command on this machine: it refuses a plan of another command, one with
// no study or an invalid point, and one that measures on more CPUs than
// this machine has.
func BatchOf(plan *results.Plan, command string) (*Batch, error) {
	if plan.Command != command {
		return nil, fmt.Errorf("a journal of brewput %s; resume it with that command", plan.Command)
	}
	var st Batch
	if err := json.Unmarshal(plan.Study, &st); err != nil || len(st.Specs) == 0 || st.Count < 1 {
		return nil, fmt.Errorf("its plan holds no study to measure")
	}
	for _, s := range st.Specs {
		if err := s.Validate(); err != nil {
			return nil, fmt.Errorf("its plan: %w", err)
		}
		if s.CPUs > runtime.NumCPU() {
			return nil, fmt.Errorf("its plan measures on %d CPUs; this machine has %d", s.CPUs, runtime.NumCPU())
		}
	}
	return &st, nil
}
