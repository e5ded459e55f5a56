package advise

import (
	"fmt"

	"github.com/brewput/brewput/causal"
	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
)

// Mode advises on one of the coffee shop's modes as cfg sets it up: its
// causal profile (each resource relieved a little: causal.Mode) and the
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
func Mode(cfg model.Config) (*Advice, error) {
	pr, err := causal.Mode(cfg)
	if err != nil {
		return nil, err
	}
	mode, _ := coffee.ParseMode(cfg.Mode) // checked by causal.Mode
	run := func(c model.Config) func() (results.Point, error) {
		return func() (results.Point, error) {
			r, err := model.Run(c)
			if err != nil {
				return results.Point{}, err
			}
			return r.Point(c), nil
		}
	}
	customers := cfg.Customers
	if customers == 0 {
		customers = cfg.CPUs
	}
	var changes []trial
	add := func(change, as string, cost Cost, c model.Config) {
		changes = append(changes, trial{change: change, as: as, cost: cost, run: run(c)})
	}
	with := func(mode string) model.Config {
		c := cfg
		c.Mode, c.Copies, c.Buffers, c.Split = mode, model.Copies{}, model.Copies{}, false
		return c
	}
	slots := func(n int) Cost { return Cost{BufferSlots: n, BufferBytes: n * coffee.TicketBytes} }
	// Another copy of each machine.
	switch mode.Family {
	case "finelocking", "parsteam":
		add("another copy of each machine", "multi-2", Cost{Machines: 3}, with("multi-2"))
	case "multi":
		add("another copy of each machine", fmt.Sprintf("multi-%d", mode.N+1), Cost{Machines: 3}, with(fmt.Sprintf("multi-%d", mode.N+1)))
	case "linearpipe":
		// multipipe's lines have buffers of 1: the order queue and two
		// channels a line.
		c := slots(5 - 3*mode.N)
		c.Machines, c.Goroutines = 3, 3
		add("another line of machines", "multipipe-2", c, with("multipipe-2"))
	case "multipipe":
		c := slots(2)
		c.Machines, c.Goroutines = 3, 3
		add("another line of machines", fmt.Sprintf("multipipe-%d", mode.N+1), c, with(fmt.Sprintf("multipipe-%d", mode.N+1)))
	}
	// A buffer between all of a pipeline's stages: into each stage's
	// channel (the entry's included) go to - N more slots.
	if pipes := map[string]int{"linearpipe": 3, "americanopipe": 2, "espressopipe": 2, "splitpipe": 3}; pipes[mode.Family] > 0 && mode.N < 10 {
		to := 1
		if mode.N > 0 {
			to = 10
		}
		as := fmt.Sprintf("%s-%d", mode.Family, to)
		add(fmt.Sprintf("buffers of %d between the stages", to), as, slots(pipes[mode.Family]*(to-mode.N)), with(as))
	}
	// A split critical section.
	switch mode.Family {
	case "locking":
		add("a lock per machine instead of one for the kitchen", "finelocking", Cost{Locks: 2}, with("finelocking"))
	case "finelocking":
		add("steam the milk while grinding and pressing", "parsteam", Cost{Goroutines: customers}, with("parsteam"))
	case "linearpipe":
		as := fmt.Sprintf("splitpipe-%d", mode.N)
		add("steam the milk on a branch of its own", as, Cost{}, with(as))
	}
	// Twice the CPUs (the profile has one more, and twice the customers).
	more := cfg
	more.CPUs *= 2
	as := plural(more.CPUs, "CPU")
	cost := Cost{CPUs: cfg.CPUs}
	if cfg.Customers == 0 { // one customer per CPU, as the study's --par 0
		as += fmt.Sprintf(", one %s each", map[bool]string{false: "customer", true: "server"}[cfg.Rate > 0])
		cost.Goroutines = customers
	}
	add("twice the CPUs", as, cost, more)
	return advise(pr, cfg.Sched, changes)
}
