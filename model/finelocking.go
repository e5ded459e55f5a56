package model

import "github.com/brewput/brewput/sim"

// fineLocking mirrors coffee/finelocking.go: each machine has its own lock,
// held only for that machine's step, and the combine step takes no lock.
// The same structure makes the americano and espresso modes, which skip the
// steamer (and, for espresso, the combine step). Copies turn a kind's one
// locked machine into a pool, as coffee's Variant does.
type fineLocking struct {
	steps                      steps
	drink                      drink
	n                          Copies // machines of each kind, at least 1
	grinder, espresso, steamer station
	ms                         []*meter
}

func newFineLocking(s *sim.Sim, st steps, d drink, copies Copies) *fineLocking {
	one := func(c int) int { return max(c, 1) }
	f := &fineLocking{steps: st, drink: d, n: Copies{Grinder: one(copies.Grinder), Espresso: one(copies.Espresso), Steamer: one(copies.Steamer)}}
	f.grinder = stationOf(s, "grinder", f.n.Grinder, st.cpus, &f.ms)
	f.espresso = stationOf(s, "espresso", f.n.Espresso, st.cpus, &f.ms)
	if d.Steams() {
		f.steamer = stationOf(s, "steamer", f.n.Steamer, st.cpus, &f.ms)
	}
	return f
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

func (s *fineLocking) meters() []*meter { return s.ms }

// structure: each machine's lock (or pool) is held for its step.
func (s *fineLocking) structure() structure {
	return structure{Resources: s.locks(), CPU: s.work(), Path: s.work()}
}

// work is the drink's steps one after the other.
func (s *fineLocking) work() float64 {
	k := kitchen{steps: s.steps, drink: s.drink}
	return k.work()
}

// locks are the machine locks (or pools) the drink takes, each held for
// its step.
func (s *fineLocking) locks() []resource {
	st := s.steps
	r := []resource{
		{copiesName("grinder", s.n.Grinder), s.n.Grinder, st.meanGrind()},
		{copiesName("espresso", s.n.Espresso), s.n.Espresso, st.meanPress()},
	}
	if s.drink.Steams() {
		r = append(r, resource{copiesName("steamer", s.n.Steamer), s.n.Steamer, st.meanSteam()})
	}
	return r
}
