package blueprint

import (
	"github.com/brewput/brewput/model"
)

// structure is what one order asks of the system, at mean durations: its
// CPU time, its critical path (the latency of an order that never waits),
// and how long it holds each resource and occupies each stage's workers.
type structure struct {
	cpu, path float64   // seconds
	holds     []float64 // seconds per order, by resource
	stages    []float64 // seconds per order, by stage

	scale map[string]float64 // Options.Scale
}

func (b *Blueprint) structure(opt Options) structure {
	st := structure{holds: make([]float64, b.nres), stages: make([]float64, b.stages), scale: opt.Scale}
	st.path = st.walk(b.flow)
	return st
}

// hold adds d seconds an order to each resource of holds.
func (st *structure) hold(holds []int, d float64) {
	for _, r := range holds {
		st.holds[r] += d
	}
}

// walk adds n's demands to st and returns n's critical path. A group holds
// its resources for its own critical path, the least it can hold them.
func (st *structure) walk(n node) float64 {
	switch n := n.(type) {
	case *step:
		m := n.d.mean().Seconds()
		if f, ok := st.scale[n.name]; ok {
			m *= f
		}
		if n.cpu {
			st.cpu += m
		}
		st.hold(n.holds, m)
		return m
	case *group:
		path := 0.0
		for _, it := range n.items {
			path += st.walk(it)
		}
		st.hold(n.holds, path)
		return path
	case *parallel:
		path := 0.0
		for _, b := range n.branches {
			path = max(path, st.walk(b))
		}
		return path
	case *pipe:
		path := 0.0
		for _, s := range n.stages {
			t := st.walk(s.body)
			st.stages[s.machine] += t
			path += t
		}
		return path
	}
	return 0
}

// Bounds returns what the blueprint's structure alone allows at opt, with
// no simulation, as package model bounds its modes: the CPU bound (CPUs ÷
// CPU time per order), the structural bound (capacity ÷ hold time per
// order of the most-held resource or stage), the least of those, the
// customers' (or servers') bound and the arrival rate as the throughput
// ceiling, and the critical path as the latency floor. Steps count at their
// mean, so with random durations the bounds are long-run averages.
func (b *Blueprint) Bounds(opt Options) (model.Bounds, error) {
	if err := opt.validate(); err != nil {
		return model.Bounds{}, err
	}
	if err := b.check(); err != nil {
		return model.Bounds{}, err
	}
	return b.bounds(opt, b.load(opt)), nil
}

func (b *Blueprint) bounds(o Options, l load) model.Bounds {
	st := b.structure(o)
	ms := model.Structure{CPU: st.cpu, Path: st.path}
	for i, r := range b.Resources {
		ms.Resources = append(ms.Resources, model.Resource{Name: r.Name, Copies: r.Capacity, Hold: st.holds[i]})
	}
	for _, pp := range b.pipes {
		for _, s := range pp.stages {
			ms.Resources = append(ms.Resources, model.Resource{Name: s.name, Copies: s.workersAt(o) * pp.lines, Hold: st.stages[s.machine]})
		}
	}
	return ms.Bounds(o.CPUs, l.workers, l.Rate)
}
