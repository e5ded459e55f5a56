package model

import "github.com/brewput/brewput/model/sim"

// parSteam mirrors coffee/parsteam.go: steaming beside the coffee.
type parSteam struct {
	*fineLocking
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
