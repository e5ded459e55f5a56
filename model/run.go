package model

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/brewput/brewput/model/sim"
)

// Validate reports what is wrong with cfg, if anything, without simulating:
// what Run would refuse. It lets a caller check every point of a study
// before spending time on any.
func (c Config) Validate() error {
	mode, err := c.validate()
	if err != nil {
		return err
	}
	s := sim.New(c.Seed)
	defer s.Stop()
	shop, err := newShop(s, mode, newSteps(c, s, clock{CPUs: sim.NewCPUs(s, c.CPUs)}), c.Variant())
	if err != nil {
		return err
	}
	return c.advances(mode, shop.structure())
}

// StructureOf returns what cfg's mode declares its bounds from, with no
// simulation: the resources a drink holds and for how long, its CPU time
// and its critical path. It lets a caller judge a point, measured or
// modeled, resource by resource.
func StructureOf(cfg Config) (Structure, error) {
	mode, err := cfg.validate()
	if err != nil {
		return Structure{}, err
	}
	s := sim.New(cfg.Seed)
	defer s.Stop()
	shop, err := newShop(s, mode, newSteps(cfg, s, clock{CPUs: sim.NewCPUs(s, cfg.CPUs)}), cfg.Variant())
	if err != nil {
		return Structure{}, err
	}
	return shop.structure(), nil
}

// advances refuses a closed loop whose drink takes no virtual time: its
// customers would order forever at one instant.
func (c Config) advances(mode fmt.Stringer, st structure) error {
	if c.Rate == 0 && st.CPU == 0 {
		return fmt.Errorf("%s in a closed loop: a drink takes no virtual time (every step it uses is 0), so the simulation could not advance; give its steps time, or give an open-loop rate", mode)
	}
	return nil
}

// Run simulates one point: cfg's mode on cfg's virtual CPUs under cfg's
// load, measured as the harness measures a real one, with the point's
// bounds, in its steady state where it has one (see steady.go). The same
// cfg gives the same Result.
func Run(cfg Config) (Result, error) {
	r, err := simulate(cfg)
	if err != nil {
		return Result{}, err
	}
	for range MaxRefills {
		w, ok := r.Refill(cfg.MaxQ + cfg.customers())
		if cfg.Rate == 0 || !ok {
			break
		}
		again := cfg
		again.Warmup = w
		if r, err = simulate(again); err != nil {
			return Result{}, err
		}
	}
	if cfg.Range != nil && cfg.sched() == "go" {
		if r.Band, err = band(cfg, *cfg.Range, r); err != nil {
			return Result{}, err
		}
	}
	return r, nil
}

// simulate is Run without the band, and with the warm-up the bounds call
// for.
func simulate(cfg Config) (Result, error) {
	mode, err := cfg.validate()
	if err != nil {
		return Result{}, err
	}
	s := sim.New(cfg.Seed)
	defer s.Stop() // unwinds the processes that are still blocked
	s.SetCancel(cfg.Cancel)
	cpus := cfg.newCPUs(s)
	shop, err := newShop(s, mode, newSteps(cfg, s, clock{CPUs: cpus}), cfg.Variant())
	if err != nil {
		return Result{}, err
	}
	st := shop.structure()
	if err := cfg.advances(mode, st); err != nil {
		return Result{}, err
	}
	b := bounds(cfg, st)
	cfg.Warmup = SteadyWarmup(cfg.Warmup, closedLoop(cfg.customers(), cfg.Rate), b)
	if cfg.Rate > 0 {
		cfg.Warmup = FillWarmup(cfg.Warmup, cfg.Duration, cfg.Rate, cfg.MaxQ+cfg.customers(), b.Serves(cfg.customers()))
	}
	if cfg.Drain {
		cfg.Warmup = 0
	}

	rec := Record{Latency: make([]time.Duration, 0, capacity(cfg, b))}
	if cfg.Rate > 0 {
		rec.Service = make([]time.Duration, 0, cap(rec.Latency))
	}
	Load{
		Workers: cfg.customers(), Rate: cfg.Rate, MaxQ: cfg.MaxQ, Warmup: cfg.Warmup, Duration: cfg.Duration, Seed: cfg.Seed,
		Talk: cfg.harness() == "talk", Drain: cfg.Drain, Starts: cfg.starts(b),
	}.start(s, shop, &rec)
	if cfg.Drain {
		return drained(cfg, s, cpus, b, &rec)
	}

	// Readings at the edges of the measured window, as sweep takes them
	// through the harness's window callback.
	meters := shop.meters()
	before := make([]reading, len(meters))
	s.RunUntil(cfg.Warmup)
	if s.Cancelled() {
		return Result{}, context.Canceled
	}
	busy0, in0 := cpus.Busy(), rec.InSystem
	for i, m := range meters {
		before[i] = m.read()
	}
	window := cfg.Duration
	var tally []Checkpoint
	switch {
	case cfg.shortens() && cfg.Probe:
		window = probe(s, cfg, &rec)
	case cfg.shortens() && cfg.Edge && cfg.Duration > BandWindow:
		window = edge(s, cfg, &rec)
	case cfg.shortens():
		tally = tallied(s, cfg, &rec)
	default:
		s.RunUntil(cfg.Warmup + cfg.Duration)
	}
	if s.Cancelled() {
		return Result{}, context.Canceled
	}

	r := Result{
		Lattes:     len(rec.Latency),
		Drops:      rec.Drops,
		Throughput: float64(len(rec.Latency)) / window.Seconds(),
		Latency:    Summarize(rec.Latency),
		CPUUtil:    float64(cpus.Busy()-busy0) / float64(time.Duration(cfg.CPUs)*window),
		Bounds:     b,
		Sched:      cfg.sched(),
		Harness:    cfg.harness(),
		Seed:       cfg.Seed,
		Events:     s.Events(),
		Warmup:     cfg.Warmup,
		Window:     window,
		Tally:      tally,
		Arrived:    rec.Arrived,
		InSystem:   [2]int{in0, rec.InSystem},
	}
	if cfg.Rate > 0 {
		svc := Summarize(rec.Service)
		r.Service = &svc
	} else {
		r.Little = Little(cfg.customers(), r.Throughput, rec.Cycles, r.Lattes)
	}
	for i, m := range meters {
		d := m.read().sub(before[i])
		mm := Machine{Name: m.name, Uses: d.uses,
			BusyFrac: float64(d.held) / float64(window), WorkingFrac: float64(d.working) / float64(window)}
		if d.uses > 0 {
			mm.MeanWait = d.wait / time.Duration(d.uses)
		}
		r.Machines = append(r.Machines, mm)
	}
	return r, nil
}

// A probe's window (Config.Probe) counts ProbeCycles drinks a customer:
// the first of probeWindows that does, or the Duration asked where none
// shorter does. In a closed loop's steady state each customer completes a
// drink every cycle, and a window's edges cut at most one of each
// customer's cycles: a window that counts n drinks of N customers is
// within N/n of the throughput of a window without end, 1/ProbeCycles
// (0.2 %) here, well within the 1 % a causal profile's gains are told
// apart by. A Duration of MinProbeWindow or less, such as a study's
// default 1 s, is simulated in full.
const (
	ProbeCycles    = 500
	MinProbeWindow = 2 * time.Second
)

// probeWindows are the windows a probe may end at, shortest first: few,
// so that the point it is compared with tallies each (Result.Tally) at
// little cost; a probe that needs longer runs its full Duration.
func probeWindows() []time.Duration {
	const s = time.Second
	return []time.Duration{2 * s, 3 * s, 4 * s, 6 * s, 8 * s, 12 * s, 16 * s}
}

// shortens reports whether a probe of cfg may measure over less than its
// Duration: a closed loop whose count is off by no more than its edges
// (no jitter, no other processes, no talk's protocol to drain), longer
// than MinProbeWindow. Such a point that is not a probe tallies its
// window (Result.Tally), for the probes of its reliefs and band to be
// compared with.
func (cfg Config) shortens() bool {
	return cfg.Rate == 0 && cfg.Jitter == 0 && cfg.Background.CPUs == 0 && !cfg.Drain && cfg.Duration > MinProbeWindow
}

// tallied runs cfg's window, from cfg.Warmup on, with a checkpoint at
// each of probeWindows shorter than it.
func tallied(s *sim.Sim, cfg Config, rec *Record) []Checkpoint {
	var tally []Checkpoint
	for _, w := range probeWindows() {
		if w >= cfg.Duration {
			break
		}
		if s.RunUntil(cfg.Warmup + w); s.Cancelled() {
			return nil
		}
		tally = append(tally, Checkpoint{Window: w, Lattes: len(rec.Latency)})
	}
	s.RunUntil(cfg.Warmup + cfg.Duration)
	return tally
}

// probe runs a probe's window, from cfg.Warmup on, until the first of
// probeWindows by whose end it has counted ProbeCycles drinks a customer,
// or to cfg.Duration, and returns how long it ran.
func probe(s *sim.Sim, cfg Config, rec *Record) time.Duration {
	want := ProbeCycles * cfg.customers()
	for _, w := range probeWindows() {
		if w >= cfg.Duration {
			break
		}
		if s.RunUntil(cfg.Warmup + w); s.Cancelled() || len(rec.Latency) >= want {
			return w
		}
	}
	s.RunUntil(cfg.Warmup + cfg.Duration)
	return cfg.Duration
}

// edge runs a band's edge's window (Config.Edge), from cfg.Warmup on:
// BandWindow where the median latency of its second half is within
// EdgeTolerance of its first half's, cfg.Duration otherwise; it returns
// how long it ran.
func edge(s *sim.Sim, cfg Config, rec *Record) time.Duration {
	if s.RunUntil(cfg.Warmup + BandWindow/2); s.Cancelled() {
		return cfg.Duration
	}
	half := len(rec.Latency)
	if s.RunUntil(cfg.Warmup + BandWindow); s.Cancelled() {
		return cfg.Duration
	}
	first, second := median(rec.Latency[:half]), median(rec.Latency[half:])
	if first > 0 && math.Abs(float64(second)/float64(first)-1) <= EdgeTolerance {
		return BandWindow
	}
	s.RunUntil(cfg.Warmup + cfg.Duration)
	return cfg.Duration
}

// median is the nearest-rank median of l, which it leaves as it is; 0
// for none.
func median(l []time.Duration) time.Duration {
	if len(l) == 0 {
		return 0
	}
	return Summarize(slices.Clone(l)).P50
}

// drainLimit is how long past the requests' end the talk's protocol waits
// for the last call at most: far past any cycle the bounds allow.
func drainLimit(cfg Config, b Bounds) time.Duration {
	return 10*cfg.Duration + 10*SteadyWarmup(0, cfg.customers(), b)
}

// drained runs the talk's protocol to its end — every request handed out
// in Duration served — and reports every call, over the time to the last.
func drained(cfg Config, s *sim.Sim, cpus *sim.CPUs, b Bounds, rec *Record) (Result, error) {
	limit := cfg.Duration + drainLimit(cfg, b)
	for t := cfg.Duration; ; t += cfg.Duration / 4 {
		s.RunUntil(min(t, limit))
		if s.Cancelled() {
			return Result{}, context.Canceled
		}
		if (t > cfg.Duration && len(rec.Latency) >= rec.Issued) || t >= limit {
			break
		}
	}
	if len(rec.Latency) < rec.Issued {
		return Result{}, fmt.Errorf("%s on %d CPUs: %d of %d requests still unserved %v after the talk's protocol stopped handing them out", cfg.Mode, cfg.CPUs, rec.Issued-len(rec.Latency), rec.Issued, drainLimit(cfg, b))
	}
	wall := rec.Last
	r := Result{
		Lattes:  len(rec.Latency),
		Latency: Summarize(rec.Latency),
		Bounds:  b,
		Sched:   cfg.sched(), Harness: cfg.harness(), Seed: cfg.Seed, Events: s.Events(),
	}
	if wall > 0 {
		r.Throughput = float64(r.Lattes) / wall.Seconds()
		r.CPUUtil = float64(cpus.Busy()) / float64(time.Duration(cfg.CPUs)*s.Now())
	}
	return r, nil
}

// Little is Little's law's check for a closed loop: the customers ÷
// (throughput × mean cycle), where a cycle runs from the end of a
// customer's previous drink to the end of this one (in brewput's harness,
// the latency itself). It is 1 in the steady state, up to the window's
// edges; 0 when nothing completed.
func Little(customers int, throughput float64, cycles time.Duration, n int) float64 {
	if n == 0 || throughput <= 0 || cycles <= 0 {
		return 0
	}
	mean := cycles.Seconds() / float64(n)
	return float64(customers) / (throughput * mean)
}

// LittleTolerance is how far from 1 Little's law's check may be before a
// point is flagged as not in its steady state.
const LittleTolerance = 0.02

// SteadyWarmup is the warm-up a point needs to reach its steady state by
// construction: at least asked (the default, or the user's), and at least
// three of the longest cycle its bounds allow a customer — the customers
// ÷ the throughput bound, or one drink's least latency if that is longer —
// so that the queues the customers form have been round three times
// before the window opens (locking with 100 customers: a 400 ms cycle, a
// 1.2 s warm-up). An open loop has no customers (0): its servers wait for
// arrivals rather than go round a cycle, and its longest cycle is one
// drink's least latency, so that a point with more servers, idle ones
// among them, is simulated over the same window and the same arrivals
// (a causal profile's "twice the servers" changes nothing where servers
// are not short); its queue, if arrivals outrun the bound, fills at their
// difference and has no steady state short of full, which no warm-up
// waits for.
func SteadyWarmup(asked time.Duration, customers int, b Bounds) time.Duration {
	if b.ThroughputMax <= 0 || math.IsInf(b.ThroughputMax, 1) {
		return asked
	}
	cycle := max(b.LatencyMin, time.Duration(float64(customers)/b.ThroughputMax*float64(time.Second)))
	return max(asked, 3*cycle)
}

// closedLoop is the customers SteadyWarmup counts: those of a closed
// loop, none in an open one (rate > 0).
func closedLoop(customers int, rate float64) int {
	if rate > 0 {
		return 0
	}
	return customers
}

// capacity sizes the latency slices once: the drinks the window can hold
// by the throughput bound, and a little over (jitter, edges). It is only a
// hint; the slices grow past it if they must.
func capacity(cfg Config, b Bounds) int {
	n := b.ThroughputMax*cfg.Duration.Seconds()*1.01 + float64(cfg.customers()) + 16
	return int(min(n, 1<<22))
}

// starts are the customers' start delays of cfg.Phase: none for phase 0 or
// an open loop, otherwise each drawn between zero and one drink's least
// latency from a source of the phase's own, so that the jitter's draws are
// the same in every phase.
func (cfg Config) starts(b Bounds) []time.Duration {
	if cfg.Phase == 0 || cfg.Rate > 0 || b.LatencyMin <= 0 {
		return nil
	}
	src := rand.New(rand.NewPCG(cfg.Phase, cfg.Seed))
	out := make([]time.Duration, cfg.customers())
	for i := range out {
		out[i] = time.Duration(src.Int64N(int64(b.LatencyMin)))
	}
	return out
}
