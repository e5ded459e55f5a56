package model

import (
	"time"

	"github.com/brewput/brewput/model/sim"
)

// Trace asks a run for its exact schedule over Span from the end of the
// warm-up (Start), by CPU and time, the runtime's own work included.
type Trace struct {
	Span  time.Duration
	Start time.Duration
	Steps []Step
}

// Step is one stretch of one drink's work on one virtual CPU.
type Step struct {
	CPU int
	// Start and End are virtual time since the run began.
	Start, End time.Duration
	// Machine is as its meter names it ("grinder#2"); "" for combining.
	Machine string
	// Customer is whose drink it is, from 1 in the order the load started
	// the customers (an open loop's servers).
	Customer int
	// Runtime marks the Go runtime's own work (a wake-up, a switch, a
	// handoff), which holds the CPU though no step runs.
	Runtime bool
}

// doing is what a process burns for now.
type doing struct {
	machine  string
	customer int // a process ID, or an owner's
}

// stepLog collects the steps burned within [from, to), cut to it.
type stepLog struct {
	from, to time.Duration
	// first is the ID of the load's first customer.
	first int
	doing map[int]doing
	owner map[int]int // helper process → the customer's process
	steps []Step
}

func newStepLog() *stepLog {
	return &stepLog{doing: map[int]doing{}, owner: map[int]int{}}
}

// Step records that p's next burn is a step on machine for customer (a
// burn with none combines p's own: blueprint.Tracer).
func (l *stepLog) Step(p *sim.Proc, machine string, customer int) {
	l.doing[p.ID()] = doing{machine: machine, customer: l.customer(customer)}
}

func (l *stepLog) Done(p *sim.Proc) { delete(l.doing, p.ID()) }

func (l *stepLog) OnBehalf(helper *sim.Proc, customer int) {
	l.owner[helper.ID()] = l.customer(customer)
}

// customer is the process whose drink id works on.
func (l *stepLog) customer(id int) int {
	if o, ok := l.owner[id]; ok {
		return o
	}
	return id
}

// record keeps a slice of a burn, cut to the log's window.
func (l *stepLog) record(s sim.Slice) {
	start, end := max(s.Start, l.from), min(s.End, l.to)
	if end <= start {
		return
	}
	if s.Runtime {
		l.steps = append(l.steps, Step{CPU: s.CPU, Start: start, End: end, Runtime: true})
		return
	}
	d, ok := l.doing[s.Proc]
	if !ok { // combining (see Step)
		d = doing{customer: l.customer(s.Proc)}
	}
	l.steps = append(l.steps, Step{CPU: s.CPU, Start: start, End: end, Machine: d.machine, Customer: d.customer - l.first + 1})
}
