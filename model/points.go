package model

import (
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/internal/parallel"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/sim"
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

// RunRounds simulates cfgs rounds times over, the seed one more each round
// (see RunAll), and returns the points round by round, each with its round
// as Rep where there are several.
func RunRounds(cfgs []Config, rounds int) ([]results.Point, error) {
	return Rounds(cfgs, rounds, RunAll)
}

// Rounds is RunRounds with run in place of RunAll: run gets every round's
// configurations at once and returns their points in order (causal.Predict
// gives each its causal profile too).
func Rounds(cfgs []Config, rounds int, run func([]Config) ([]results.Point, error)) ([]results.Point, error) {
	var all []Config
	for rep := range rounds {
		for _, c := range cfgs {
			c.Seed += uint64(rep)
			all = append(all, c)
		}
	}
	points, err := run(all)
	for i := range points {
		if rounds > 1 {
			points[i].Rep = i/len(cfgs) + 1
		}
	}
	return points, err
}

// RunAll simulates every configuration, as many at once as there are CPUs
// (each simulation is independent and single-threaded), and returns their
// points in the configurations' order, or the first error in that order.
func RunAll(cfgs []Config) ([]results.Point, error) {
	points := make([]results.Point, len(cfgs))
	errs := make([]error, len(cfgs))
	parallel.Do(len(cfgs), func(i int) {
		r, err := Run(cfgs[i])
		if err != nil {
			errs[i] = err
			return
		}
		points[i] = r.Point(cfgs[i])
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return points, nil
}
