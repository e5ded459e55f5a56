package predict

import (
	"context"
	"fmt"

	"github.com/brewput/brewput/explain/limits"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/model/blueprint"
)

// CheckAdvice checks advice on s (or bp on s's CPUs) before any cost is
// looked for: its size (at most twice the CPUs with twice the customers)
// and s's configuration, its error naming --mode.
func CheckAdvice(o Options, s sweep.Spec, bp *blueprint.Blueprint) error {
	if err := o.Check(); err != nil {
		return err
	}
	if o.Others >= float64(s.CPUs) {
		return fmt.Errorf("--others %v: want less than the CPUs simulated, %d: other processes taking them all would leave the program none", o.Others, s.CPUs)
	}
	doubled := s
	doubled.CPUs, doubled.Par = 2*s.CPUs, 2*s.Par
	if err := CheckSize(o, &sweep.Batch{Specs: []sweep.Spec{s, doubled}, Count: 1}, bp, 2); err != nil {
		return err
	}
	if bp == nil {
		pr := Prediction{}
		pr.Seed = o.Seed
		if err := pr.Config(s, nil).Validate(); err != nil {
			return fmt.Errorf("--mode: %w", err)
		}
	}
	return nil
}

// Advise is limits.Advise of pr.Config(s, bp), saying which model.
func (pr Prediction) Advise(ctx context.Context, s sweep.Spec, bp *blueprint.Blueprint) (*limits.Advice, error) {
	a, err := limits.Advise(ctx, pr.Config(s, bp))
	if err != nil {
		return nil, err
	}
	a.Calibration = pr.Describe()
	return a, nil
}
