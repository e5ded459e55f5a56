package model

import "github.com/brewput/brewput/model/sim"

// parSteam mirrors coffee/parsteam.go: finelocking with the milk steamed in
// a process of its own, started for each latte, in parallel with grinding
// and pressing.
type parSteam struct {
	*fineLocking
}

func newParSteam(s *sim.Sim, st steps, copies Copies) *parSteam {
	return &parSteam{fineLocking: newFineLocking(s, st, latte, copies)}
}

func (s *parSteam) brew(p *sim.Proc) {
	milk := sim.NewChan[struct{}](p.Sim(), 0)
	customer := p.ID()
	p.Sim().Go(func(p *sim.Proc) {
		s.steps.cpus.onBehalf(p, customer)
		s.steamer.use(p, s.steps.steam())
		milk.Send(p, struct{}{})
	})
	s.grinder.use(p, s.steps.grind())
	s.espresso.use(p, s.steps.press())
	milk.Recv(p)
	s.steps.combine(p)
}

// structure: the locks of finelocking; the steaming overlaps grind and
// press, so the critical path is the longer of the two branches, then the
// combine.
func (s *parSteam) structure() structure {
	st := s.steps
	return structure{
		Resources: s.locks(),
		CPU:       s.work(),
		Path:      max(st.meanGrind()+st.meanPress(), st.meanSteam()) + st.meanCombine(),
	}
}
