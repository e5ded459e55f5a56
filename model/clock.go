package model

import (
	"time"

	"github.com/brewput/brewput/model/sim"
)

// clock is the shop's virtual CPUs as its steps burn them (the model's
// burn.Clock), with the log of steps that Schedule keeps; log is nil in
// every other run, where a step costs one nil check more.
type clock struct {
	*sim.CPUs
	log *stepLog
}

// note says what p's next burn is for: a step on machine of the drink of
// customer, the ID of the process that ordered it; done, after the burn,
// that it is over. A burn with no note is combining, which uses no
// machine, for p's own drink. A machine step calls note, burns the CPUs
// itself, and calls done: both inline, so a run with no log pays two nil
// checks and no call, and combining burns with no call around it (a call
// between a step and its burn costs a mispredicted return after every
// switch of coroutines).
func (c clock) note(p *sim.Proc, machine string, customer int) {
	if c.log != nil {
		c.log.note(p.ID(), machine, customer)
	}
}

func (c clock) done(p *sim.Proc) {
	if c.log != nil {
		delete(c.log.doing, p.ID())
	}
}

// onBehalf says that process p works on customer's drink, where p is a
// helper the customer started (parsteam's steaming).
func (c clock) onBehalf(p *sim.Proc, customer int) {
	if c.log != nil {
		c.log.owner[p.ID()] = c.log.customer(customer)
	}
}

// Step is one stretch of one drink's work on one virtual CPU, as the
// schedule picture draws it: which CPU, from when to when, on which
// machine, for whom.
type Step struct {
	CPU int
	// Start and End are virtual time since the run began.
	Start, End time.Duration
	// Machine is the machine the step used, as its meter names it
	// ("grinder", "grinder#2"); "" for combining, which uses none.
	Machine string
	// Customer is whose drink it is: the closed loop's customer (an open
	// loop's server) from 1, in the order the load started them.
	Customer int
	// Runtime marks the Go runtime's own work under the go policy — a
	// wake-up, a switch, a handoff — which holds the CPU, and counts in
	// its utilization, though no step runs; Machine and Customer are
	// empty then.
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
	// first is the ID of the load's first process, whose customers are
	// numbered from it.
	first int
	doing map[int]doing
	owner map[int]int // helper process → the customer's process
	steps []Step
}

func newStepLog(from, to time.Duration) *stepLog {
	return &stepLog{from: from, to: to, doing: map[int]doing{}, owner: map[int]int{}}
}

// note records that process id's burn is a step on machine for customer.
func (l *stepLog) note(id int, machine string, customer int) {
	l.doing[id] = doing{machine: machine, customer: l.customer(customer)}
}

// customer is the process ID whose drink process id works on: its
// owner's where it is a helper.
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
	if !ok { // combining (see clock.note)
		d = doing{customer: l.customer(s.Proc)}
	}
	l.steps = append(l.steps, Step{CPU: s.CPU, Start: start, End: end, Machine: d.machine, Customer: d.customer - l.first + 1})
}
