package model

import (
	"fmt"
	"time"

	"github.com/brewput/brewput/model/sim"
)

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
