package predict

import (
	"context"
	"fmt"
	"time"

	"github.com/brewput/brewput/explain/limits"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/model"
)

// WhyConfig is the model's configuration of the point brewput why
// explains, with seed, over 1 s after 100 ms; an invalid one is an error
// naming --mode.
func WhyConfig(s sweep.Spec, seed uint64) (model.Config, error) {
	cfg := Prediction{}.Config(s, nil)
	cfg.Warmup, cfg.Dur, cfg.Policy.Seed = 100*time.Millisecond, time.Second, seed
	if err := cfg.Validate(); err != nil {
		return cfg, fmt.Errorf("--mode: %w", err)
	}
	return cfg, nil
}

// Profile is cfg's causal profile under pr's policy, without a band.
func (pr Prediction) Profile(ctx context.Context, cfg model.Config) (*limits.Profile, error) {
	cfg.Policy.Sched, cfg.Costs, cfg.Policy.Runtime = pr.Sched, pr.Costs, pr.Runtime
	var prof *limits.Profile
	err := limits.Profiles(ctx, []model.Config{cfg}, limits.Profiled, func(_ int, p *limits.Profile, err error) error {
		prof = p
		return err
	})
	return prof, err
}
