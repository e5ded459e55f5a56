package model

import (
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
)

// Policy is how the model is run: the scheduling policy ("fifo" or "go"),
// its costs, the runtime whose scheduler it follows and the costs'
// uncertainty for a band (go only), and the seed of the steps' jitter, as
// brewput model's flags set them.
type Policy struct {
	Sched   string
	Costs   sim.Costs
	Runtime string
	Range   *Range // nil: no band
	Seed    uint64
	// Background is other processes' demand on the machine (go policy
	// only; see Config.Background).
	Background sim.Background
}

// Apply returns c under the policy p.
func (p Policy) Apply(c Config) Config {
	c.Sched, c.Costs, c.Runtime, c.Range, c.Seed, c.Background = p.Sched, p.Costs, p.Runtime, p.Range, p.Seed, p.Background
	return c
}

// ConfigOf is the configuration that simulates what p ran: its mode, CPUs,
// load (and its harness), steps and window. ok is false where p is not a
// point of one of the shop's modes (a lab's, a YAML system's, or the
// user's code: a study's or a Go benchmark's, whose variant may share a
// mode's name). A point with one customer per CPU keeps that rule (Customers 0), so that its configuration on other
// CPU counts has as many customers as CPUs, as --par 0 does; a point
// without a window gets 1 s. The policy, its costs and the seed are the
// caller's to set.
func ConfigOf(p results.Point) (cfg Config, ok bool) {
	if k := p.Kind(); k != results.KindMeasured && k != results.KindModel || p.Shop == nil {
		return Config{}, false
	}
	mode, err := coffee.ParseMode(p.Mode)
	if err != nil {
		return Config{}, false
	}
	ms := func(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }
	cfg = Config{
		Mode: mode, CPUs: p.CPUs, Customers: p.Par, Rate: p.Rate, MaxQ: p.MaxQ, Harness: p.Harness,
		Grind: ms(p.Steps.GrindMs), Press: ms(p.Steps.PressMs), Steam: ms(p.Steps.SteamMs),
		Combine: ms(p.Steps.LatteMs), Jitter: ms(p.Steps.JitterMs),
		Warmup: time.Duration(p.WarmupS * float64(time.Second)), Duration: time.Duration(p.DurS * float64(time.Second)),
	}
	if p.Par == p.CPUs {
		cfg.Customers = 0
	}
	// A measured point's steps end as its clock says; a prediction's as
	// its model's did.
	cfg.Burn = p.Steps.Clock
	if p.Kind() == results.KindModel {
		cfg.Burn = p.Model.Burn
	}
	if cfg.Duration <= 0 {
		cfg.Duration = time.Second
	}
	return cfg, true
}
