package model

import (
	"fmt"
	"time"

	"github.com/brewput/brewput/sim"
)

// multi mirrors coffee/multi.go: n copies of each machine, the copies of a
// kind waiting in a buffered channel that is both the queue and the lock.
type multi struct {
	steps                         steps
	n                             Copies
	grinders, espressos, steamers *sim.Chan[*machine]
	ms                            []*meter
}

// newMulti builds a shop with n of each machine, or, where copies says,
// another number of a kind.
func newMulti(s *sim.Sim, st steps, n int, copies Copies) *multi {
	or := func(c int) int {
		if c > 0 {
			return c
		}
		return n
	}
	m := &multi{steps: st, n: Copies{Grinder: or(copies.Grinder), Espresso: or(copies.Espresso), Steamer: or(copies.Steamer)}}
	m.grinders = m.stock(s, "grinder", m.n.Grinder)
	m.espressos = m.stock(s, "espresso", m.n.Espresso)
	m.steamers = m.stock(s, "steamer", m.n.Steamer)
	return m
}

// stock fills a channel with n machines of one kind. A send needs a
// process, so a process started before any customer's fills it, at time
// zero, before any customer asks (coffee fills it in the constructor).
func (m *multi) stock(s *sim.Sim, kind string, n int) *sim.Chan[*machine] {
	pool := sim.NewChan[*machine](s, n)
	var machines []*machine
	for i := 1; i <= n; i++ {
		mc := newMachine(fmt.Sprintf("%s#%d", kind, i), m.steps.cpus)
		m.ms = append(m.ms, &mc.meter)
		machines = append(machines, mc)
	}
	s.Go(func(p *sim.Proc) {
		for _, mc := range machines {
			pool.Send(p, mc)
		}
	})
	return pool
}

func (m *multi) brew(p *sim.Proc) {
	useOne(p, m.grinders, m.steps.grind())
	useOne(p, m.espressos, m.steps.press())
	useOne(p, m.steamers, m.steps.steam())
	m.steps.combine(p)
}

// useOne takes a free machine from the pool, runs one step on it, and puts
// it back.
func useOne(p *sim.Proc, pool *sim.Chan[*machine], d time.Duration) {
	asked := p.Now()
	mc := pool.Recv(p)
	mc.waited(p.Now() - asked)
	mc.use(p, d)
	pool.Send(p, mc)
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
