package model

import "github.com/brewput/brewput/model/sim"

// locking mirrors coffee/locking.go: one customer in the kitchen.
type locking struct {
	kitchen
	door  *sim.Mutex
	lock  meter // the kitchen lock, metered like a machine
	split bool
}

func newLocking(s *sim.Sim, st steps, d drink, split bool) *locking {
	return &locking{kitchen: newKitchen(st, d), door: sim.NewMutex(s, "kitchen"), lock: meter{name: "kitchen"}, split: split}
}

func (s *locking) brew(p *sim.Proc) {
	asked := p.Now()
	s.door.Lock(p)
	entered, b0 := p.Now(), p.Burned()
	s.lock.waited(entered - asked)

	s.grinder.use(p, s.steps.grind())
	s.espresso.use(p, s.steps.press())
	if s.drink.Steams() {
		s.steamer.use(p, s.steps.steam())
	}
	if s.drink.Combines() && !s.split {
		s.steps.combine(p)
	}

	s.lock.used(p, entered, b0)
	s.door.Unlock(p)
	if s.drink.Combines() && s.split {
		s.steps.combine(p)
	}
}

func (s *locking) meters() []*meter {
	return append([]*meter{&s.lock}, s.kitchen.meters()...)
}
