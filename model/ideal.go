package model

import "github.com/brewput/brewput/model/sim"

// ideal mirrors coffee/ideal.go: no synchronization at all.
type ideal struct {
	kitchen
}

func (s *ideal) brew(p *sim.Proc) {
	s.grinder.use(p, s.steps.grind())
	s.espresso.use(p, s.steps.press())
	if s.drink.Steams() {
		s.steamer.use(p, s.steps.steam())
	}
	if s.drink.Combines() {
		s.steps.combine(p)
	}
}
