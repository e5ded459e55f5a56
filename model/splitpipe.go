package model

import (
	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/model/sim"
)

// newSplitPipe mirrors coffee/splitpipe.go: the customer hands the order
// to the grinder's line and to the steamer at once, waits for both, then
// combines.
func newSplitPipe(sm *sim.Sim, st steps, buffer int, v coffee.Variant) *pipeline {
	coffee, milk := sim.NewChan[ticket](sm, or(v.Buffers.Grinder, buffer)), sim.NewChan[ticket](sm, or(v.Buffers.Steamer, buffer))
	s := &pipeline{steps: st, drink: latte, heads: []*sim.Chan[ticket]{coffee, milk}}
	ground := sim.NewChan[ticket](sm, or(v.Buffers.Espresso, buffer))
	machines := crewNames(1, v.Copies, st.cpus)
	s.staff(sm, machines("grinder"), st.grind, coffee, ground)
	s.staff(sm, machines("espresso"), st.press, ground, nil)
	s.staff(sm, machines("steamer"), st.steam, milk, nil)
	return s
}
