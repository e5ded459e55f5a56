package model

import "github.com/brewput/brewput/model/sim"

// ideal mirrors coffee/ideal.go: no synchronization at all.
type ideal struct {
	kitchen
}

func newIdeal(st steps) *ideal {
	return &ideal{kitchen: newKitchen(st, latte)}
}

func (s *ideal) brew(p *sim.Proc) {
	s.grinder.use(p, s.steps.grind())
	s.espresso.use(p, s.steps.press())
	s.steamer.use(p, s.steps.steam())
	s.steps.combine(p)
}

// structure: nothing is held, so only the CPUs and the customers bound it.
func (s *ideal) structure() Structure {
	return Structure{CPU: s.steps.work(latte), Path: s.steps.work(latte)}
}
