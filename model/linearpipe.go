package model

import (
	"fmt"

	"github.com/brewput/brewput/sim"
)

// linearPipe mirrors coffee/linearpipe.go: an assembly line, one process
// per machine connected by channels with room for `buffer` orders; the
// customer hands in an order, waits for it to come off the line, then
// combines. The same line without the steamer makes americanopipe and
// espressopipe, and multipipe-N is n such lines sharing one order queue.
type linearPipe struct {
	crew
	steps  steps
	drink  drink
	lines  int
	orders *sim.Chan[ticket]
}

func newLinearPipe(s *sim.Sim, st steps, d drink, buffer, lines int) *linearPipe {
	l := &linearPipe{steps: st, drink: d, lines: lines, orders: sim.NewChan[ticket](s, buffer)}
	for i := 1; i <= lines; i++ {
		name := func(kind string) string {
			if lines == 1 {
				return kind
			}
			return fmt.Sprintf("%s#%d", kind, i)
		}
		ground := sim.NewChan[ticket](s, buffer)
		l.staff(s, newMachine(name("grinder"), st.cpus), st.grind, l.orders, ground)
		if !d.Steams() {
			l.staff(s, newMachine(name("espresso"), st.cpus), st.press, ground, nil)
			continue
		}
		pressed := sim.NewChan[ticket](s, buffer)
		l.staff(s, newMachine(name("espresso"), st.cpus), st.press, ground, pressed)
		l.staff(s, newMachine(name("steamer"), st.cpus), st.steam, pressed, nil)
	}
	return l
}

func (l *linearPipe) brew(p *sim.Proc) {
	o := l.newOrder(p.Sim(), 1)
	handOff(p, l.orders, o)
	o.ready.Recv(p)
	l.served(o)
	if l.drink.Combines() {
		l.steps.combine(p)
	}
}

// structure: each stage process holds an order for its step, and the lines
// copies of a stage share the orders between them; the customer combines
// after the line, so the critical path is every step in turn.
func (l *linearPipe) structure() structure {
	st := l.steps
	r := []resource{
		{copiesName("grinder", l.lines), l.lines, st.meanGrind()},
		{copiesName("espresso", l.lines), l.lines, st.meanPress()},
	}
	work := st.meanGrind() + st.meanPress()
	if l.drink.Steams() {
		r = append(r, resource{copiesName("steamer", l.lines), l.lines, st.meanSteam()})
		work += st.meanSteam()
	}
	if l.drink.Combines() {
		work += st.meanCombine()
	}
	return structure{Resources: r, CPU: work, Path: work}
}
