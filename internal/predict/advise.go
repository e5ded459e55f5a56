package predict

import (
	"context"
	"fmt"

	"github.com/brewput/brewput/explain/limits"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/model/blueprint"
)

// CheckAdvice checks, before any cost is looked for, advice on the point
// s of the shop's modes, or of bp where it is not nil: its size (advice
// simulates the point's causal profile and each change on at most twice
// the CPUs with twice the customers, which bounds it), and s's
// configuration (its error naming --mode).
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
		cfg := ConfigOf(s)
		cfg.Seed = o.Seed
		if err := cfg.Validate(); err != nil {
			return fmt.Errorf("--mode: %w", err)
		}
	}
	return nil
}

// Advise asks the model under pr what would help the point s of the
// shop's modes (limits.Mode), or bp on s's CPU count under s's load where
// bp is not nil (limits.Blueprint); the advice says which model it is
// (Describe). It stops within milliseconds of ctx's end.
func (pr Prediction) Advise(ctx context.Context, s sweep.Spec, bp *blueprint.Blueprint) (*limits.Advice, error) {
	var a *limits.Advice
	var err error
	if bp != nil {
		opt := pr.BlueprintOptions(s)
		opt.CPUs, opt.Cancel = s.CPUs, ctx.Done()
		a, err = limits.AdviseBlueprint(bp, opt)
	} else {
		cfg := pr.Apply(ConfigOf(s))
		cfg.Cancel = ctx.Done()
		a, err = limits.AdviseMode(cfg)
	}
	if err != nil {
		return nil, err
	}
	a.Calibration = pr.Describe()
	return a, nil
}
