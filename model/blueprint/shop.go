package blueprint

import (
	"cmp"
	"strings"
	"time"

	"github.com/brewput/brewput/coffee"
)

// Shop is mode m of the coffee shop, changed by v, with steps st, as a
// blueprint: its family's Shape compiled into what coffee builds of it,
// metered as coffee meters them, so that a mode and a file describing the
// same shop are one model. m, st and v are valid.
func Shop(m coffee.Mode, st coffee.Steps, v coffee.Variant) *Blueprint {
	f := coffee.FamilyOf(m)
	b := &Blueprint{Name: m.String(), File: m.String(), Unit: strings.TrimSuffix(m.Unit(), "/s"), Clock: "cpu",
		Load: Workload{Arrivals: Even}, flow: &group{}}
	if f.Shape.Holds == coffee.NoShop { // nothing, in no time: the harness alone
		return b
	}
	type kind struct {
		step, doing, machine, noun string
		d                          time.Duration
	}
	kinds := []kind{{"grind", "grinding", "grinder", "grinder", st.Grind}, {"press", "pressing", "espresso", "espresso machine", st.Press}}
	if f.Drink.Steams() {
		kinds = append(kinds, kind{"steam", "steaming", "steamer", "steamer", st.Steam})
	}
	newStep := func(name, doing string, d dist) *step {
		s := &step{what: label("step", name), name: name, doing: doing, d: d, cpu: true, usage: usage{every: 1}, id: len(b.steps)}
		b.steps = append(b.steps, s)
		return s
	}
	machine := func(k kind) *step { return newStep(k.step, k.doing, jittered{k.d, st.Jitter}) }
	var combine *step
	if f.Drink.Combines() {
		combine = newStep("combine", "combining", fixed(st.Combine))
	}
	resource := func(r Resource) []int {
		b.used = append(b.used, len(b.Resources))
		b.Resources = append(b.Resources, r)
		return []int{len(b.Resources) - 1}
	}
	var flow []node
	switch f.Shape.Holds {
	case coffee.Nothing, coffee.KitchenLock:
		var kitchen []int
		if f.Shape.Holds == coffee.KitchenLock {
			kitchen = resource(Resource{Name: "kitchen", Capacity: 1, Kind: Mutex, Noun: "kitchen lock"})
		}
		for _, k := range kinds {
			s := machine(k)
			s.holds = resource(Resource{Name: k.machine, Capacity: 1, Kind: Unguarded, Noun: k.noun, Machines: true})
			flow = append(flow, s)
		}
		if kitchen != nil {
			g := &group{what: "group", usage: usage{holds: kitchen, every: 1}, items: flow}
			if combine != nil && !v.Split {
				combine.splits = true
				g.items, combine = append(g.items, combine), nil
			}
			flow = []node{g}
		}
	case coffee.MachineLocks:
		copies := v.Copies.Or(m.Copies())
		for _, k := range kinds {
			n := copies.Kind(k.machine)
			s := machine(k)
			s.holds = resource(Resource{Name: k.machine, Capacity: n, Kind: Mutex, Noun: k.noun, Machines: true,
				Pooled: f.Shape.N == coffee.MachineCopies || n > 1})
			flow = append(flow, s)
		}
		if f.Shape.Forked { // the milk steamed on a goroutine of the customer's
			flow = []node{&parallel{branches: []node{&group{items: flow[:2], usage: usage{every: 1}}, flow[2]}, unbuffered: true}}
		}
	case coffee.Stages:
		lines, buffer := m.Lines(), m.Buffer()
		or := func(n int) int {
			if n > 0 {
				return n
			}
			return buffer
		}
		newStage := func(k kind, queue string) *stage {
			s := &stage{name: k.machine, body: machine(k), workers: max(1, v.Copies.Kind(k.machine)), buffer: or(v.Buffers.Kind(k.machine)),
				machine: b.stages, noun: k.noun, queue: cmp.Or(queue, "the channel into the "+k.noun)}
			b.stages++
			return s
		}
		pipeline := func(stages ...*stage) *pipe {
			pp := &pipe{id: len(b.pipes), stages: stages, lines: lines}
			b.pipes = append(b.pipes, pp)
			return pp
		}
		if f.Shape.Forked { // the milk handed to the steamer's own channel next
			shots := pipeline(newStage(kinds[0], ""), newStage(kinds[1], ""))
			shots.forks = []*pipe{pipeline(newStage(kinds[2], "the milk's channel"))}
			flow = []node{shots}
			break
		}
		stages := []*stage{newStage(kinds[0], "the order queue")}
		for _, k := range kinds[1:] {
			stages = append(stages, newStage(k, ""))
		}
		flow = []node{pipeline(stages...)}
	}
	if combine != nil {
		flow = append(flow, combine)
	}
	b.flow = &group{items: flow, usage: usage{every: 1}}
	b.nres = len(b.Resources)
	return b
}
