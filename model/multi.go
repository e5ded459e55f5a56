package model

import "github.com/brewput/brewput/model/sim"

// multi mirrors coffee/multi.go: n of each machine, pooled in channels.
type multi struct {
	steps                         steps
	n                             Copies
	grinders, espressos, steamers pool
	ms                            []*meter
}

// newMulti builds a shop with n of each machine, or as copies says.
func newMulti(s *sim.Sim, st steps, n int, copies Copies) *multi {
	or := func(c int) int {
		if c > 0 {
			return c
		}
		return n
	}
	m := &multi{steps: st, n: Copies{Grinder: or(copies.Grinder), Espresso: or(copies.Espresso), Steamer: or(copies.Steamer)}}
	m.grinders = stock(s, "grinder", m.n.Grinder, st.cpus, &m.ms)
	m.espressos = stock(s, "espresso", m.n.Espresso, st.cpus, &m.ms)
	m.steamers = stock(s, "steamer", m.n.Steamer, st.cpus, &m.ms)
	return m
}

func (m *multi) brew(p *sim.Proc) {
	m.grinders.use(p, m.steps.grind())
	m.espressos.use(p, m.steps.press())
	m.steamers.use(p, m.steps.steam())
	m.steps.combine(p)
}

func (m *multi) meters() []*meter { return m.ms }

// structure: each pool of machines is held for its step.
func (m *multi) structure() structure {
	st := m.steps
	work := st.meanGrind() + st.meanPress() + st.meanSteam() + st.meanCombine()
	return structure{
		Resources: []resource{
			{copiesName("grinder", m.n.Grinder), m.n.Grinder, st.meanGrind()},
			{copiesName("espresso", m.n.Espresso), m.n.Espresso, st.meanPress()},
			{copiesName("steamer", m.n.Steamer), m.n.Steamer, st.meanSteam()},
		},
		CPU:  work,
		Path: work,
	}
}
