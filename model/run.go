package model

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
)

// StructureOf is what cfg's bounds come from, with no simulation.
func StructureOf(cfg Config) (Structure, error) { return cfg.structure() }

// Bounds are c's analytic bounds, with no simulation.
func (c Config) Bounds() (Bounds, error) {
	st, err := c.structure()
	r := c.Resolve()
	return st.Bounds(r.CPUs, r.Par, r.Rate), err
}

// structure checks c and returns its structure.
func (c Config) structure() (Structure, error) {
	mode, err := c.validate()
	if err != nil {
		return Structure{}, err
	}
	r := c.Resolve()
	return c.system(mode).Structure(r.CPUs, r.Par)
}

// system is what c simulates: its System, or its mode of the shop as a
// blueprint, compiled from the family's shape.
func (c Config) system(mode coffee.Mode) *blueprint.Blueprint {
	if c.System != nil {
		return c.System
	}
	return blueprint.Shop(mode, c.Steps, c.Variant)
}

// advances refuses a closed loop whose operation takes no virtual time.
func (c Config) advances(st Structure) error {
	if c.Resolve().Rate == 0 && st.CPU == 0 && st.Path == 0 {
		return fmt.Errorf("%s in a closed loop: a drink takes no virtual time (every step it uses is 0), so the simulation could not advance; give its steps time, or give an open-loop rate", c.Mode)
	}
	return nil
}

// simulateOne simulates one point in its steady state (steady.go), without
// a band. done, once closed, stops it with context.Canceled.
func simulateOne(cfg Config, done <-chan struct{}) (result, error) {
	r, err := cfg.once(done)
	rc := cfg.Resolve()
	for range MaxRefills {
		if err != nil || rc.Rate == 0 || cfg.Trace != nil {
			break
		}
		w, ok := r.refill(rc.MaxQ + rc.Par)
		if !ok {
			break
		}
		again := cfg
		again.Warmup = w
		r, err = again.once(done)
	}
	return r, err
}

// once is run with the warm-up the bounds call for.
func (c Config) once(done <-chan struct{}) (result, error) {
	mode, err := c.validate()
	if err != nil {
		return result{}, err
	}
	var poisson bool
	if c.System != nil {
		c.Load, poisson = c.System.LoadAt(c.Load, c.CPUs)
		c.Draw, c.Policy.Seed, c.Phase = c.Phase, c.Policy.Seed+c.Phase, 0
	} else {
		c.Par = c.Workers(c.CPUs)
	}
	sys := c.system(mode)
	st, err := sys.Structure(c.CPUs, c.Par)
	if err != nil {
		return result{}, err
	}
	s := sim.New(c.Policy.Seed)
	defer s.Stop() // unwinds the processes that are still blocked
	s.SetCancel(done)
	cpus := c.newCPUs(s)
	run := blueprint.Run{Customers: c.Par, Seed: c.Policy.Seed, Draw: c.Draw}
	var log *stepLog
	if c.Trace != nil {
		log = newStepLog()
		run.Trace = log
	}
	op, read, order := sys.Build(s, cpus, run)
	if c.sched() != "fifo" || c.Rate > 0 || c.harness() == "talk" || c.coroutines {
		order = nil // only a closed loop's customers under fifo run as steps
	}
	if err := c.advances(st); err != nil {
		return result{}, err
	}
	b := st.Bounds(c.CPUs, c.Par, c.Rate)
	c.Warmup = c.warmupFor(b)
	if c.Trace != nil {
		c.Dur = c.Trace.Span
		c.startLog(s, cpus, log)
	}

	rec := record{Latency: make([]time.Duration, 0, capacity(c, b))}
	if c.Rate > 0 {
		rec.Service = make([]time.Duration, 0, cap(rec.Latency))
	}
	load{Load: c.Load, Poisson: poisson, Seed: c.Policy.Seed, Drain: c.Drain, Starts: c.starts(b)}.start(s, op, order, &rec)
	if c.Drain {
		return drained(c, s, cpus, b, &rec)
	}

	// Readings at the window's edges, as sweep takes them.
	s.RunUntil(c.Warmup)
	if s.Cancelled() {
		return result{}, context.Canceled
	}
	busy0, in0, before := cpus.Busy(), rec.InSystem, read()
	window := c.Dur
	var tally []checkpoint
	switch {
	case c.shortens() && c.edge && c.Dur > BandWindow:
		window = edge(s, c, &rec)
	case c.shortens():
		window, tally = tallied(s, c, &rec)
	default:
		s.RunUntil(c.Warmup + c.Dur)
	}
	if s.Cancelled() {
		return result{}, context.Canceled
	}
	if c.Trace != nil {
		c.endLog(cpus, log)
	}

	r := result{
		Lattes:     len(rec.Latency),
		Drops:      rec.Drops,
		Throughput: float64(len(rec.Latency)) / window.Seconds(),
		Latency:    Summarize(rec.Latency),
		CPUUtil:    float64(cpus.Busy()-busy0) / float64(time.Duration(c.CPUs)*window),
		Bounds:     b,
		Events:     s.Events(),
		Warmup:     c.Warmup,
		Window:     window,
		Tally:      tally,
		Arrived:    rec.Arrived,
		InSystem:   [2]int{in0, rec.InSystem},
	}
	c.machines(&r, &rec, before, read(), window, cpus.Busy()-busy0)
	return r, nil
}

// warmupFor is the warm-up bounds b call for (SteadyWarmup, an open loop's
// FillWarmup), none for the talk's protocol.
func (c Config) warmupFor(b Bounds) time.Duration {
	if c.Drain {
		return 0
	}
	if c.Rate <= 0 {
		return SteadyWarmup(c.Warmup, c.Par, b)
	}
	w := SteadyWarmup(c.Warmup, 0, b) // an open loop's servers wait rather than cycle
	if c.Trace == nil {
		w = FillWarmup(w, c.Dur, c.Rate, c.MaxQ+c.Par, b.Serves(c.Par))
	}
	return w
}

// startLog starts log recording the steps of the window, from the first
// customer on (after the dispatcher and the talk's generator).
func (c Config) startLog(s *sim.Sim, cpus *sim.CPUs, log *stepLog) {
	log.from, log.to = c.Warmup, c.Warmup+c.Dur
	cpus.Log(log.record)
	log.first = s.NextID()
	if c.Rate > 0 {
		log.first++ // the dispatcher comes first
	}
	if c.harness() == "talk" {
		log.first++ // the generator comes first
	}
}

// endLog ends log at the window's end, its steps in order of CPU and
// start, into c's Trace.
func (c Config) endLog(cpus *sim.CPUs, log *stepLog) {
	cpus.LogRunning()
	slices.SortStableFunc(log.steps, func(a, b Step) int {
		return cmp.Or(cmp.Compare(a.CPU, b.CPU), cmp.Compare(a.Start, b.Start))
	})
	c.Trace.Start, c.Trace.Steps = c.Warmup, log.steps
}

// machines gives r the service times (an open loop's) or Little's law
// (a closed loop's) of rec, and each resource's use over the window, from
// its readings before it to those at its end (the CPUs ran ran
// meanwhile), with the caveats they call for.
func (c Config) machines(r *result, rec *record, before, after []blueprint.Reading, window, ran time.Duration) {
	if c.Rate > 0 {
		svc := Summarize(rec.Service)
		r.Service = &svc
	} else {
		r.Little = Little(c.Par, r.Throughput, rec.Cycles, r.Lattes)
		r.Caveats = append(r.Caveats, lockstepCaveat(rec.Done)...)
	}
	for i, now := range after {
		d := blueprint.Reading{Uses: now.Uses - before[i].Uses, Held: now.Held - before[i].Held,
			Working: now.Working - before[i].Working, Wait: now.Wait - before[i].Wait, Stalls: now.Stalls - before[i].Stalls}
		unitTime := float64(time.Duration(now.Units) * window)
		m := results.Machine{Name: now.Name, Kind: now.Kind, Uses: d.Uses, BusyFrac: float64(d.Held) / unitTime, WorkingFrac: float64(d.Working) / unitTime}
		if d.Uses > 0 {
			m.MeanWaitMs = results.Ms(d.Wait / time.Duration(d.Uses))
		}
		r.Machines = append(r.Machines, m)
		if c.sched() != "fifo" && c.CPUs > 1 {
			if now.Kind == "mutex" { // its word's waits, of the time the CPUs ran
				stalled := float64(d.Stalls) / float64(max(1, ran))
				r.Caveats = append(r.Caveats, shortHoldCaveat(now.Name, d, m.BusyFrac, stalled)...)
			} else if float64(d.Stalls)/float64(time.Duration(c.CPUs)*window) >= sharedLineStalls {
				r.Caveats = append(r.Caveats, results.Caveat{Kind: results.CaveatSharedLine, Resource: now.Name})
			}
		}
	}
}

// A shared sync.Mutex held for less than shortHold a use and contended —
// busy at least shortHoldBusy of the time, or its word's line waited for
// that share of the CPUs' time — is where machines ran furthest from the
// model, either way (docs/model.md).
const (
	shortHold     = 100 * time.Nanosecond
	shortHoldBusy = 0.25
)

// shortHoldCaveat is the caveat on a brief, contended mutex (stalled: the
// share of the CPUs' running time spent waiting for its word).
func shortHoldCaveat(name string, d blueprint.Reading, busy, stalled float64) []results.Caveat {
	if d.Uses == 0 {
		return nil
	}
	hold := d.Held / time.Duration(d.Uses)
	if hold >= shortHold || busy < shortHoldBusy && stalled < shortHoldBusy {
		return nil
	}
	return []results.Caveat{{Kind: results.CaveatShortHold, Resource: name, Under: shortHold}}
}

// sharedLineStalls is the share of the CPUs' time spent waiting for a
// shared word's line from which its point is marked: how long machines
// keep such a word varies, and those measured ran at 0.4 to 1.7 times the
// model's figure (docs/model.md).
const sharedLineStalls = 0.25

// lockstepMin is how many operations each of the other customers must
// have finished, on average, for one that finished none to be held out
// by the model's own regularity rather than by a long operation.
const lockstepMin = 20

// lockstepCaveat is the caveat on a closed loop some of whose customers
// finished nothing while the others finished many: the model's exact times
// can bring one back to a lock at the same instant of its holder's loop
// each time, which machines, varying their times, do not.
func lockstepCaveat(done []int) []results.Caveat {
	idle, others := 0, 0
	for _, n := range done {
		if n == 0 {
			idle++
		}
		others += n
	}
	if idle == 0 || idle == len(done) || others < lockstepMin*(len(done)-idle) {
		return nil
	}
	return []results.Caveat{{Kind: results.CaveatLockstep, Idle: idle, Customers: len(done), Each: others / (len(done) - idle)}}
}

// A probe's window is the first of probeWindows counting ProbeCycles
// drinks a customer (within 0.2 % of an endless one). A Dur of
// MinProbeWindow or less runs in full.
const (
	ProbeCycles    = 500
	MinProbeWindow = 2 * time.Second
)

// probeWindows are where a probe may end: few, for its point to tally.
func probeWindows() []time.Duration {
	const s = time.Second
	return []time.Duration{2 * s, 3 * s, 4 * s, 6 * s, 8 * s, 12 * s, 16 * s}
}

// shortens reports whether a probe of c may end early (and c, if no
// probe, tallies).
func (c Config) shortens() bool {
	return c.System == nil && c.Rate == 0 && c.Steps.Jitter == 0 && c.Policy.Background.CPUs == 0 && !c.Drain && c.Dur > MinProbeWindow
}

// tallied runs c's window, counting at each shorter probe window, and
// returns how long it ran.
func tallied(s *sim.Sim, c Config, rec *record) (time.Duration, []checkpoint) {
	var tally []checkpoint
	for _, w := range probeWindows() {
		if w >= c.Dur {
			break
		}
		if s.RunUntil(c.Warmup + w); s.Cancelled() || (c.Probe && len(rec.Latency) >= ProbeCycles*c.Par) {
			return w, tally
		}
		tally = append(tally, checkpoint{Window: w, Lattes: len(rec.Latency)})
	}
	s.RunUntil(c.Warmup + c.Dur)
	return c.Dur, tally
}

// edge runs a band edge's window, and returns how long it ran.
func edge(s *sim.Sim, c Config, rec *record) time.Duration {
	if s.RunUntil(c.Warmup + BandWindow/2); s.Cancelled() {
		return c.Dur
	}
	half := len(rec.Latency)
	if s.RunUntil(c.Warmup + BandWindow); s.Cancelled() {
		return c.Dur
	}
	first, second := median(rec.Latency[:half]), median(rec.Latency[half:])
	if first > 0 && math.Abs(float64(second)/float64(first)-1) <= EdgeTolerance {
		return BandWindow
	}
	s.RunUntil(c.Warmup + c.Dur)
	return c.Dur
}

// median is l's nearest-rank median, l left as it is.
func median(l []time.Duration) time.Duration {
	if len(l) == 0 {
		return 0
	}
	return Summarize(slices.Clone(l)).P50
}

// drainLimit is how long the talk's protocol waits for its last call.
func drainLimit(c Config, b Bounds) time.Duration {
	return 10*c.Dur + 10*SteadyWarmup(0, c.Par, b)
}

// drained runs the talk's protocol to its end and reports every call.
func drained(c Config, s *sim.Sim, cpus *sim.CPUs, b Bounds, rec *record) (result, error) {
	limit := c.Dur + drainLimit(c, b)
	for t := c.Dur; ; t += c.Dur / 4 {
		s.RunUntil(min(t, limit))
		if s.Cancelled() {
			return result{}, context.Canceled
		}
		if (t > c.Dur && len(rec.Latency) >= rec.Issued) || t >= limit {
			break
		}
	}
	if len(rec.Latency) < rec.Issued {
		return result{}, fmt.Errorf("%s on %d CPUs: %d of %d requests still unserved %v after the talk's protocol stopped handing them out", c.Mode, c.CPUs, rec.Issued-len(rec.Latency), rec.Issued, drainLimit(c, b))
	}
	r := result{Lattes: len(rec.Latency), Latency: Summarize(rec.Latency), Bounds: b, Events: s.Events(), Window: c.Dur}
	if wall := rec.Last; wall > 0 {
		r.Throughput = float64(r.Lattes) / wall.Seconds()
		r.CPUUtil = float64(cpus.Busy()) / float64(time.Duration(c.CPUs)*wall)
	}
	return r, nil
}

// Little is Little's law's check for a closed loop: customers ÷
// (throughput × mean cycle); 1 in the steady state.
func Little(customers int, throughput float64, cycles time.Duration, n int) float64 {
	if n == 0 || throughput <= 0 || cycles <= 0 {
		return 0
	}
	mean := cycles.Seconds() / float64(n)
	return float64(customers) / (throughput * mean)
}

// SteadyWarmup is the warm-up that puts a point in its steady state: at
// least asked, and three of the longest cycle its bounds allow a customer.
// An open loop counts no customers (0): its servers wait rather than cycle.
func SteadyWarmup(asked time.Duration, customers int, b Bounds) time.Duration {
	if b.ThroughputMax <= 0 || math.IsInf(b.ThroughputMax, 1) {
		return asked
	}
	cycle := max(b.LatencyMin, time.Duration(float64(customers)/b.ThroughputMax*float64(time.Second)))
	return max(asked, 3*cycle)
}

// capacity is a hint for the latency slices' size.
func capacity(c Config, b Bounds) int {
	n := b.ThroughputMax*c.Dur.Seconds()*1.01 + float64(c.Par) + 16
	if math.IsInf(n, 0) || math.IsNaN(n) {
		return 1024
	}
	return int(min(n, 1<<22))
}

// starts are the customers' start delays of c.Phase, from the phase's
// own source, so that the jitter's draws stay the same.
func (c Config) starts(b Bounds) []time.Duration {
	if c.Phase == 0 || c.Rate > 0 || b.LatencyMin <= 0 {
		return nil
	}
	src := rand.New(rand.NewPCG(c.Phase, c.Policy.Seed))
	out := make([]time.Duration, c.Par)
	for i := range out {
		out[i] = time.Duration(src.Int64N(int64(b.LatencyMin)))
	}
	return out
}
