package limits

import (
	"fmt"
	"slices"

	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/results"
)

// Blueprint advises on a system described in YAML, simulated with opt:
// its causal profile (Blueprint: each step 10 % shorter, one more
// unit of each resource and worker of each stage, more buffer, one more
// CPU, twice the customers), one more unit of every resource at once, and
// twice the CPUs, ranked as Mode ranks them.
func AdviseBlueprint(b *blueprint.Blueprint, opt blueprint.Options) (*Advice, error) {
	pr, err := ProfileBlueprint(b, opt)
	if err != nil {
		return nil, err
	}
	run := func(bp *blueprint.Blueprint, o blueprint.Options) func() (results.Point, error) {
		return func() (results.Point, error) { return blueprintPoint(bp, o) }
	}
	var changes []whatIf
	if len(b.Resources) > 1 {
		c := *b // Run changes no blueprint, so copies may share their steps
		c.Resources = slices.Clone(b.Resources)
		for j := range c.Resources {
			c.Resources[j].Capacity++
		}
		changes = append(changes, whatIf{
			change: "one more of every resource",
			as:     fmt.Sprintf("%d resources, each +1", len(b.Resources)),
			cost:   Cost{Units: len(b.Resources)},
			run:    run(&c, opt),
		})
	}
	cpus := opt
	cpus.CPUs *= 2
	workers, rate := b.Workers(opt)
	as := format.Count(cpus.CPUs, "CPU")
	cost := Cost{CPUs: opt.CPUs}
	perCPU := opt.Customers == 0 && ((rate == 0 && b.Load.Customers == 0) || (rate > 0 && b.Load.Servers == 0))
	if perCPU { // one worker per CPU, as the file (or --par 0) says
		as += ", one each"
		cost.Goroutines = workers
	}
	changes = append(changes, whatIf{change: "twice the CPUs", as: as, cost: cost, run: run(b, cpus)})
	return advise(pr, opt.Sched, changes)
}
