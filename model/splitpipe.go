package model

import "github.com/brewput/brewput/model/sim"

// splitPipe mirrors coffee/splitpipe.go: the customer hands the order to
// the grinder's line and to the steamer at once, waits for both, then
// combines.
type splitPipe struct {
	crew
	steps        steps
	n            Copies
	coffee, milk *sim.Chan[ticket]
}

func newSplitPipe(s *sim.Sim, st steps, buffer int, copies, buffers Copies) *splitPipe {
	one := func(c int) int { return max(c, 1) }
	sp := &splitPipe{steps: st,
		n:      Copies{Grinder: one(copies.Grinder), Espresso: one(copies.Espresso), Steamer: one(copies.Steamer)},
		coffee: sim.NewChan[ticket](s, or(buffers.Grinder, buffer)), milk: sim.NewChan[ticket](s, or(buffers.Steamer, buffer))}
	ground := sim.NewChan[ticket](s, or(buffers.Espresso, buffer))
	machines := crewNames(1, copies, st.cpus)
	sp.staff(s, machines("grinder"), st.grind, sp.coffee, ground)
	sp.staff(s, machines("espresso"), st.press, ground, nil)
	sp.staff(s, machines("steamer"), st.steam, sp.milk, nil)
	return sp
}

func (sp *splitPipe) brew(p *sim.Proc) {
	o := sp.newOrder(p.Sim(), 2)
	o.customer = p.ID()
	handOff(p, sp.coffee, o)
	handOff(p, sp.milk, o)
	o.ready.Recv(p)
	o.ready.Recv(p)
	sp.served(o)
	sp.steps.combine(p)
}

// structure: the stages hold orders; the longer branch, then combining.
func (sp *splitPipe) structure() structure {
	st := sp.steps
	return structure{
		Resources: []resource{
			{copiesName("grinder", sp.n.Grinder), sp.n.Grinder, st.meanGrind()},
			{copiesName("espresso", sp.n.Espresso), sp.n.Espresso, st.meanPress()},
			{copiesName("steamer", sp.n.Steamer), sp.n.Steamer, st.meanSteam()},
		},
		CPU:  st.meanGrind() + st.meanPress() + st.meanSteam() + st.meanCombine(),
		Path: max(st.meanGrind()+st.meanPress(), st.meanSteam()) + st.meanCombine(),
	}
}
