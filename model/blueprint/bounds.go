package blueprint

import (
	"fmt"
	"math"
	"time"

	"github.com/brewput/brewput/results"
)

// Structure is what bounds come from, in mean seconds an operation.
type Structure struct {
	Resources []Demand
	CPU       float64 // mean CPU seconds one operation burns
	Path      float64 // mean seconds of one operation's critical path with no waiting
}

// Demand is what an operation holds a while, Copies at once.
type Demand struct {
	Name   string
	Copies int     // how many operations can hold it at once
	Hold   float64 // mean seconds an operation holds one copy
}

// Bounds are what a structure alone allows (+Inf: unbounded).
type Bounds struct {
	CPU float64 // CPUs ÷ an operation's CPU time, a second
	// Structural is copies ÷ hold time of the most-held resource, which
	// Resource names ("" where none is held).
	Structural float64
	Resource   string
	// ThroughputMax is the least of CPU, Structural, the customers (or
	// servers) ÷ LatencyMin and an open loop's rate; Limit names which:
	// "cpus", the Resource, "customers", "servers" or "arrivals".
	ThroughputMax float64
	Limit         string
	// LatencyMin is one operation's latency with no waiting: its critical
	// path, or its CPU time over all the CPUs if that is longer.
	LatencyMin time.Duration
}

// Serves is the most servers can serve a second by the bounds.
func (b Bounds) Serves(servers int) float64 {
	x := min(b.CPU, b.Structural)
	if b.LatencyMin > 0 {
		x = min(x, float64(servers)/b.LatencyMin.Seconds())
	}
	return x
}

// Bounds are st's on cpus CPUs with workers, open at rate > 0.
func (st Structure) Bounds(cpus, workers int, rate float64) Bounds {
	inf := math.Inf(1)
	per := func(n float64, seconds float64) float64 { // n per seconds, +Inf for no time
		if seconds <= 0 {
			return inf
		}
		return n / seconds
	}
	b := Bounds{CPU: per(float64(cpus), st.CPU), Structural: inf}
	for _, r := range st.Resources {
		if x := per(float64(r.Copies), r.Hold); x < b.Structural {
			b.Structural, b.Resource = x, r.Name
		}
	}
	latMin := max(st.Path, st.CPU/float64(cpus))
	b.LatencyMin = time.Duration(math.Round(latMin * 1e9))

	who, arrivals := "customers", inf
	if rate > 0 {
		who, arrivals = "servers", rate
	}
	b.ThroughputMax, b.Limit = b.CPU, "cpus"
	for _, c := range []struct {
		limit string
		x     float64
	}{
		{b.Resource, b.Structural},
		{who, per(float64(workers), latMin)},
		{"arrivals", arrivals},
	} {
		if c.x < b.ThroughputMax {
			b.ThroughputMax, b.Limit = c.x, c.limit
		}
	}
	return b
}

// structure is what one order asks, at mean durations: an item that runs
// on one order in every n counts 1/n of its time an order.
type structure struct {
	cpu, path float64   // seconds; path the least an order takes
	holds     []float64 // seconds per order, by resource
	stages    []float64 // seconds per order, by stage

	scale map[string]float64 // Blueprint.Scale
	// weight is the share of orders the item walked runs on: the product
	// of its own and its groups' 1/every.
	weight float64
}

func (b *Blueprint) structure() structure {
	st := structure{holds: make([]float64, b.nres), stages: make([]float64, b.stages), scale: b.Scale, weight: 1}
	_, st.path = st.walk(b.flow)
	return st
}

// hold adds d seconds an order to each resource of holds.
func (st *structure) hold(holds []int, d float64) {
	for _, r := range holds {
		st.holds[r] += d
	}
}

// walk adds n's demands to st and returns n's critical path: its mean
// over orders (what its resources and stages are held an order), and the
// least any order's takes (an item of every n > 1 skipped).
func (st *structure) walk(n node) (mean, least float64) {
	switch n := n.(type) {
	case *step:
		m := n.d.mean()
		if f, ok := st.scale[n.name]; ok {
			m *= f
		}
		if n.every > 1 {
			least = 0
		} else {
			least = m
		}
		m *= st.weight / float64(max(1, n.every))
		if n.cpu {
			st.cpu += m
		}
		st.hold(n.holds, m)
		return m, least
	case *group:
		outer := st.weight
		st.weight /= float64(max(1, n.every))
		for _, it := range n.items {
			m, l := st.walk(it)
			mean, least = mean+m, least+l
		}
		st.weight = outer
		st.hold(n.holds, mean)
		if n.every > 1 {
			least = 0
		}
		return mean, least
	case *parallel:
		for _, b := range n.branches {
			m, l := st.walk(b)
			mean, least = max(mean, m), max(least, l)
		}
		return mean, least
	case *pipe:
		for _, s := range n.stages {
			m, l := st.walk(s.body)
			st.stages[s.machine] += m
			mean, least = mean+m, least+l
		}
		for _, f := range n.forks {
			m, l := st.walk(f)
			mean, least = max(mean, m), max(least, l)
		}
		return mean, least
	}
	return 0, 0
}

// Structure checks b and returns what one order asks at mean durations,
// on cpus CPUs with customers (or servers): a machine of the shop's
// named with its copies, "grinder×2"; one nobody waits for is none.
func (b *Blueprint) Structure(cpus, customers int) (Structure, error) {
	if err := b.check(); err != nil {
		return Structure{}, err
	}
	st := b.structure()
	ms := Structure{CPU: st.cpu, Path: st.path}
	for _, i := range b.used {
		r := b.sharded(b.Resources[i])
		copies := b.capacity(r)
		switch r.Per {
		case PerCPU:
			copies *= max(1, cpus)
		case PerCustomer:
			copies *= max(1, customers)
		}
		if r.Kind == Unguarded {
			continue
		}
		ms.Resources = append(ms.Resources, Demand{Name: b.counted(r.Name, r.Machines, copies), Copies: copies, Hold: st.holds[i]})
	}
	for _, pp := range b.pipes {
		for _, s := range pp.stages {
			n := b.workers(s) * pp.lines
			ms.Resources = append(ms.Resources, Demand{Name: b.counted(s.name, s.noun != "", n), Copies: n, Hold: st.stages[s.machine]})
		}
	}
	return ms, nil
}

// counted names n copies of one of the shop's machines as the shop does,
// "grinder×2"; anything else by its name.
func (b *Blueprint) counted(name string, machine bool, n int) string {
	if !machine || n == 1 {
		return name
	}
	return fmt.Sprintf("%s×%d", name, n)
}

// Sizes are what a system is made of, for its footprint.
type Sizes struct {
	Parts    []Part
	Machines float64 // mutexes and meters
	Slots    float64 // room in channels
	Drinks   float64 // the most orders a second
	Events   float64 // about how many events an order takes
	Meters   float64 // readings a point keeps
}

// Parts is what a shop (Shop) is built of: its machines over every line,
// its locks (a pool is a channel, not a lock), its stages' workers and the
// slots in the channels into them.
type Parts struct{ Machines, Locks, Stages, Slots int }

// Parts counts what shop b is built of.
func (b *Blueprint) Parts() Parts {
	var p Parts
	for _, r := range b.Used() {
		if r.Machines {
			p.Machines += b.capacity(r)
		}
		if r.Kind == Mutex && !r.Pooled {
			p.Locks++
		}
	}
	for _, pp := range b.pipes {
		for i, st := range pp.stages {
			n := b.workers(st) * pp.lines
			p.Stages += n
			if st.noun != "" {
				p.Machines += n
			}
			chans := pp.lines // the first stage's is the entry, which the lines share
			if i == 0 {
				chans = 1
			}
			p.Slots += chans * b.buffer(st)
		}
	}
	return p
}

// Part is some of a system's processes, Procs of them, of a kind:
// PartCustomers, PartServers, PartWorkers or PartBranches.
type Part struct {
	Kind  string
	Procs float64
}

// The kinds of a system's processes (Part).
const (
	PartCustomers = "customers"
	PartServers   = "servers"
	PartWorkers   = "workers"  // a pipeline's
	PartBranches  = "branches" // parallel branches under way
)

// Sizes are what simulating b on cpus CPUs under load l holds.
func (b *Blueprint) Sizes(l results.Load, cpus int) Sizes {
	l, _ = b.LoadAt(l, cpus)
	customers := float64(l.Par)
	parts := b.Parts()
	workers := float64(parts.Stages)
	branches := 0.0
	if b.flow != nil {
		branches = float64(extraBranches(b.flow))
	}
	thr := l.Rate
	if st, err := b.Structure(cpus, l.Par); err == nil && thr == 0 {
		if x := st.Bounds(cpus, l.Par, 0).ThroughputMax; x > 0 && !math.IsInf(x, 1) {
			thr = x
		}
	}
	locks := 0.0
	used := b.Used()
	for _, r := range used {
		// {locks: N} is N mutexes, a pool of machines a meter each; units
		// are one channel and a count.
		locks++
		if r.Locks || r.Pooled {
			locks += float64(b.capacity(r))
		}
	}
	return Sizes{
		Parts: []Part{
			{Kind: map[bool]string{true: PartServers, false: PartCustomers}[l.Rate > 0], Procs: customers},
			{Kind: PartWorkers, Procs: workers},
			{Kind: PartBranches, Procs: customers * branches},
		},
		Machines: locks + float64(b.stages),
		Slots:    float64(parts.Slots),
		Drinks:   thr,
		Events:   float64(b.orderEvents(b.flow)),
		Meters:   float64(len(used) + b.stages),
	}
}

// orderEvents is about how many events one order makes the simulation
// process: a step waits for and lets go of what it holds and burns its
// time; a pipeline's stage is a hand-over more.
func (b *Blueprint) orderEvents(n node) int {
	switch n := n.(type) {
	case *step:
		return 2 + 2*len(n.taken()) + len(n.reads) + len(n.writes)
	case *group:
		sum := 2*len(n.taken()) + len(n.reads) + len(n.writes)
		for _, it := range n.items {
			sum += b.orderEvents(it)
		}
		return sum
	case *parallel:
		sum := 0
		for _, br := range n.branches {
			sum += 3 + b.orderEvents(br)
		}
		return sum
	case *pipe:
		sum := 2
		for _, st := range n.stages {
			sum += 3 + b.orderEvents(st.body)
		}
		for _, f := range n.forks {
			sum += b.orderEvents(f)
		}
		return sum
	}
	return 1
}

// extraBranches is the most processes an order starts beyond its own.
func extraBranches(n node) int {
	switch n := n.(type) {
	case *group:
		most := 0
		for _, it := range n.items {
			most = max(most, extraBranches(it))
		}
		return most
	case *parallel:
		sum := len(n.branches) - 1
		for _, br := range n.branches {
			sum += extraBranches(br)
		}
		return sum
	}
	return 0
}

// WindowOrders is about how many orders one CPU finishes in Window's
// window: enough for a median and a band.
const WindowOrders = 200_000

// Window is the simulated window and warm-up of a point of b where the
// user gave none: at most dur and warmup, and no longer than one CPU takes
// for WindowOrders orders; false where dur already holds fewer.
func (b *Blueprint) Window(dur, warmup time.Duration) (time.Duration, time.Duration, bool) {
	per := b.perOrder()
	if per <= 0 {
		return dur, warmup, false
	}
	w := time.Duration(WindowOrders) * per
	if w >= dur {
		return dur, warmup, false
	}
	return w, b.Warmup(w, warmup), true
}

// Warmup is the warm-up of a window of dur where the user gave none: at
// most warmup, a quarter of the window or a hundred orders on one CPU,
// whichever is longer. A blueprint of nanosecond steps is steady long
// before the shop's 100 ms.
func (b *Blueprint) Warmup(dur, warmup time.Duration) time.Duration {
	per := b.perOrder()
	if per <= 0 {
		return warmup
	}
	return min(warmup, max(dur/4, 100*per))
}

// perOrder is how long one CPU takes for an order, alone.
func (b *Blueprint) perOrder() time.Duration {
	st := b.structure()
	return time.Duration(max(st.cpu, st.path) * float64(time.Second))
}
