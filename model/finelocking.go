package model

import "github.com/brewput/brewput/sim"

// fineLocking mirrors coffee/finelocking.go: each machine has its own lock,
// held only for that machine's step, and the combine step takes no lock.
// The same structure makes the americano and espresso modes, which skip the
// steamer (and, for espresso, the combine step).
type fineLocking struct {
	kitchen                    // the machines, for their meters; reached only through the locks below
	grinder, espresso, steamer *lockedMachine
}

func newFineLocking(s *sim.Sim, st steps, d drink) *fineLocking {
	k := newKitchen(st, d)
	return &fineLocking{
		kitchen:  k,
		grinder:  newLockedMachine(s, k.grinder),
		espresso: newLockedMachine(s, k.espresso),
		steamer:  newLockedMachine(s, k.steamer),
	}
}

func (s *fineLocking) brew(p *sim.Proc) {
	s.grinder.use(p, s.steps.grind())
	s.espresso.use(p, s.steps.press())
	if s.drink.Steams() {
		s.steamer.use(p, s.steps.steam())
	}
	if s.drink.Combines() {
		s.steps.combine(p)
	}
}

// structure: each machine's lock is held for its step.
func (s *fineLocking) structure() structure {
	return structure{Resources: s.locks(), CPU: s.work(), Path: s.work()}
}

// locks are the machine locks the drink takes, each held for its step.
func (s *fineLocking) locks() []resource {
	r := []resource{{s.grinder.name, 1, s.steps.meanGrind()}, {s.espresso.name, 1, s.steps.meanPress()}}
	if s.drink.Steams() {
		r = append(r, resource{s.steamer.name, 1, s.steps.meanSteam()})
	}
	return r
}
