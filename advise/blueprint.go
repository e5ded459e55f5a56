package advise

import (
	"fmt"
	"slices"

	"github.com/brewput/brewput/blueprint"
	"github.com/brewput/brewput/results"
)

// Blueprint advises on a system described in YAML, simulated with opt: it
// tries one more unit of each resource the file declares, one more unit
// of every resource at once, twice the CPUs and twice the customers (or
// servers), and ranks them as Mode does.
func Blueprint(b *blueprint.Blueprint, opt blueprint.Options) (*Advice, error) {
	run := func(bp *blueprint.Blueprint, o blueprint.Options) func() (results.Point, error) {
		return func() (results.Point, error) {
			r, err := bp.Run(o)
			if err != nil {
				return results.Point{}, err
			}
			return bp.Point(r, o), nil
		}
	}
	now, err := run(b, opt)()
	if err != nil {
		return nil, err
	}
	var changes []trial
	more := func(i int) *blueprint.Blueprint {
		c := *b // Run changes no blueprint, so copies may share their steps
		c.Resources = slices.Clone(b.Resources)
		if i >= 0 {
			c.Resources[i].Capacity++
		} else {
			for j := range c.Resources {
				c.Resources[j].Capacity++
			}
		}
		return &c
	}
	for i, r := range b.Resources {
		changes = append(changes, trial{
			change: "one more " + r.Name,
			as:     fmt.Sprintf("%s: capacity %d", r.Name, r.Capacity+1),
			cost:   Cost{Units: 1},
			run:    run(more(i), opt),
		})
	}
	if len(b.Resources) > 1 {
		changes = append(changes, trial{
			change: "one more of every resource",
			as:     fmt.Sprintf("%d resources, each +1", len(b.Resources)),
			cost:   Cost{Units: len(b.Resources)},
			run:    run(more(-1), opt),
		})
	}

	cpus := opt
	cpus.CPUs *= 2
	workers := now.Par
	as := plural(cpus.CPUs, "CPU")
	cost := Cost{CPUs: opt.CPUs}
	perCPU := opt.Customers == 0 && ((now.Rate == 0 && b.Load.Customers == 0) || (now.Rate > 0 && b.Load.Servers == 0))
	if perCPU { // one worker per CPU, as the file (or --par 0) says
		as += ", one each"
		cost.Goroutines = workers
	}
	changes = append(changes, trial{change: "twice the CPUs", as: as, cost: cost, run: run(b, cpus)})

	who := "customer"
	if now.Rate > 0 {
		who = "server"
	}
	load := opt
	load.Customers = 2 * workers
	changes = append(changes, trial{change: "twice the " + who + "s", as: plural(load.Customers, who),
		cost: Cost{Goroutines: workers}, run: run(b, load)})

	system := fmt.Sprintf("%s on %s", b.Name, plural(opt.CPUs, "CPU"))
	return advise(system, trial{run: func() (results.Point, error) { return now, nil }}, changes)
}
