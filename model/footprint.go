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
	// Parts are what the memory goes to, largest first.
	Parts []Part
}

// Part is N of a kind (a blueprint.Part's, or a Part constant below) that
// take Bytes of a simulation's memory.
type Part struct {
	Kind     string
	N, Bytes float64
}

// The kinds of a footprint's parts beside its processes'.
const (
	PartMeters    = "meters"    // mutexes and meters
	PartSlots     = "slots"     // room in channels
	PartQueue     = "queue"     // an open loop's queue of arrivals
	PartLatencies = "latencies" // the drinks' latencies kept
	PartTwice     = "twice"     // a causal profile's twice the customers, as many again
)

// TooMuchMemory refuses a footprint that needs Bytes, more than Allowed:
// what it goes to, and, for a run's, how many simulations run at once.
type TooMuchMemory struct {
	Bytes, Allowed float64
	Parts          []Part
}

func (e *TooMuchMemory) Error() string {
	parts := make([]string, len(e.Parts))
	for i, p := range e.Parts {
		what := fmt.Sprintf("%.0f %s", p.N, p.Kind)
		switch p.Kind {
		case blueprint.PartWorkers:
			what = fmt.Sprintf("%.0f pipeline workers", p.N)
		case blueprint.PartBranches:
			what = fmt.Sprintf("%.0f parallel branches under way", p.N)
		case PartMeters:
			what = fmt.Sprintf("%.0f mutexes and meters", p.N)
		case PartSlots:
			what = fmt.Sprintf("channels with room for %.0f", p.N)
		case PartQueue:
			what = fmt.Sprintf("a queue of %.0f", p.N)
		case PartLatencies:
			what = fmt.Sprintf("%.3g drinks' latencies", p.N)
		case PartTwice:
			what = "as many again for its causal profile's twice the customers"
		}
		parts[i] = fmt.Sprintf("%s (%s)", what, format.Bytes(p.Bytes))
	}
	return fmt.Sprintf("would need about %s of memory (%s), more than the %s allowed", format.Bytes(e.Bytes), strings.Join(parts, ", "), format.Bytes(e.Allowed))
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
	var parts []Part
	procs := 0.0
	for _, p := range sz.Parts {
		procs += p.Procs
		if p.Procs > 0 {
			parts = append(parts, Part{p.Kind, p.Procs, p.Procs * procBytes})
		}
	}
	if sz.Machines > 0 {
		parts = append(parts, Part{PartMeters, sz.Machines, sz.Machines * machineBytes})
	}
	if sz.Slots > 0 {
		parts = append(parts, Part{PartSlots, sz.Slots, sz.Slots * slotBytes})
	}
	if c.Rate > 0 {
		procs++ // the dispatcher
		parts = append(parts, Part{PartQueue, float64(c.MaxQ), float64(c.MaxQ) * slotBytes})
	}
	drinks := sz.Drinks * c.Dur.Seconds()
	records := drinks * recordBytes
	if c.Rate > 0 {
		records *= 2 // service times too
	}
	parts = append(parts, Part{PartLatencies, drinks, records})

	// The warm-up: at most drinks a second, at least three a customer.
	warm := sz.Drinks*c.Warmup.Seconds() + 3*float64(c.Par)
	perDrink := max(float64(eventsPerDrink), sz.Events)
	f := Footprint{Events: procs*eventsPerProc + (warm+drinks)*perDrink, Meters: max(sz.Meters, 3)}
	if c.Rate > 0 {
		f.Events += c.Rate * (c.Warmup + c.Dur).Seconds() // each arrival
	}
	f.Events += sz.Machines // each mutex and meter is built, about an event's work
	for _, p := range parts {
		f.Bytes += p.Bytes
	}
	slices.SortStableFunc(parts, func(a, b Part) int { return cmp.Compare(b.Bytes, a.Bytes) })
	for _, p := range parts {
		if p.Bytes >= 1<<20 || len(f.Parts) == 0 {
			f.Parts = append(f.Parts, p)
		}
	}
	return f
}

// Limits are what a run may take: bytes; events a simulation, and all
// the simulations of a run together.
type Limits struct {
	Bytes  float64
	Events float64
	Work   float64
	// Rate is the events a second one core simulates, where pilots
	// measured it; 0 reads as 5 million.
	Rate float64
	// Pilot is how long one pilot may run (PilotTime), none where 0.
	Pilot time.Duration
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
		return &TooMuchMemory{Bytes: f.Bytes, Allowed: l.Bytes, Parts: f.Parts}
	}
	if l.Events > 0 && f.Events > l.Events {
		return fmt.Errorf("would simulate about %.3g events, more than the %.3g allowed (%s); shorten --dur or lower the load", f.Events, l.Events, l.eventsTime(f.Events, 1))
	}
	return nil
}

// eventsTime is how long events take to simulate on cores cores at l's
// rate.
func (l Limits) eventsTime(events float64, cores int) string {
	rate, at := l.Rate, "here"
	if rate <= 0 {
		rate, at = 5e6, "at 5 million a second"
	}
	d := time.Duration(events / rate / float64(cores) * float64(time.Second))
	return fmt.Sprintf("about %v %s", d.Round(time.Second), at)
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
	refine, err := checkRun(cfgs, sims, points, parallel, l, nil)
	if !refine || l.Pilot <= 0 {
		return err
	}
	// The estimate counts every order at its bound's rate and every event
	// an order could make, which nanosecond steps under the go policy pass
	// by ×10 and more: before refusing, a pilot of each configuration.
	ratios := make([]float64, len(cfgs))
	events, took := 0.0, time.Duration(0)
	for i, c := range cfgs {
		ratios[i] = 1
		if took > 5*l.Pilot {
			continue
		}
		start := time.Now()
		var n float64
		ratios[i], n = c.pilot(l.Pilot)
		events, took = events+n, took+time.Since(start)
	}
	if events >= 1e4 && took >= time.Millisecond {
		l.Rate = events / took.Seconds()
	}
	_, err = checkRun(cfgs, sims, points, parallel, l, ratios)
	return err
}

// checkRun is CheckRun with each configuration's events scaled by its
// ratio (none where nil); refine reports a refusal for events or work,
// which pilots may lift.
func checkRun(cfgs []Config, sims []int, points, parallel int, l Limits, ratios []float64) (refine bool, err error) {
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
		// One simulation is checked alone; only the point itself
		// simulates its band's edges besides.
		bare := c
		bare.Range = nil
		one := bare.Footprint().Events
		all := f.Events + float64(n-1)*one
		if ratios != nil {
			one, all = one*ratios[i], all*ratios[i]
		}
		f.Events = one
		if n > 1 {
			// The profile's "twice the customers" runs as many again.
			twice := float64(c.Resolve().Par) * procBytes
			f.Bytes += twice
			if twice >= 1<<20 {
				f.Parts = append(f.Parts, Part{PartTwice, float64(c.Resolve().Par), twice})
			}
		}
		if err := f.Check(each); err != nil {
			refine := f.Bytes <= each.Bytes || each.Bytes <= 0
			if parallel > 1 {
				return refine, fmt.Errorf("%s on %s %w (each of %d simulations at once)", c.Mode, format.Count(c.CPUs, "CPU"), err, parallel)
			}
			return refine, fmt.Errorf("%s on %s %w", c.Mode, format.Count(c.CPUs, "CPU"), err)
		}
		work += all
		runs += n
		// Its point, and its reliefs' without readings, are kept.
		kept += float64(n)*pointBytes + f.Meters*meterBytes
	}
	if l.Work > 0 && work > l.Work {
		return true, fmt.Errorf("%d simulations would process about %.3g events, more than the %.3g allowed (%s on %s)", runs, work, l.Work, l.eventsTime(work, max(parallel, 1)), format.Count(max(parallel, 1), "core"))
	}
	kept = max(kept, float64(points)*pointBytes)
	if l.Bytes > 0 && kept > l.Bytes {
		return false, fmt.Errorf("%d points would need about %s of memory to keep, more than the %s allowed", max(points, runs), format.Bytes(kept), format.Bytes(l.Bytes))
	}
	return false, nil
}

// A pilot simulates about pilotEvents events by the estimate, for at
// most PilotTime, and counts where it finished pilotOrders orders; a
// run's pilots stop after five times PilotTime.
const (
	pilotEvents = 2e5
	PilotTime   = 100 * time.Millisecond
	pilotOrders = 1000
)

// pilot is the share of its estimated events that c makes, from
// simulating the start of its warm-up and window (which, on the published
// series of nanosecond steps, carried to the whole run within 1 %), 1
// where the pilot fails or finds more; and the events the pilot took.
func (c Config) pilot(limit time.Duration) (share, events float64) {
	c.Range, c.Probe, c.Trace = nil, false, nil
	est := c.Footprint().Events
	if !(est > pilotEvents) {
		return 1, 0
	}
	frac := pilotEvents / est
	c.Warmup = time.Duration(float64(c.Warmup) * frac)
	c.Dur = max(time.Duration(float64(c.Dur)*frac), time.Microsecond)
	// A pilot whose fixed costs (a warm-up of three long cycles, many
	// processes to start) do not shrink with its window is stopped.
	done := make(chan struct{})
	stop := time.AfterFunc(limit, func() { close(done) })
	defer stop.Stop()
	r, err := simulateOne(c, done)
	if err != nil || r.Lattes < pilotOrders {
		return 1, 0 // too few orders for a steady rate
	}
	return min(1, float64(r.Events)/c.Footprint().Events), float64(r.Events)
}
