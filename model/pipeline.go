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

// pipeline mirrors coffee's: a shop of stage processes. An order goes into
// heads, one channel for each branch it takes, and its customer waits for
// every branch, then combines. There is no Close: a simulation's Stop
// unwinds the stages.
type pipeline struct {
	ms    []*meter
	free  []*order // served orders, their ready channels empty
	steps steps
	drink drink
	heads []*sim.Chan[ticket]
}

func (s *pipeline) brew(p *sim.Proc) {
	o := s.newOrder(p.Sim())
	o.customer = p.ID()
	for _, h := range s.heads {
		handOff(p, h, o)
	}
	for range s.heads {
		o.ready.Recv(p)
	}
	s.served(o)
	if s.drink.Combines() {
		s.steps.combine(p)
	}
}

// staff starts a stage process for each of ms, all on the same channels.
func (s *pipeline) staff(sm *sim.Sim, ms []*machine, d func() time.Duration, in, out *sim.Chan[ticket]) {
	for _, m := range ms {
		s.ms = append(s.ms, &m.meter)
		sm.Go(func(p *sim.Proc) { stage(p, m, d, in, out) })
	}
}

func (s *pipeline) meters() []*meter { return s.ms }

// crewNames is coffee.Crew of the model's machines, on cpus.
func crewNames(lines int, copies Copies, cpus clock) func(kind string) []*machine {
	return coffee.Crew(lines, copies, func(name string) *machine { return newMachine(name, cpus) })
}

// newOrder returns an order (a served one again: no allocation).
func (s *pipeline) newOrder(sm *sim.Sim) *order {
	if n := len(s.free); n > 0 {
		o := s.free[n-1]
		s.free = s.free[:n-1]
		return o
	}
	return &order{ready: sim.NewChan[struct{}](sm, len(s.heads))}
}

// served takes back an order whose customer has received every signal.
func (s *pipeline) served(o *order) { s.free = append(s.free, o) }
