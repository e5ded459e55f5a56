package advise

import (
	"fmt"
	"time"

	"github.com/brewput/brewput/analysis"
	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
)

// Mode advises on one of the coffee shop's modes as cfg sets it up: it
// simulates cfg, then each structural change the talk discusses that
// applies to the mode, and ranks them. The changes:
//
//   - another copy of each machine (finelocking and parsteam become
//     multi-2, multi-N becomes multi-N+1, a pipeline gets a second line);
//   - another copy of the busiest machine only (a multi shop with one
//     more of that kind);
//   - a buffer between pipeline stages (linearpipe-0 → linearpipe-1, a
//     smaller buffer → 10);
//   - a split critical section (locking → finelocking, finelocking →
//     parsteam, linearpipe → splitpipe: steaming on a branch of its own);
//   - a shorter critical section (the busiest machine's step, or every
//     step under the kitchen lock or on the CPUs, a quarter shorter);
//   - twice the CPUs, and twice the customers (or servers).
func Mode(cfg model.Config) (*Advice, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	mode := cfg.Mode
	run := func(c model.Config) func() (results.Point, error) {
		return func() (results.Point, error) {
			r, err := model.Run(c)
			if err != nil {
				return results.Point{}, err
			}
			return r.Point(c), nil
		}
	}
	// The busiest machine, for the changes aimed at it.
	now, err := run(cfg)()
	if err != nil {
		return nil, err
	}
	b := analysis.Bottleneck(now)
	busiest, step := busiestMachine(now)

	customers := cfg.Customers
	if customers == 0 {
		customers = cfg.CPUs
	}
	var changes []trial
	add := func(change, as string, cost Cost, c model.Config) {
		changes = append(changes, trial{change: change, as: as, cost: cost, run: run(c)})
	}
	// with is cfg in another mode; as names it.
	with := func(family string, n int) (as string, c model.Config) {
		c = cfg
		c.Mode = coffee.Mode{Family: family, N: n}
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

	// Another copy of the busiest machine only.
	if busiest != "" && (mode.Family == "finelocking" || mode.Family == "multi") {
		n := max(mode.N, 1)
		_, c := with("multi", n)
		switch busiest {
		case "grinder":
			c.Copies.Grinder = n + 1
		case "espresso":
			c.Copies.Espresso = n + 1
		case "steamer":
			c.Copies.Steamer = n + 1
		}
		add("another "+machineName(busiest), fmt.Sprintf("%s with %d %ss", c.Mode, n+1, busiest), Cost{Machines: 1}, c)
	}

	// A buffer between pipeline stages: into each stage's channel (the
	// entry's included) go to - N more slots.
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

	// A shorter critical section: a quarter off the busiest machine's step,
	// or off every step when the kitchen lock or the CPUs limit.
	quarter := func(d time.Duration) time.Duration { return d * 3 / 4 }
	if b.Resource == "kitchen" || b.Resource == "cpus" || busiest == "" {
		c := cfg
		c.Grind, c.Press, c.Steam, c.Combine = quarter(c.Grind), quarter(c.Press), quarter(c.Steam), quarter(c.Combine)
		add("every step a quarter shorter", "steps ×0.75", Cost{}, c)
	} else {
		c := cfg
		switch busiest {
		case "grinder":
			c.Grind = quarter(c.Grind)
		case "espresso":
			c.Press = quarter(c.Press)
		case "steamer":
			c.Steam = quarter(c.Steam)
		}
		add(step+" a quarter shorter", step+" ×0.75", Cost{}, c)
	}

	// More CPUs, more customers.
	more := cfg
	more.CPUs *= 2
	as := plural(more.CPUs, "CPU")
	if cfg.Customers == 0 { // one customer per CPU, as the study's --par 0
		as += fmt.Sprintf(", one %s each", map[bool]string{false: "customer", true: "server"}[cfg.Rate > 0])
	}
	cost := Cost{CPUs: cfg.CPUs}
	if cfg.Customers == 0 {
		cost.Goroutines = customers
	}
	add("twice the CPUs", as, cost, more)
	more = cfg
	more.Customers = 2 * customers
	who := "customer"
	if cfg.Rate > 0 {
		who = "server"
	}
	add("twice the "+who+"s", plural(more.Customers, who), Cost{Goroutines: customers}, more)

	system := fmt.Sprintf("%s on %s", mode, plural(cfg.CPUs, "CPU"))
	return advise(system, trial{run: func() (results.Point, error) { return now, nil }}, changes)
}

// busiestMachine is the kind of the busiest machine p's mode holds and
// its step's name, or "" if it holds none (ideal's are shared freely, the
// kitchen lock is no machine).
func busiestMachine(p results.Point) (kind, step string) {
	best := -1.0
	for _, r := range analysis.Resources(p) {
		if r.Name != "cpus" && r.Utilization > best {
			best, kind = r.Utilization, r.Name
		}
	}
	steps := map[string]string{"grinder": "grinding", "espresso": "pressing", "steamer": "steaming"}
	if s := steps[kind]; s != "" {
		return kind, s
	}
	return "", ""
}

func machineName(kind string) string {
	if kind == "espresso" {
		return "espresso machine"
	}
	return kind
}
