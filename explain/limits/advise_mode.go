package limits

import (
	"fmt"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
)

// Mode advises on one of the coffee shop's modes as cfg sets it up: its
// causal profile (each resource relieved a little: Mode) and the
// structural changes the talk discusses that apply to the mode, all
// simulated and ranked together. The structural changes:
//
//   - another copy of each machine (finelocking and parsteam become
//     multi-2, multi-N becomes multi-N+1, a pipeline gets a second line);
//   - buffers between all of a pipeline's stages (linearpipe-0 →
//     linearpipe-1, a smaller buffer → 10);
//   - a split critical section (locking → finelocking, finelocking →
//     parsteam, linearpipe → splitpipe: steaming on a branch of its own);
//   - twice the CPUs.
func AdviseMode(cfg model.Config) (*Advice, error) {
	pr, err := ProfileMode(cfg)
	if err != nil {
		return nil, err
	}
	mode := cfg.Mode
	customers := cfg.Customers
	if customers == 0 {
		customers = cfg.CPUs
	}
	var changes []whatIf
	add := func(change, as string, cost Cost, c model.Config) {
		changes = append(changes, whatIf{change: change, as: as, cost: cost, run: func() (results.Point, error) { return modePoint(c) }})
	}
	// with is cfg in another mode, none of cfg's variant kept; as names
	// it.
	with := func(family string, n int) (as string, c model.Config) {
		c = cfg
		c.Mode, c.Copies, c.Buffers, c.Split = coffee.Mode{Family: family, N: n}, model.Copies{}, model.Copies{}, false
		return c.Mode.String(), c
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
		// multipipe's lines have buffers of 1: the order queue and two
		// channels a line.
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
	// A buffer between all of a pipeline's stages: into each stage's
	// channel (the entry's included) go to - N more slots.
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
		add("steam the milk while grinding and pressing", as, Cost{Goroutines: customers}, c)
	case "linearpipe":
		as, c := with("splitpipe", mode.N)
		add("steam the milk on a branch of its own", as, Cost{}, c)
	}
	// Twice the CPUs (the profile has one more, and twice the customers).
	more := cfg
	more.CPUs *= 2
	as := format.Count(more.CPUs, "CPU")
	cost := Cost{CPUs: cfg.CPUs}
	if cfg.Customers == 0 { // one customer per CPU, as the study's --par 0
		as += fmt.Sprintf(", one %s each", map[bool]string{false: "customer", true: "server"}[cfg.Rate > 0])
		cost.Goroutines = customers
	}
	add("twice the CPUs", as, cost, more)
	return advise(pr, cfg.Sched, changes)
}
