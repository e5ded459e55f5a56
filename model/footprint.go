package model

import (
	"fmt"
	"strings"
	"time"

	"github.com/brewput/brewput/internal/format"
)

// Footprint is what simulating a configuration takes, estimated from the
// configuration alone, before anything is built: the memory its processes,
// machines, queues and records hold at most, and the events the engine
// processes. It lets a caller refuse a run that would take the machine's
// memory, or hours, before it starts.
type Footprint struct {
	Bytes  float64
	Events float64
	// Parts name what the memory goes to, largest first:
	// "1000000000 customers (8.0 TB)".
	Parts []string
}

// What a simulation holds, measured on amd64 with Go 1.26 and rounded up:
// a process (a goroutine behind its coroutine, with its stack) 3 to
// 5.5 KB; a machine with its lock and meters 0.5 KB; a latency recorded
// 8 bytes; a drink about 15 events in the shop's modes, 20 counted.
const (
	procBytes      = 8 << 10
	machineBytes   = 1 << 10
	recordBytes    = 8
	slotBytes      = 16 // a queued arrival or a ticket in a channel's ring
	eventsPerDrink = 20
	eventsPerProc  = 5 // starting it, and its first steps
)

// Footprint estimates what simulating c takes (see Footprint), with a
// band's corners where c has a Range. A configuration that Validate would
// refuse gets an estimate all the same, of its numbers as they are.
func (c Config) Footprint() Footprint {
	what := "customers"
	if c.Rate > 0 {
		what = "servers"
	}
	sz := Sizes{Parts: []Part{{What: fmt.Sprintf("%d %s", c.customers(), what), Procs: float64(c.customers())}}}
	stages, lines, machines := c.structureSize()
	if stages > 0 {
		sz.Parts = append(sz.Parts, Part{What: fmt.Sprintf("%.0f stage workers", stages*lines), Procs: stages * lines})
		buf := float64(c.Mode.N)
		for _, b := range []int{c.Buffers.Grinder, c.Buffers.Espresso, c.Buffers.Steamer} {
			buf = max(buf, float64(b))
		}
		sz.Slots = 3 * lines * buf
	}
	sz.Machines = machines
	sz.Drinks, _ = c.drinksPerSecond()
	f := Estimate(c, sz)
	// A band simulates the point again, one run at a time.
	if c.Range != nil && c.sched() == "go" {
		f.Events *= float64(1 + c.bandRuns())
	}
	return f
}

// Sizes are what a system is made of, for Estimate: its processes by what
// they are, its machines, the room in its channels, and the most drinks
// (orders) it makes a second.
type Sizes struct {
	Parts    []Part
	Machines float64
	Slots    float64
	Drinks   float64
}

// Part is some of a system's processes: "6 customers".
type Part struct {
	What  string
	Procs float64
}

// Estimate is the footprint of a system of sizes sz under c's load and
// window (c's CPUs, customers, rate, queue, warm-up and duration): what
// package blueprint's systems are estimated with, as the shop's modes are.
func Estimate(c Config, sz Sizes) Footprint {
	var parts []part
	procs := 0.0
	for _, p := range sz.Parts {
		procs += p.Procs
		if p.Procs > 0 {
			parts = append(parts, part{p.What, p.Procs * procBytes})
		}
	}
	if sz.Machines > 0 {
		parts = append(parts, part{fmt.Sprintf("%.0f machines", sz.Machines), sz.Machines * machineBytes})
	}
	if sz.Slots > 0 {
		parts = append(parts, part{fmt.Sprintf("channels with room for %.0f", sz.Slots), sz.Slots * slotBytes})
	}
	if c.Rate > 0 {
		procs++ // the dispatcher
		parts = append(parts, part{fmt.Sprintf("a queue of %d", c.MaxQ), float64(c.MaxQ) * slotBytes})
	}
	drinks := sz.Drinks * c.Duration.Seconds()
	records := drinks * recordBytes
	if c.Rate > 0 {
		records *= 2 // service times too
	}
	parts = append(parts, part{fmt.Sprintf("%.3g drinks' latencies", drinks), records})

	// The warm-up runs at least three of a customer's cycles, at most
	// drinks a second: three drinks a customer, whatever the rate.
	warm := sz.Drinks*c.Warmup.Seconds() + 3*float64(c.customers())
	f := Footprint{Events: procs*eventsPerProc + (warm+drinks)*eventsPerDrink}
	if c.Rate > 0 {
		f.Events += c.Rate * (c.Warmup + c.Duration).Seconds() // each arrival
	}
	for _, p := range parts {
		f.Bytes += p.bytes
	}
	sortParts(parts)
	for _, p := range parts {
		if p.bytes >= 1<<20 || len(f.Parts) == 0 {
			f.Parts = append(f.Parts, fmt.Sprintf("%s (%s)", p.what, format.Bytes(p.bytes)))
		}
	}
	return f
}

type part struct {
	what  string
	bytes float64
}

func sortParts(ps []part) {
	for i := 1; i < len(ps); i++ {
		for j := i; j > 0 && ps[j].bytes > ps[j-1].bytes; j-- {
			ps[j], ps[j-1] = ps[j-1], ps[j]
		}
	}
}

// structureSize is the mode's size apart from its customers: its pipeline
// stages and lines (0 stages for a mode without a pipeline), and its
// machines.
func (c Config) structureSize() (stages, lines, machines float64) {
	copies := func(mode int) float64 {
		n := float64(mode)
		for _, k := range []int{c.Copies.Grinder, c.Copies.Espresso, c.Copies.Steamer} {
			n = max(n, float64(k))
		}
		return n
	}
	switch c.Mode.Family {
	case "multi":
		return 0, 0, 3 * copies(c.Mode.N)
	case "finelocking", "parsteam", "americano", "espresso", "locking":
		return 0, 0, 3 * copies(1)
	case "linearpipe", "splitpipe", "americanopipe", "espressopipe":
		return 3 * copies(1), 1, 3 * copies(1)
	case "multipipe":
		return 3 * copies(1), float64(c.Mode.N), 3 * copies(1) * float64(c.Mode.N)
	}
	return 0, 0, 0
}

// drinksPerSecond is the most drinks a second the configuration can make:
// its arrival rate, or its CPUs over a drink's least CPU time.
func (c Config) drinksPerSecond() (float64, bool) {
	if c.Rate > 0 {
		return c.Rate, true
	}
	drink := c.Grind + c.Press + c.Steam + c.Combine - 3*c.Jitter/2
	switch c.Mode.Family {
	case "americano", "espresso", "americanopipe", "espressopipe":
		drink -= c.Steam
	}
	if drink <= 0 {
		return 0, false // refused as it is: a closed loop must advance
	}
	return float64(c.CPUs) / drink.Seconds(), true
}

// Limits are what a run may take: memory in bytes (a budget), and events
// per simulation.
type Limits struct {
	Bytes  float64
	Events float64
}

// MaxEvents is the most events one simulation may process by default:
// at the engine's 3 to 5 million events a second, about five minutes.
const MaxEvents = 1e9

// Check refuses a footprint beyond the limits, saying the estimate and
// the limit.
func (f Footprint) Check(l Limits) error {
	if l.Bytes > 0 && f.Bytes > l.Bytes {
		return fmt.Errorf("would need about %s of memory (%s), more than the %s allowed", format.Bytes(f.Bytes), strings.Join(f.Parts, ", "), format.Bytes(l.Bytes))

	}
	if l.Events > 0 && f.Events > l.Events {
		return fmt.Errorf("would simulate about %.3g events, more than the %.3g allowed (about %v at 5 million a second); shorten --dur or lower the load", f.Events, l.Events, time.Duration(f.Events/5e6*float64(time.Second)).Round(time.Second))
	}
	return nil
}

// pointBytes is what a simulated point, with its causal profile, holds
// in memory while a run keeps it, rounded up.
const pointBytes = 16 << 10

// CheckRun refuses, before anything is simulated, a run of cfgs, each
// with its causal profile, that would go past l: a configuration whose
// simulation would take more memory, with as many simulations at once as
// parallel (a causal profile's reliefs run side by side, the largest of
// them with twice the customers), or more events, than l allows, or more
// points kept than the memory holds. Its error names the configuration
// and says the estimate and the limit.
func CheckRun(cfgs []Config, points, parallel int, l Limits) error {
	each := l
	if each.Bytes > 0 {
		each.Bytes /= float64(max(parallel, 1))
	}
	for _, c := range cfgs {
		f := c.Footprint()
		// The profile's "twice the customers" runs as many again.
		twice := float64(c.customers()) * procBytes
		f.Bytes += twice
		if twice >= 1<<20 {
			f.Parts = append(f.Parts, fmt.Sprintf("as many again for its causal profile's twice the customers (%s)", format.Bytes(twice)))
		}
		if err := f.Check(each); err != nil {
			at := ""
			if parallel > 1 {
				at = fmt.Sprintf(" (each of %d simulations at once)", parallel)
			}
			return fmt.Errorf("%s on %s %w%s", c.Mode, format.Count(c.CPUs, "CPU"), err, at)
		}
	}
	if kept := float64(points) * pointBytes; l.Bytes > 0 && kept > l.Bytes {
		return fmt.Errorf("%d points would need about %s of memory to keep, more than the %s allowed", points, format.Bytes(kept), format.Bytes(l.Bytes))
	}
	return nil
}
