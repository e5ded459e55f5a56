package model

import "github.com/brewput/brewput/sim"

// splitPipe mirrors coffee/splitpipe.go: a pipeline that forks. The
// customer hands the order both to the grinder, whose line goes on to the
// espresso machine, and to the steamer, which works on the milk at the same
// time; the customer waits for both branches, then combines.
type splitPipe struct {
	crew
	steps        steps
	coffee, milk *sim.Chan[ticket]
}

func newSplitPipe(s *sim.Sim, st steps, buffer int) *splitPipe {
	sp := &splitPipe{steps: st, coffee: sim.NewChan[ticket](s, buffer), milk: sim.NewChan[ticket](s, buffer)}
	ground := sim.NewChan[ticket](s, buffer)
	sp.staff(s, newMachine("grinder", st.cpus), st.grind, sp.coffee, ground)
	sp.staff(s, newMachine("espresso", st.cpus), st.press, ground, nil)
	sp.staff(s, newMachine("steamer", st.cpus), st.steam, sp.milk, nil)
	return sp
}

func (sp *splitPipe) brew(p *sim.Proc) {
	o := sp.newOrder(p.Sim(), 2)
	handOff(p, sp.coffee, o)
	handOff(p, sp.milk, o)
	o.ready.Recv(p)
	o.ready.Recv(p)
	sp.served(o)
	sp.steps.combine(p)
}

// structure: each stage process holds an order for its step; the milk
// branch runs beside grind → press, so the critical path is the longer
// branch, then the combine.
func (sp *splitPipe) structure() structure {
	st := sp.steps
	return structure{
		Resources: []resource{
			{"grinder", 1, st.meanGrind()},
			{"espresso", 1, st.meanPress()},
			{"steamer", 1, st.meanSteam()},
		},
		CPU:  st.meanGrind() + st.meanPress() + st.meanSteam() + st.meanCombine(),
		Path: max(st.meanGrind()+st.meanPress(), st.meanSteam()) + st.meanCombine(),
	}
}
