package blueprint

import (
	"fmt"
	"time"

	"github.com/brewput/brewput/model"
)

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
		m := n.d.mean().Seconds()
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
		return mean, least
	}
	return 0, 0
}

// Structure checks b and returns what one order asks at mean durations.
func (b *Blueprint) Structure(cfg model.Config) (model.Structure, error) {
	if err := b.check(); err != nil {
		return model.Structure{}, err
	}
	st := b.structure()
	ms := model.Structure{CPU: st.cpu, Path: st.path}
	for _, i := range b.used {
		r := b.sharded(b.Resources[i])
		copies := b.capacity(r)
		switch r.Per {
		case PerCPU:
			copies *= max(1, cfg.CPUs)
		case PerCustomer:
			l, _ := b.LoadAt(cfg)
			copies *= max(1, l.Par)
		}
		ms.Resources = append(ms.Resources, model.Resource{Name: r.Name, Copies: copies, Hold: st.holds[i]})
	}
	for _, pp := range b.pipes {
		for _, s := range pp.stages {
			ms.Resources = append(ms.Resources, model.Resource{Name: s.name, Copies: b.workers(s) * pp.lines, Hold: st.stages[s.machine]})
		}
	}
	return ms, nil
}

// Sizes are what simulating b at cfg holds (model.Config.Footprint).
func (b *Blueprint) Sizes(cfg model.Config) model.Sizes {
	l, _ := b.LoadAt(cfg)
	customers := float64(l.Par)
	workers := 0.0
	for _, pp := range b.pipes {
		for _, st := range pp.stages {
			workers += float64(b.workers(st)) * float64(pp.lines)
		}
	}
	branches := 0.0
	if b.flow != nil {
		branches = float64(extraBranches(b.flow))
	}
	thr := l.Rate
	if bd, err := cfg.Bounds(); err == nil && thr == 0 && bd.ThroughputMax > 0 {
		thr = bd.ThroughputMax
	}
	locks, slots := 0.0, 0.0
	used := b.Used()
	for _, r := range used {
		// {locks: N} is N mutexes; units are one channel and a count.
		locks++
		if r.Locks {
			locks += float64(b.capacity(r))
		}
	}
	for _, pp := range b.pipes {
		slots += float64(b.buffer(pp.stages[0]))
		for _, st := range pp.stages[1:] {
			slots += float64(pp.lines) * float64(b.buffer(st))
		}
	}
	return model.Sizes{
		Parts: []model.Part{
			{What: fmt.Sprintf("%d %s", l.Par, map[bool]string{true: "servers", false: "customers"}[l.Rate > 0]), Procs: customers},
			{What: fmt.Sprintf("%.0f pipeline workers", workers), Procs: workers},
			{What: fmt.Sprintf("%.0f parallel branches under way", customers*branches), Procs: customers * branches},
		},
		Machines:    locks + float64(b.stages),
		MachinesAre: "mutexes and meters",
		Slots:       slots,
		Drinks:      thr,
		Events:      float64(b.orderEvents(b.flow)),
		Meters:      float64(len(used) + b.stages),
	}
}

// orderEvents is about how many events one order makes the simulation
// process: a step waits for and lets go of what it holds and burns its
// time; a pipeline's stage is a hand-over more.
func (b *Blueprint) orderEvents(n node) int {
	switch n := n.(type) {
	case *step:
		return 2 + 2*len(n.holds) + 2*len(n.shares) + len(n.reads) + len(n.writes)
	case *group:
		sum := 2*len(n.holds) + 2*len(n.shares)
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
// window: enough for a median and a band, few enough for a system whose
// steps take nanoseconds.
const WindowOrders = 200_000

// Window is the simulated window and warm-up of a point of b where the
// user gave none: at most dur and warmup, and no longer than one CPU
// takes for WindowOrders orders (a quarter of that to warm up, at least
// 100 orders' time); false where dur already holds fewer.
func (b *Blueprint) Window(dur, warmup time.Duration) (time.Duration, time.Duration, bool) {
	st := b.structure()
	per := time.Duration(max(st.cpu, st.path) * float64(time.Second))
	if per <= 0 {
		return dur, warmup, false
	}
	w := time.Duration(WindowOrders) * per
	if w >= dur {
		return dur, warmup, false
	}
	return w, min(warmup, max(w/4, 100*per)), true
}
