package model

import (
	"math"
	"slices"
	"time"

	"github.com/brewput/brewput/results"
)

// Result is what a simulated point gives: what a measured one reports, and
// the point's analytic bounds beside it.
type Result struct {
	Lattes     int     // drinks (lattes, or the mode's drink) completed inside the measured window
	Drops      int     // open loop: arrivals inside the window that found the queue full
	Throughput float64 // drinks per virtual second of the window
	Latency    Latency // of the drinks completed inside the window: the call, or from intended arrival (open loop)
	Service    *Latency
	CPUUtil    float64 // CPU time used in the window / (CPUs × window)
	Machines   []Machine

	// Bounds are the point's analytic bounds; Little is Little's law's
	// check in a closed loop, customers ÷ (Throughput × mean latency),
	// which is 1 up to the window's edge effects (0 in an open loop).
	Bounds Bounds
	Little float64
	// Arrived, in an open loop, is the arrivals inside the window,
	// dropped ones included; InSystem the requests queued or in service
	// at the window's start and end (see Steady).
	Arrived  int
	InSystem [2]int

	// Band is the range over the uncertainty of the go policy's costs,
	// when the Config had a Range; nil otherwise.
	Band *Band

	Sched   string // the scheduling policy simulated, "fifo" or "go"
	Harness string // the closed loop's harness, "brewput" or "talk"
	Seed    uint64
	Events  uint64        // events the engine processed, warm-up included
	Warmup  time.Duration // the warm-up simulated: the one asked, or longer (SteadyWarmup)
	Window  time.Duration // the window measured: the Duration asked, or a probe's shorter one (Config.Probe)
	// Tally, for a point whose probes may be shorter than its window
	// (Config.Probe), is what it counted over each window a probe may
	// take that is shorter than its own: what Carry compares a probe with.
	Tally []Checkpoint
}

// Checkpoint is what a run counted over the first Window of its window.
type Checkpoint struct {
	Window time.Duration
	Lattes int
}

// Carry is probe p of a relief or of a band's edge with its throughput
// carried to r's window: r's times p's over r's own over the same window
// (r.Tally), so that the two are compared over the same stretch of
// simulated time, and a probe of the very configuration r ran gives r's
// throughput exactly. Its latency stays the probe's own: a closed loop's
// latencies may take turns over far longer than a probe (customers
// falling into and out of step at a shared machine), and no ratio carries
// that over. p as it is where r has no checkpoint at p's window.
func (r Result) Carry(p Result) Result {
	i := slices.IndexFunc(r.Tally, func(c Checkpoint) bool { return c.Window == p.Window })
	if p.Window >= r.Window || i < 0 || r.Tally[i].Lattes == 0 {
		return p
	}
	p.Throughput = r.Throughput * (float64(p.Lattes) / float64(r.Tally[i].Lattes)) // a ratio of 1 exactly where the counts agree
	return p
}

// Machine is one shared resource's use in the measured window, as coffee's
// meters report it.
type Machine struct {
	Name string
	Uses int64
	// BusyFrac is the fraction of the window it was held, from getting it
	// to letting go (waiting for a P or a handoff included); WorkingFrac
	// the fraction its step was really running. ideal's machines, used by
	// many at once, can pass 1.
	BusyFrac, WorkingFrac float64
	MeanWait              time.Duration // mean wait to get it, per use
}

// Latency summarizes a latency distribution, exactly: its percentiles are
// order statistics of every recorded latte (nearest rank), not estimates.
type Latency struct {
	Min, P05, P25, P50, P75, P90, P95, P99, Max, Mean time.Duration
}

// Summarize sorts the latencies l and returns their distribution; an empty
// one gives zeros.
func Summarize(l []time.Duration) Latency {
	if len(l) == 0 {
		return Latency{}
	}
	slices.Sort(l)
	var sum time.Duration
	for _, d := range l {
		sum += d
	}
	q := func(f float64) time.Duration { // nearest rank
		i := int(f*float64(len(l))+0.999999999) - 1
		return l[min(max(i, 0), len(l)-1)]
	}
	return Latency{
		Min: l[0], P05: q(0.05), P25: q(0.25), P50: q(0.50), P75: q(0.75),
		P90: q(0.90), P95: q(0.95), P99: q(0.99), Max: l[len(l)-1],
		Mean: sum / time.Duration(len(l)),
	}
}

// ms converts the distribution to a results file's, in milliseconds.
func (l Latency) ms() results.Latency {
	return results.Latency{
		Min: results.Ms(l.Min), P05: results.Ms(l.P05), P25: results.Ms(l.P25), P50: results.Ms(l.P50),
		P75: results.Ms(l.P75), P90: results.Ms(l.P90), P95: results.Ms(l.P95), P99: results.Ms(l.P99),
		Max: results.Ms(l.Max), Mean: results.Ms(l.Mean),
	}
}

// Point converts the result of simulating cfg to a results.Point, filled
// as sweep fills a measured one, with Source "model": the mode's name and
// unit, the load, the steps (with no burn clock: virtual time is exact),
// the latencies in ms, machines' busy fractions capped at 1; and the
// model's own: the policy, the seed, wall-clock steps where they mattered
// (Model.Burn), and the bounds, where a bound that
// nothing sets (+Inf) is 0, as JSON holds no infinity. It has no host,
// start time or histogram.
func (r Result) Point(cfg Config) results.Point {
	p := results.Point{
		Source:     "model",
		Mode:       cfg.Mode.String(),
		CPUs:       cfg.CPUs,
		Par:        cfg.customers(),
		Rate:       cfg.Rate,
		DurS:       r.window(cfg).Seconds(),
		WarmupS:    max(cfg.Warmup, r.Warmup).Seconds(),
		Ops:        int64(r.Lattes),
		Drops:      int64(r.Drops),
		Throughput: r.Throughput,
		Unit:       cfg.Mode.Unit(),
		Harness:    talkOnly(r.Harness),
		Model: results.Model{Sched: r.Sched, Seed: r.Seed, Runtime: cfg.Runtime, Burn: wallOnly(r.Sched, cfg.Burn),
			BackgroundCPUs: cfg.Background.CPUs, BackgroundBurstMs: results.Ms(cfg.Background.Burst)},
		CPUUsed: r.CPUUtil * float64(cfg.CPUs),
		Util:    r.CPUUtil,
		Latency: r.Latency.ms(),
		Shop: &results.Shop{
			Machines: []results.Machine{},
			Steps: results.Steps{
				GrindMs:  results.Ms(cfg.Grind),
				PressMs:  results.Ms(cfg.Press),
				SteamMs:  results.Ms(cfg.Steam),
				LatteMs:  results.Ms(cfg.Combine),
				JitterMs: results.Ms(cfg.Jitter),
			},
		},
	}
	p.Bounds = &results.Bounds{
		CPU:           finite(r.Bounds.CPU),
		Structural:    finite(r.Bounds.Structural),
		ThroughputMax: finite(r.Bounds.ThroughputMax),
		LatencyMinMs:  results.Ms(r.Bounds.LatencyMin),
		Resource:      r.Bounds.Resource,
		Limit:         r.Bounds.Limit,
		Little:        r.Little,
		Arrived:       r.Arrived,
		Growth:        r.Growth(),
	}
	if r.Band != nil {
		p.Band = &results.Band{
			Throughput: [2]float64{r.Band.ThroughputLo, r.Band.ThroughputHi},
			P50Ms:      [2]float64{results.Ms(r.Band.P50Lo), results.Ms(r.Band.P50Hi)},
		}
	}
	if cfg.Rate > 0 {
		p.MaxQ = cfg.MaxQ
		if r.Service != nil {
			svc := r.Service.ms()
			p.Service = &svc
		}
	}
	for _, m := range r.Machines {
		p.Machines = append(p.Machines, results.Machine{
			Name:        m.Name,
			Uses:        m.Uses,
			BusyFrac:    min(1, m.BusyFrac),
			WorkingFrac: min(1, m.WorkingFrac, m.BusyFrac),
			MeanWaitMs:  results.Ms(m.MeanWait),
		})
	}
	return p
}

// window is the window r measured of cfg's simulation: r.Window, or
// cfg.Duration for a Result that does not say.
func (r Result) window(cfg Config) time.Duration {
	if r.Window > 0 {
		return r.Window
	}
	return cfg.Duration
}

// talkOnly is the harness a point names: "talk", or nothing for
// brewput's own, as measured points do.
func talkOnly(h string) string {
	if h == "talk" {
		return h
	}
	return ""
}

// finite is x, or 0 for an unset (+Inf) bound, as a results file holds it.
func finite(x float64) float64 {
	if math.IsInf(x, 0) {
		return 0
	}
	return x
}

// wallOnly is burn where it made a difference, wall steps under the go
// policy, and empty otherwise.
func wallOnly(sched, burn string) string {
	if sched == "go" && burn == "wall" {
		return burn
	}
	return ""
}
