package model

import (
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/model/sim"
)

// order mirrors coffee's order: one drink travelling down a pipeline. The
// customer who placed it waits on ready for each branch that finishes it.
type order struct {
	ready *sim.Chan[struct{}]
	// customer is the ID of the process that placed it, for the schedule
	// (see Schedule).
	customer int
}

// ticket is an order on its way to the next stage, stamped with the moment
// it was handed over, so that the stage can meter how long it waited.
type ticket struct {
	order  *order
	handed time.Duration
}

// handOff gives an order to the next stage; a full (or unbuffered) channel
// blocks the sender, which is the point of the lesson.
func handOff(p *sim.Proc, next *sim.Chan[ticket], o *order) {
	next.Send(p, ticket{order: o, handed: p.Now()})
}

// stage is one barista at one machine: take an order, do the step, pass the
// order on (or, at the end of the line, tell the customer it is ready). The
// machine is held from taking the order to having passed it on, as in
// coffee. coffee's stage ends when its input is closed; a simulated one
// runs until the simulation stops.
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

// crew mirrors coffee's crew: it starts a pipeline's stage processes and
// keeps their machines' meters. It also recycles orders.
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

// newOrder returns an order whose ready channel has room for one signal per
// branch: coffee's &order{ready: make(chan struct{}, branches)}, except
// that the model hands out a served order again rather than a new one.
// That simulates the same and keeps the steady state from allocating.
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

// or is n, or def where n is 0 (a Copies or Buffers field left to the
// mode).
func or(n, def int) int {
	if n > 0 {
		return n
	}
	return def
}
