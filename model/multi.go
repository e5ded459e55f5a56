package model

import (
	"fmt"
	"time"

	"github.com/brewput/brewput/model/sim"
)

// newMulti mirrors coffee/multi.go: finelocking with a pool of n copies of
// each machine (copies' number for a kind it sets) in place of each lock.
func newMulti(s *sim.Sim, st steps, d drink, n int, copies Copies) *fineLocking {
	f := &fineLocking{steps: st, drink: d, n: copiesOr(copies, n)}
	f.grinder = stock(s, "grinder", f.n.Grinder, st.cpus, &f.ms)
	f.espresso = stock(s, "espresso", f.n.Espresso, st.cpus, &f.ms)
	if d.Steams() {
		f.steamer = stock(s, "steamer", f.n.Steamer, st.cpus, &f.ms)
	}
	return f
}

// pool mirrors coffee's: the free machines of a kind in a channel.
type pool struct {
	ch *sim.Chan[*machine]
}

// stock fills a pool with kind#1 to kind#n from a process of its own.
func stock(s *sim.Sim, kind string, n int, cpus clock, meters *[]*meter) pool {
	ch := sim.NewChan[*machine](s, n)
	var machines []*machine
	for i := 1; i <= n; i++ {
		mc := newMachine(fmt.Sprintf("%s#%d", kind, i), cpus)
		*meters = append(*meters, &mc.meter)
		machines = append(machines, mc)
	}
	s.Go(func(p *sim.Proc) {
		for _, mc := range machines {
			ch.Send(p, mc)
		}
	})
	return pool{ch}
}

// use takes a free machine, runs one step on it, and puts it back.
func (pl pool) use(p *sim.Proc, d time.Duration) {
	asked := p.Now()
	mc := pl.ch.Recv(p)
	got, b0 := p.Now(), p.Burned()
	mc.waited(got - asked)
	mc.cpus.note(p, mc.name, p.ID())
	mc.cpus.Burn(p, d)
	mc.cpus.done(p)
	mc.used(p, got, b0)
	pl.ch.Send(p, mc)
}
