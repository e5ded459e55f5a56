package blueprint

import (
	"fmt"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
)

// Point converts r, the result of b.Run(opt), to a results.Point, filled
// as model.Result.Point fills a mode's, so that a blueprint's points go
// into the same tables, reports and comparisons: Source "model", the
// blueprint's name as the mode, its unit per second, and the load the run
// applied (customers or servers, rate, queue). A blueprint has no coffee
// steps, so Steps is empty.
func (b *Blueprint) Point(r model.Result, opt Options) results.Point {
	l := b.load(opt)
	p := r.Point(model.Config{
		CPUs: opt.CPUs, Customers: l.workers, Rate: l.Rate, MaxQ: l.Queue,
		Sched: opt.Sched, Costs: opt.Costs, Runtime: string(opt.Runtime), Warmup: opt.Warmup, Duration: opt.Duration, Seed: opt.Seed,
	})
	p.Mode, p.Unit = b.Name, b.Unit+"/s"
	p.Steps = results.Steps{}
	return p
}

// Sweep simulates b on each CPU count of cpus, rounds times over, with
// opt's load, window and policy, the seed one more each round, and
// returns the points round by round; with several rounds each point's Rep
// is its round. An error names b's file.
func (b *Blueprint) Sweep(cpus []int, rounds int, opt Options) ([]results.Point, error) {
	return b.SweepWith(cpus, rounds, opt, func(o Options) (results.Point, error) {
		r, err := b.Run(o)
		if err != nil {
			return results.Point{}, err
		}
		return b.Point(r, o), nil
	})
}

// SweepWith is Sweep with point in place of a plain simulation: it gets
// each point's options, and returns its point (causal.Blueprint gives it
// its causal profile too).
func (b *Blueprint) SweepWith(cpus []int, rounds int, opt Options, point func(Options) (results.Point, error)) ([]results.Point, error) {
	var points []results.Point
	for rep := range rounds {
		for _, n := range cpus {
			o := opt
			o.CPUs, o.Seed = n, opt.Seed+uint64(rep)
			p, err := point(o)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", b.File, err)
			}
			if rounds > 1 {
				p.Rep = rep + 1
			}
			points = append(points, p)
		}
	}
	return points, nil
}
