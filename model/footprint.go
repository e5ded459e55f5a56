package model

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/model/blueprint"
)

// Footprint is what simulating a configuration takes, estimated before
// anything is built: its memory at most, and its events.
type Footprint struct {
	Bytes  float64
	Events float64
	// Meters are the readings the point keeps, one a resource.
	Meters float64
	// Parts name what the memory goes to, largest first.
	Parts []string
}

// What a simulation holds, measured on amd64 with Go 1.26, rounded up.
const (
	procBytes      = 8 << 10
	machineBytes   = 1 << 10
	recordBytes    = 8
	slotBytes      = 16 // a queued arrival or a ticket in a channel's ring
	eventsPerDrink = 20
	eventsPerProc  = 5 // starting it, and its first steps
)

// Footprint estimates what simulating c takes, with its band's edges.
func (c Config) Footprint() Footprint {
	c = c.Resolve()
	c.CPUs = max(c.CPUs, 1)
	mode, _ := coffee.ParseMode(c.Mode)
	f := estimate(c, c.system(mode).Sizes(c.Load, c.CPUs))
	// A band simulates the point again, one run at a time.
	if c.Range != nil && c.sched() == "go" {
		f.Events *= float64(1 + len(c.Edges()))
	}
	return f
}

// estimate is the footprint of sizes sz under c's load and window.
func estimate(c Config, sz blueprint.Sizes) Footprint {
	var parts []part
	procs := 0.0
	for _, p := range sz.Parts {
		procs += p.Procs
		if p.Procs > 0 {
			parts = append(parts, part{p.What, p.Procs * procBytes})
		}
	}
	if sz.Machines > 0 {
		parts = append(parts, part{fmt.Sprintf("%.0f mutexes and meters", sz.Machines), sz.Machines * machineBytes})
	}
	if sz.Slots > 0 {
		parts = append(parts, part{fmt.Sprintf("channels with room for %.0f", sz.Slots), sz.Slots * slotBytes})
	}
	if c.Rate > 0 {
		procs++ // the dispatcher
		parts = append(parts, part{fmt.Sprintf("a queue of %d", c.MaxQ), float64(c.MaxQ) * slotBytes})
	}
	drinks := sz.Drinks * c.Dur.Seconds()
	records := drinks * recordBytes
	if c.Rate > 0 {
		records *= 2 // service times too
	}
	parts = append(parts, part{fmt.Sprintf("%.3g drinks' latencies", drinks), records})

	// The warm-up: at most drinks a second, at least three a customer.
	warm := sz.Drinks*c.Warmup.Seconds() + 3*float64(c.Par)
	perDrink := max(float64(eventsPerDrink), sz.Events)
	f := Footprint{Events: procs*eventsPerProc + (warm+drinks)*perDrink, Meters: max(sz.Meters, 3)}
	if c.Rate > 0 {
		f.Events += c.Rate * (c.Warmup + c.Dur).Seconds() // each arrival
	}
	f.Events += sz.Machines // each mutex and meter is built, about an event's work
	for _, p := range parts {
		f.Bytes += p.bytes
	}
	slices.SortStableFunc(parts, func(a, b part) int { return cmp.Compare(b.bytes, a.bytes) })
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

// Limits are what a run may take: bytes; events a simulation, and all
// the simulations of a run together.
type Limits struct {
	Bytes  float64
	Events float64
	Work   float64
}

// MaxEvents is the most events one simulation may process (about 3
// minutes), MaxWork the most all of a run's may (about 15 minutes on one
// core, at 5 million a second).
const (
	MaxEvents = 1e9
	MaxWork   = 5e9
)

// Check refuses a footprint beyond l.
func (f Footprint) Check(l Limits) error {
	if l.Bytes > 0 && f.Bytes > l.Bytes {
		return fmt.Errorf("would need about %s of memory (%s), more than the %s allowed", format.Bytes(f.Bytes), strings.Join(f.Parts, ", "), format.Bytes(l.Bytes))

	}
	if l.Events > 0 && f.Events > l.Events {
		return fmt.Errorf("would simulate about %.3g events, more than the %.3g allowed (%s); shorten --dur or lower the load", f.Events, l.Events, eventsTime(f.Events))
	}
	return nil
}

// eventsTime is how long events take to simulate on one core.
func eventsTime(events float64) string {
	return "about " + time.Duration(events/5e6*float64(time.Second)).Round(time.Second).String() + " at 5 million a second"
}

// pointBytes is what a kept point, with its profile, holds; meterBytes
// what each reading of a resource adds to it.
const (
	pointBytes = 16 << 10
	meterBytes = 256
)

// CheckRun refuses a run of cfgs whose simulations (parallel at once),
// kept points or work pass l. sims[i] is how many simulations cfgs[i]
// takes (with its causal profile's reliefs); points is how many points
// the run keeps in the end.
func CheckRun(cfgs []Config, sims []int, points, parallel int, l Limits) error {
	each := l
	if each.Bytes > 0 {
		each.Bytes /= float64(max(parallel, 1))
	}
	work, runs, kept := 0.0, 0, 0.0
	for i, c := range cfgs {
		f := c.Footprint()
		n := 1
		if i < len(sims) {
			n = max(sims[i], 1)
		}
		if n > 1 {
			// The profile's "twice the customers" runs as many again.
			twice := float64(c.Resolve().Par) * procBytes
			f.Bytes += twice
			if twice >= 1<<20 {
				f.Parts = append(f.Parts, fmt.Sprintf("as many again for its causal profile's twice the customers (%s)", format.Bytes(twice)))
			}
		}
		if err := f.Check(each); err != nil {
			at := ""
			if parallel > 1 {
				at = fmt.Sprintf(" (each of %d simulations at once)", parallel)
			}
			return fmt.Errorf("%s on %s %w%s", c.Mode, format.Count(c.CPUs, "CPU"), err, at)
		}
		work += f.Events * float64(n)
		runs += n
		// Its point, and its reliefs' without readings, are kept.
		kept += float64(n)*pointBytes + f.Meters*meterBytes
	}
	if l.Work > 0 && work > l.Work {
		return fmt.Errorf("%d simulations would process about %.3g events, more than the %.3g allowed (%s, %d cores at once)", runs, work, l.Work, eventsTime(work), max(parallel, 1))
	}
	kept = max(kept, float64(points)*pointBytes)
	if l.Bytes > 0 && kept > l.Bytes {
		return fmt.Errorf("%d points would need about %s of memory to keep, more than the %s allowed", max(points, runs), format.Bytes(kept), format.Bytes(l.Bytes))
	}
	return nil
}
