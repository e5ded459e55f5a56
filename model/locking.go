package model

import "github.com/brewput/brewput/sim"

// locking mirrors coffee/locking.go: all the machines in one kitchen, one
// customer in at a time for the whole latte.
type locking struct {
	kitchen
	door *sim.Mutex
	lock meter // the kitchen lock, metered like a machine
}

func newLocking(s *sim.Sim, st steps) *locking {
	return &locking{kitchen: newKitchen(st, latte), door: sim.NewMutex(s, "kitchen"), lock: meter{name: "kitchen"}}
}

func (s *locking) brew(p *sim.Proc) {
	asked := p.Now()
	s.door.Lock(p)
	entered := p.Now()
	s.lock.waited(entered - asked)

	s.grinder.use(p, s.steps.grind())
	s.espresso.use(p, s.steps.press())
	s.steamer.use(p, s.steps.steam())
	s.steps.combine(p)

	s.lock.worked(p.Now() - entered)
	s.door.Unlock(p)
}

func (s *locking) meters() []*meter {
	return append([]*meter{&s.lock}, s.kitchen.meters()...)
}

// structure: the kitchen is held for the whole latte.
func (s *locking) structure() structure {
	return structure{
		Resources: []resource{{s.lock.name, 1, s.work()}},
		CPU:       s.work(),
		Path:      s.work(),
	}
}
