package model

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/brewput/brewput/model/sim"
)

// Schedule simulates cfg as Run does and returns its exact schedule over
// span of virtual time from the end of the warm-up (the steady warm-up
// Run would simulate, see SteadyWarmup): every step burned on each CPU in
// that span, cut to it — those still running at its end too — by CPU and
// then time, and under the go policy the runtime's own work (Step.Runtime).
// Waits are where a CPU runs neither: a drink waiting for a machine, a CPU
// left idle. The same cfg gives the same schedule as Run's, which it
// simulates alike: the log it keeps changes nothing in the run, so the
// steps' share of the CPUs' time over the span is the utilization Run
// reports for a window of the same span from the same start.
func Schedule(cfg Config, span time.Duration) (start time.Duration, steps []Step, err error) {
	if span <= 0 {
		return 0, nil, fmt.Errorf("span %v: want a positive duration such as 20ms", span)
	}
	mode, err := cfg.validate()
	if err != nil {
		return 0, nil, err
	}
	if cfg.Drain {
		return 0, nil, fmt.Errorf("drain: the talk's protocol has no steady state to draw; leave it out")
	}
	s := sim.New(cfg.Seed)
	defer s.Stop()
	cpus := cfg.newCPUs(s)
	log := newStepLog(0, 0)
	shop, err := newShop(s, mode, newSteps(cfg, s, clock{CPUs: cpus, log: log}), cfg.Variant())
	if err != nil {
		return 0, nil, err
	}
	st := shop.structure()
	if err := cfg.advances(mode, st); err != nil {
		return 0, nil, err
	}
	b := bounds(cfg, st)
	start = SteadyWarmup(cfg.Warmup, closedLoop(cfg.customers(), cfg.Rate), b)
	log.from, log.to = start, start+span
	cpus.Log(log.record)

	var rec Record
	log.first = s.NextID()
	if cfg.Rate > 0 {
		log.first++ // the dispatcher comes first
	}
	if cfg.harness() == "talk" {
		log.first++ // the generator comes first
	}
	Load{
		Workers: cfg.customers(), Rate: cfg.Rate, MaxQ: cfg.MaxQ, Warmup: start, Duration: span,
		Talk: cfg.harness() == "talk", Starts: cfg.starts(b),
	}.start(s, shop, &rec)
	s.RunUntil(start + span)
	cpus.LogRunning()
	steps = log.steps
	slices.SortStableFunc(steps, func(a, b Step) int {
		if c := cmp.Compare(a.CPU, b.CPU); c != 0 {
			return c
		}
		return cmp.Compare(a.Start, b.Start)
	})
	return start, steps, nil
}
