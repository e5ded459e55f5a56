package model

import (
	"math"
	"slices"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/results"
)

// result is what a simulated point gives, before it is a results.Point.
type result struct {
	Lattes         int     // operations completed inside the measured window
	Drops          int     // open loop: arrivals inside the window that found the queue full
	Throughput     float64 // operations per virtual second of the window
	Latency        Latency // of the operations completed inside the window: the call, or from intended arrival (open loop)
	Service        *Latency
	CPUUtil        float64           // CPU time used in the window / (CPUs × window)
	Machines       []results.Machine // uncapped: ideal's busy fractions may pass 1
	Bounds         Bounds
	Little         float64          // Little's law's check in a closed loop
	Arrived        int              // an open loop's arrivals in the window
	InSystem       [2]int           // requests queued or in service at its start and end
	Band           *Band            // the band over the costs' Range, where the Config had one
	Events         uint64           // events the engine processed, warm-up included
	Warmup, Window time.Duration    // as simulated (SteadyWarmup, probe)
	Tally          []checkpoint     // what a run that shortens counted at each probe window
	Caveats        []results.Caveat // what the model leaves out that matters here
}

// checkpoint is what a run counted over the first Window of its window.
type checkpoint struct {
	Window time.Duration
	Lattes int
}

// carry is probe p with its throughput carried to r's window: r's times
// p's over r's own at p's window (p as it is where r has no checkpoint).
func (r result) carry(p result) result {
	i := slices.IndexFunc(r.Tally, func(c checkpoint) bool { return c.Window == p.Window })
	if p.Window >= r.Window || i < 0 || r.Tally[i].Lattes == 0 {
		return p
	}
	p.Throughput = r.Throughput * (float64(p.Lattes) / float64(r.Tally[i].Lattes)) // a ratio of 1 exactly where the counts agree
	return p
}

// Latency is a distribution's exact (nearest-rank) order statistics.
type Latency struct {
	Min, P05, P25, P50, P75, P90, P95, P99, Max, Mean time.Duration
}

// Summarize sorts l and returns its distribution (zeros for none).
func Summarize(l []time.Duration) Latency {
	if len(l) == 0 {
		return Latency{}
	}
	sortDurations(l)
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

// sortDurations sorts l as slices.Sort does, by radix where its durations
// are many, none negative and not in order already: a byte-and-a-half
// digit a pass, from the lowest, as many passes as the longest needs
// (three to 8.6 s), rather than comparisons.
func sortDurations(l []time.Duration) {
	var most time.Duration
	sorted := true
	for i, d := range l {
		most = max(most, d)
		if d < 0 || len(l) < 1<<10 {
			slices.Sort(l)
			return
		}
		sorted = sorted && (i == 0 || l[i-1] <= d)
	}
	if sorted {
		return
	}
	const bits = 11
	src, dst := l, make([]time.Duration, len(l))
	for shift := 0; shift < 63 && most>>shift > 0; shift += bits {
		var at [1 << bits]int
		for _, d := range src {
			at[d>>shift&(1<<bits-1)]++
		}
		n := 0
		for i, c := range at {
			at[i], n = n, n+c
		}
		for _, d := range src {
			k := d >> shift & (1<<bits - 1)
			dst[at[k]] = d
			at[k]++
		}
		src, dst = dst, src
	}
	copy(l, src)
}

// ms converts the distribution to a results file's, in milliseconds.
func (l Latency) ms() results.Latency {
	return results.Latency{
		Min: results.Ms(l.Min), P05: results.Ms(l.P05), P25: results.Ms(l.P25), P50: results.Ms(l.P50),
		P75: results.Ms(l.P75), P90: results.Ms(l.P90), P95: results.Ms(l.P95), P99: results.Ms(l.P99),
		Max: results.Ms(l.Max), Mean: results.Ms(l.Mean),
	}
}

// point is r, c's result, as a results.Point filled as sweep fills a
// measured one (busy fractions capped at 1), with Source "model" and the
// model's own: the policy, wall steps where they mattered, the bounds
// (+Inf as 0), the band, and the trust they give (Assess).
func (r result) point(c Config) results.Point {
	rc := c.Resolve()
	p := results.Point{
		Source: "model",
		Spec: results.Spec{Mode: c.Mode, CPUs: c.CPUs,
			Load: results.Load{Par: rc.Par, Rate: rc.Rate, Dur: r.Window, Warmup: max(c.Warmup, r.Warmup), Harness: talkOnly(c.harness())},
			Policy: results.Policy{Sched: c.sched(), Seed: c.Policy.Seed, Burn: wallOnly(c.sched(), c.Policy.Burn),
				Background: c.Policy.Background}},
		Ops:        int64(r.Lattes),
		Throughput: r.Throughput,
		Latency:    r.Latency.ms(),
		Shop:       &results.Shop{Machines: []results.Machine{}},
	}
	p.Set(results.Drops, float64(r.Drops))
	p.Set(results.CPUUsed, r.CPUUtil*float64(c.CPUs))
	p.Set(results.Util, r.CPUUtil)
	if c.System != nil {
		p.Mode, p.Unit = c.System.Name, c.System.Unit+"/s"
	} else {
		p.Unit = coffee.MustParseMode(c.Mode).Unit()
		p.Shop.Steps = results.Steps{Grind: c.Steps.Grind, Press: c.Steps.Press, Steam: c.Steps.Steam, Combine: c.Steps.Combine, Jitter: c.Steps.Jitter}
	}
	p.Bounds = &results.Bounds{
		CPU:           finite(r.Bounds.CPU),
		Structural:    finite(r.Bounds.Structural),
		ThroughputMax: finite(r.Bounds.ThroughputMax),
		LatencyMinMs:  results.Ms(r.Bounds.LatencyMin),
		Resource:      r.Bounds.Resource,
		SetBy:         r.Bounds.Limit,
		Little:        r.Little,
		Arrived:       r.Arrived,
		Growth:        r.growth(),
	}
	if r.Band != nil {
		p.Band = &results.Band{
			Throughput: [2]float64{r.Band.ThroughputLo, r.Band.ThroughputHi},
			P50Ms:      [2]float64{results.Ms(r.Band.P50Lo), results.Ms(r.Band.P50Hi)},
		}
	}
	if rc.Rate > 0 {
		p.MaxQ = rc.MaxQ
		if r.Service != nil {
			svc := r.Service.ms()
			p.Service = &svc
		}
	}
	for _, m := range r.Machines {
		m.BusyFrac, m.WorkingFrac = min(1, m.BusyFrac), min(1, m.WorkingFrac, m.BusyFrac)
		p.Shop.Machines = append(p.Shop.Machines, m)
	}
	p.Caveats = r.Caveats
	p.Assess()
	return p
}

// talkOnly is the harness a point names: "talk", or nothing.
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

// wallOnly is burn where it mattered: wall steps under the go policy.
func wallOnly(sched, burn string) string {
	if sched == "go" && burn == "wall" {
		return burn
	}
	return ""
}
