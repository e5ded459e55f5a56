package model

import "github.com/brewput/brewput/model/sim"

// linearPipe mirrors coffee/linearpipe.go: an assembly line, one process
// per machine connected by channels with room for `buffer` orders; the
// customer hands in an order, waits for it to come off the line, then
// combines. The same line without the steamer makes americanopipe and
// espressopipe, and multipipe-N is n such lines sharing one order queue.
// Copies are each stage's workers on every line, Buffers the room in the
// channel into each stage, as coffee's Variant says.
type linearPipe struct {
	crew
	steps  steps
	drink  drink
	lines  int
	n      Copies // workers of each stage per line, at least 1
	orders *sim.Chan[ticket]
}

func newLinearPipe(s *sim.Sim, st steps, d drink, buffer, lines int, copies, buffers Copies) *linearPipe {
	one := func(c int) int { return max(c, 1) }
	l := &linearPipe{steps: st, drink: d, lines: lines, orders: sim.NewChan[ticket](s, or(buffers.Grinder, buffer)),
		n: Copies{Grinder: one(copies.Grinder), Espresso: one(copies.Espresso), Steamer: one(copies.Steamer)}}
	machines := crewNames(lines, copies, st.cpus)
	for range lines {
		ground := sim.NewChan[ticket](s, or(buffers.Espresso, buffer))
		l.staff(s, machines("grinder"), st.grind, l.orders, ground)
		if !d.Steams() {
			l.staff(s, machines("espresso"), st.press, ground, nil)
			continue
		}
		pressed := sim.NewChan[ticket](s, or(buffers.Steamer, buffer))
		l.staff(s, machines("espresso"), st.press, ground, pressed)
		l.staff(s, machines("steamer"), st.steam, pressed, nil)
	}
	return l
}

func (l *linearPipe) brew(p *sim.Proc) {
	o := l.newOrder(p.Sim(), 1)
	o.customer = p.ID()
	handOff(p, l.orders, o)
	o.ready.Recv(p)
	l.served(o)
	if l.drink.Combines() {
		l.steps.combine(p)
	}
}

// structure: each stage process holds an order for its step, and the
// copies of a stage (its workers on every line) share the orders between
// them; the customer combines after the line, so the critical path is
// every step in turn.
func (l *linearPipe) structure() structure {
	st := l.steps
	g, e, m := l.lines*l.n.Grinder, l.lines*l.n.Espresso, l.lines*l.n.Steamer
	r := []resource{
		{copiesName("grinder", g), g, st.meanGrind()},
		{copiesName("espresso", e), e, st.meanPress()},
	}
	work := st.meanGrind() + st.meanPress()
	if l.drink.Steams() {
		r = append(r, resource{copiesName("steamer", m), m, st.meanSteam()})
		work += st.meanSteam()
	}
	if l.drink.Combines() {
		work += st.meanCombine()
	}
	return structure{Resources: r, CPU: work, Path: work}
}
