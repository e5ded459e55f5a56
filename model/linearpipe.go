package model

import (
	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/model/sim"
)

// newPipeline mirrors coffee/linearpipe.go: a process per machine, joined
// by channels of buffer; without the steamer it makes americanopipe and
// espressopipe, and multipipe-N is N lines sharing one order queue.
func newPipeline(sm *sim.Sim, st steps, d drink, buffer, lines int, v coffee.Variant) *pipeline {
	orders := sim.NewChan[ticket](sm, or(v.Buffers.Grinder, buffer))
	s := &pipeline{steps: st, drink: d, heads: []*sim.Chan[ticket]{orders}}
	machines := crewNames(lines, v.Copies, st.cpus)
	for range lines {
		ground := sim.NewChan[ticket](sm, or(v.Buffers.Espresso, buffer))
		s.staff(sm, machines("grinder"), st.grind, orders, ground)
		if !d.Steams() {
			s.staff(sm, machines("espresso"), st.press, ground, nil)
			continue
		}
		pressed := sim.NewChan[ticket](sm, or(v.Buffers.Steamer, buffer))
		s.staff(sm, machines("espresso"), st.press, ground, pressed)
		s.staff(sm, machines("steamer"), st.steam, pressed, nil)
	}
	return s
}
