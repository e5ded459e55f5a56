package model

import (
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/model/sim"
)

// order mirrors coffee's: one drink down a pipeline.
type order struct {
	ready *sim.Chan[struct{}]
	// customer is the ID of the process that placed it, for a Trace.
	customer int
}

// ticket is an order handed to a stage, and when.
type ticket struct {
	order  *order
	handed time.Duration
}

// handOff gives an order to the next stage, blocking on a full channel.
func handOff(p *sim.Proc, next *sim.Chan[ticket], o *order) {
	next.Send(p, ticket{order: o, handed: p.Now()})
}

// stage is one barista at one machine, held for each order.
func stage(p *sim.Proc, m *machine, d func() time.Duration, in, out *sim.Chan[ticket]) {
	for {
		t := in.Recv(p)
		got, b0 := p.Now(), p.Burned()
		m.waited(got - t.handed)
		m.cpus.note(p, m.name, t.order.customer)
		m.cpus.Burn(p, d())
		m.cpus.done(p)
		if out == nil {
			t.order.ready.Send(p, struct{}{})
		} else {
			handOff(p, out, t.order)
		}
		m.used(p, got, b0)
	}
}

// crew mirrors coffee's: a pipeline's stages' meters, and free orders.
type crew struct {
	ms   []*meter
	free []*order // served orders, their ready channels empty
}

// staff starts a stage process for each of ms, all on the same channels.
func (c *crew) staff(s *sim.Sim, ms []*machine, d func() time.Duration, in, out *sim.Chan[ticket]) {
	for _, m := range ms {
		c.ms = append(c.ms, &m.meter)
		s.Go(func(p *sim.Proc) { stage(p, m, d, in, out) })
	}
}

// crewNames is coffee.Crew of the model's machines, on cpus.
func crewNames(lines int, copies Copies, cpus clock) func(kind string) []*machine {
	return coffee.Crew(lines, copies, func(name string) *machine { return newMachine(name, cpus) })
}

func (c *crew) meters() []*meter { return c.ms }

// newOrder returns an order (a served one again: no allocation).
func (c *crew) newOrder(s *sim.Sim, branches int) *order {
	if n := len(c.free); n > 0 {
		o := c.free[n-1]
		c.free = c.free[:n-1]
		return o
	}
	return &order{ready: sim.NewChan[struct{}](s, branches)}
}

// served takes back an order whose customer has received every signal.
func (c *crew) served(o *order) { c.free = append(c.free, o) }

// or is n, or def where n is 0.
func or(n, def int) int {
	if n > 0 {
		return n
	}
	return def
}
