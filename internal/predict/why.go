package predict

import (
	"context"
	"fmt"
	"time"

	"github.com/brewput/brewput/explain/limits"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/model"
)

// WhyConfig is the model's configuration of the point s that brewput why
// explains, with seed: a longer window than a measurement needs (100 ms
// of warm-up, 1 s). An invalid one is an error naming --mode.
func WhyConfig(s sweep.Spec, seed uint64) (model.Config, error) {
	cfg := ConfigOf(s)
	cfg.Warmup, cfg.Duration, cfg.Seed = 100*time.Millisecond, time.Second, seed
	if err := cfg.Validate(); err != nil {
		return cfg, fmt.Errorf("--mode: %w", err)
	}
	return cfg, nil
}

// Profile is the causal profile of cfg (limits.Mode) under pr's
// scheduling policy, costs and runtime, without a band, stopping within
// milliseconds of ctx's end.
func (pr Prediction) Profile(ctx context.Context, cfg model.Config) (*limits.Profile, error) {
	cfg.Sched, cfg.Costs, cfg.Runtime = pr.Sched, pr.Costs, pr.Runtime
	cfg.Cancel = ctx.Done()
	return limits.ProfileMode(cfg)
}
