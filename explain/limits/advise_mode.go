package limits

import (
	"context"
	"fmt"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/blueprint"
)

// Advise is cfg's causal profile and the structural changes that apply,
// simulated and ranked together: the talk's for the shop (another copy of
// each machine or line, buffers, a split critical section), one more unit
// of every resource for a YAML system, and twice the CPUs.
func Advise(ctx context.Context, cfg model.Config) (*Advice, error) {
	var pr *CausalProfile
	err := CausalProfiles(ctx, []model.Config{cfg}, EveryRelief, func(_ int, p *CausalProfile, err error) error {
		pr = p
		return err
	})
	if err != nil {
		return nil, err
	}
	var changes []whatIf
	if b, ok := cfg.System.(*blueprint.Blueprint); ok {
		changes = systemWhatIfs(cfg, b)
	} else {
		changes = shopWhatIfs(cfg)
	}
	// Twice the CPUs (the causal profile has one more, and twice the customers).
	more := cfg
	more.CPUs *= 2
	as := format.Count(more.CPUs, "CPU")
	cost := Cost{CPUs: cfg.CPUs}
	if perCPU(cfg) {
		as += perCPUText(cfg)
		cost.Goroutines = cfg.Resolve().Par
	}
	changes = append(changes, whatIf{change: "twice the CPUs", as: as, cost: cost, cfg: more})
	return advise(ctx, pr, cfg.Policy.Sched, changes)
}

// shopWhatIfs are the talk's structural changes that apply to cfg's mode.
func shopWhatIfs(cfg model.Config) []whatIf {
	mode := coffee.MustParseMode(cfg.Mode)
	var changes []whatIf
	add := func(change, as string, cost Cost, c model.Config) {
		changes = append(changes, whatIf{change: change, as: as, cost: cost, cfg: c})
	}
	// with is cfg in another mode, without its variant.
	with := func(family string, n int) (as string, c model.Config) {
		c = cfg
		c.Mode, c.Variant = coffee.Mode{Family: family, N: n}.String(), coffee.Variant{}
		return c.Mode, c
	}
	slots := func(n int) Cost { return Cost{BufferSlots: n, BufferBytes: n * coffee.TicketBytes} }
	// Another copy of each machine.
	switch mode.Family {
	case "finelocking", "parsteam":
		as, c := with("multi", 2)
		add("another copy of each machine", as, Cost{Machines: 3}, c)
	case "multi":
		as, c := with("multi", mode.N+1)
		add("another copy of each machine", as, Cost{Machines: 3}, c)
	case "linearpipe":
		// multipipe's buffers of 1: the order queue and two a line.
		cost := slots(5 - 3*mode.N)
		cost.Machines, cost.Goroutines = 3, 3
		as, c := with("multipipe", 2)
		add("another line of machines", as, cost, c)
	case "multipipe":
		cost := slots(2)
		cost.Machines, cost.Goroutines = 3, 3
		as, c := with("multipipe", mode.N+1)
		add("another line of machines", as, cost, c)
	}
	// A buffer between all of a pipeline's stages: to - N more slots each.
	if pipes := map[string]int{"linearpipe": 3, "americanopipe": 2, "espressopipe": 2, "splitpipe": 3}; pipes[mode.Family] > 0 && mode.N < 10 {
		to := 1
		if mode.N > 0 {
			to = 10
		}
		as, c := with(mode.Family, to)
		add(fmt.Sprintf("buffers of %d between the stages", to), as, slots(pipes[mode.Family]*(to-mode.N)), c)
	}
	// A split critical section.
	switch mode.Family {
	case "locking":
		as, c := with("finelocking", 0)
		add("a lock per machine instead of one for the kitchen", as, Cost{Locks: 2}, c)
	case "finelocking":
		as, c := with("parsteam", 0)
		add("steam the milk while grinding and pressing", as, Cost{Goroutines: cfg.Resolve().Par}, c)
	case "linearpipe":
		as, c := with("splitpipe", mode.N)
		add("steam the milk on a branch of its own", as, Cost{}, c)
	}
	return changes
}

// perCPU reports whether cfg has a worker a CPU (--par 0, or the file).
func perCPU(cfg model.Config) bool {
	b, ok := cfg.System.(*blueprint.Blueprint)
	if !ok || cfg.Par > 0 {
		return cfg.Par == 0
	}
	if cfg.Resolve().Rate > 0 {
		return b.Load.Servers == 0
	}
	return b.Load.Customers == 0
}

// perCPUText says what perCPU gets on twice the CPUs.
func perCPUText(cfg model.Config) string {
	if cfg.System != nil {
		return ", one each"
	}
	return fmt.Sprintf(", one %s each", map[bool]string{false: "customer", true: "server"}[cfg.Rate > 0])
}
