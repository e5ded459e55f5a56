package model

import (
	"time"

	"github.com/brewput/brewput/model/sim"
)

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

	// line is the drink's machine steps in order when each kind is one
	// machine behind its own lock, as in the talk's finelocking (nil where
	// a kind has copies): brew then runs them itself (see brew).
	line []lineStep
}

// lineStep is one machine step of fineLocking.line: the machine, and the
// step's duration before jitter.
type lineStep struct {
	m *lockedMachine
	d time.Duration
}

func newFineLocking(s *sim.Sim, st steps, d drink, copies Copies) *fineLocking {
	one := func(c int) int { return max(c, 1) }
	f := &fineLocking{steps: st, drink: d, n: Copies{Grinder: one(copies.Grinder), Espresso: one(copies.Espresso), Steamer: one(copies.Steamer)}}
	f.grinder = stationOf(s, "grinder", f.n.Grinder, st.cpus, &f.ms)
	f.espresso = stationOf(s, "espresso", f.n.Espresso, st.cpus, &f.ms)
	if d.Steams() {
		f.steamer = stationOf(s, "steamer", f.n.Steamer, st.cpus, &f.ms)
	}
	f.line = lineOf([]station{f.grinder, f.espresso, f.steamer}, []time.Duration{st.grindD, st.pressD, st.steamD})
	return f
}

// brew runs the steps of s.line in its own frame, each as
// lockedMachine.use does: the same draws, waits and meters in the same
// order, with no call around the blocking ones. It is the engine's speed
// test (BenchmarkFinelockingSixCPUs), and after every switch of coroutines
// each return into a frame entered before the switch is mispredicted (the
// CPU predicts the returns of the goroutine that switched away): calling
// use through the station costs two such returns a step, this loop one.
func (s *fineLocking) brew(p *sim.Proc) {
	if s.line != nil {
		for _, st := range s.line {
			m, d := st.m, s.steps.machine(st.d)
			asked := p.Now()
			m.mu.Lock(p)
			got, b0 := p.Now(), p.Burned()
			m.waited(got - asked)
			m.cpus.note(p, m.name, p.ID())
			m.cpus.Burn(p, d)
			m.cpus.done(p)
			m.used(p, got, b0)
			m.mu.Unlock(p)
		}
	} else {
		s.grinder.use(p, s.steps.grind())
		s.espresso.use(p, s.steps.press())
		if s.drink.Steams() {
			s.steamer.use(p, s.steps.steam())
		}
	}
	if s.drink.Combines() {
		s.steps.combine(p)
	}
}

// lineOf returns the steps on stations, in order up to the first nil one,
// with their durations ds; nil if one of them is a pool.
func lineOf(stations []station, ds []time.Duration) []lineStep {
	var line []lineStep
	for i, st := range stations {
		if st == nil {
			break
		}
		m, ok := st.(*lockedMachine)
		if !ok {
			return nil
		}
		line = append(line, lineStep{m, ds[i]})
	}
	return line
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
