package model

import (
	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/model/sim"
)

// newPipeline mirrors coffee/linearpipe.go: a process per machine, joined
// by channels of buffer; without the steamer it makes americanopipe and
// espressopipe, multipipe-N is N lines sharing one order queue, and
// forked it is splitpipe, the milk handed to the steamer at once.
func newPipeline(sm *sim.Sim, st steps, d drink, buffer, lines int, forked bool, v coffee.Variant) *pipeline {
	orders := sim.NewChan[ticket](sm, or(v.Buffers.Grinder, buffer))
	s := &pipeline{steps: st, drink: d, heads: []*sim.Chan[ticket]{orders}}
	var milk *sim.Chan[ticket]
	if forked {
		milk = sim.NewChan[ticket](sm, or(v.Buffers.Steamer, buffer))
		s.heads = append(s.heads, milk)
	}
	machines := crewNames(lines, v.Copies, st.cpus)
	for range lines {
		ground := sim.NewChan[ticket](sm, or(v.Buffers.Espresso, buffer))
		s.staff(sm, machines("grinder"), st.grind, orders, ground)
		switch {
		case forked:
			s.staff(sm, machines("espresso"), st.press, ground, nil)
			s.staff(sm, machines("steamer"), st.steam, milk, nil)
		case d.Steams():
			pressed := sim.NewChan[ticket](sm, or(v.Buffers.Steamer, buffer))
			s.staff(sm, machines("espresso"), st.press, ground, pressed)
			s.staff(sm, machines("steamer"), st.steam, pressed, nil)
		default:
			s.staff(sm, machines("espresso"), st.press, ground, nil)
		}
	}
	return s
}
