package model

import (
	"fmt"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/results"
)

// ConfigOf is the configuration that simulates what point p ran: its mode,
// CPUs, load (customers, or an open loop's rate, servers and queue),
// steps, window and, for a model point, its policy and seed (the go
// policy's costs are not in a point: set Costs). A point with one customer
// per CPU keeps that rule (Customers 0), so that a configuration with more
// CPUs has more customers, as the study's --par 0 would. A window of no
// length is 1 s. The error is for a point that is not of the shop.
func ConfigOf(p results.Point) (Config, error) {
	if p.Lab != "" {
		return Config{}, fmt.Errorf("%s: a lab's point, not the shop's", p.Mode)
	}
	if _, err := coffee.ParseMode(p.Mode); err != nil {
		return Config{}, err
	}
	ms := func(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }
	s := func(v float64) time.Duration { return time.Duration(v * float64(time.Second)) }
	cfg := Config{
		Mode: p.Mode, CPUs: max(p.CPUs, 1), Customers: p.Par, Rate: p.Rate, MaxQ: p.MaxQ,
		Sched: p.Sched, Seed: max(p.Seed, 1),
		Grind: ms(p.Steps.GrindMs), Press: ms(p.Steps.PressMs), Steam: ms(p.Steps.SteamMs),
		Combine: ms(p.Steps.LatteMs), Jitter: ms(p.Steps.JitterMs),
		Warmup: s(p.WarmupS), Duration: s(p.DurS),
	}
	if p.Par == p.CPUs {
		cfg.Customers = 0
	}
	if cfg.Duration <= 0 {
		cfg.Duration = time.Second
	}
	return cfg, nil
}
