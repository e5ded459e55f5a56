package model

import (
	"time"

	"github.com/brewput/brewput/model/sim"
)

// fineLocking mirrors coffee/finelocking.go: a lock per machine, held for
// its step; combining takes none. Without the steamer it makes americano
// and espresso; copies make a kind a pool, as coffee's Variant does, and
// with a pool for every lock it makes multi-N.
type fineLocking struct {
	steps                      steps
	drink                      drink
	grinder, espresso, steamer station
	ms                         []*meter

	// line is the drink's steps where each kind is one locked machine
	// (nil where one has copies), which brew runs itself.
	line []lineStep
}

// lineStep is one machine step of fineLocking.line.
type lineStep struct {
	m *lockedMachine
	d time.Duration
}

// newFineLocking builds it with n machines of each kind: a locked machine
// where n is 1 and not pooled, else a pool.
func newFineLocking(s *sim.Sim, st steps, d drink, n Copies, pooled bool) *fineLocking {
	f := &fineLocking{steps: st, drink: d}
	f.grinder = stationOf(s, "grinder", n.Grinder, pooled, st.cpus, &f.ms)
	f.espresso = stationOf(s, "espresso", n.Espresso, pooled, st.cpus, &f.ms)
	if d.Steams() {
		f.steamer = stationOf(s, "steamer", n.Steamer, pooled, st.cpus, &f.ms)
	}
	f.line = lineOf([]station{f.grinder, f.espresso, f.steamer}, []time.Duration{st.Grind, st.Press, st.Steam})
	return f
}

// brew runs s.line's steps as lockedMachine.use would, in its own frame:
// each return into a frame entered before a switch of coroutines is
// mispredicted, two a step through the station, one here.
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

// lineOf returns the steps on stations, nil where one is a pool.
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
