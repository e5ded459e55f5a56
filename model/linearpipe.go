package model

import "github.com/brewput/brewput/model/sim"

// linearPipe mirrors coffee/linearpipe.go: a process per machine, joined
// by channels of buffer; without the steamer it makes americanopipe and
// espressopipe, multipipe-N is N lines sharing one order queue.
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

// structure: each stage holds an order for its step, one after another.
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
