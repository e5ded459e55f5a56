package blueprint

import (
	"fmt"
	"math"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
)

// Words reports whether b has a word that cores add to: a {kind: word}
// resource or a read-write lock's reader count.
func (b *Blueprint) Words() bool {
	for _, r := range b.Used() {
		if r.Kind == Word || r.Kind == RWMutex {
			return true
		}
	}
	return false
}

// LoadAt is l's Par and Rate where set, else the file's (customers or
// servers, one per CPU where it says none), with its queue, and whether
// arrivals come at Poisson gaps.
func (b *Blueprint) LoadAt(l results.Load, cpus int) (results.Load, bool) {
	if l.Rate <= 0 {
		l.Rate = b.Load.Rate
	}
	switch {
	case l.Par > 0:
	case l.Rate > 0 && b.Load.Servers > 0:
		l.Par = b.Load.Servers
	case l.Rate == 0 && b.Load.Customers > 0:
		l.Par = b.Load.Customers
	default:
		l.Par = cpus
	}
	l.MaxQ = b.Load.Queue
	return l, b.Load.Arrivals == Poisson
}

// check rejects fields changed into what cannot run.
func (b *Blueprint) check() error {
	if b.flow == nil {
		return fmt.Errorf("blueprint: not parsed: make one with Load or Parse")
	}
	if n := b.nres; len(b.Resources) != n {
		return fmt.Errorf("%s: %d resources, but the file declares %d: steps refer to resources by position, so change their capacities only", b.File, len(b.Resources), n)
	}
	for _, r := range b.Used() {
		if n := b.capacity(r); n < 1 {
			return fmt.Errorf("%s: resource %q: capacity %d: want a whole number, 1 or more", b.File, r.Name, n)
		}
	}
	l := b.Load
	switch {
	case l.Customers < 0:
		return fmt.Errorf("%s: load: customers %d: want 0 (one per CPU) or more", b.File, l.Customers)
	case !(l.Rate >= 0) || math.IsInf(l.Rate, 1):
		return fmt.Errorf("%s: load: rate %v: want a positive number of orders per second, or 0 for a closed loop", b.File, l.Rate)
	case l.Servers < 0:
		return fmt.Errorf("%s: load: servers %d: want 0 (one per CPU) or more", b.File, l.Servers)
	case l.Queue < 0:
		return fmt.Errorf("%s: load: queue %d: want 0 or more", b.File, l.Queue)
	case l.Arrivals != Even && l.Arrivals != Poisson:
		return fmt.Errorf("%s: load: arrivals %q: want even or poisson", b.File, l.Arrivals)
	}
	return b.checkReliefs()
}

// Run is what one simulation of a blueprint needs besides it.
type Run struct {
	Customers int // the load's customers (or servers): a copy each where a resource is per customer
	// Seed is the simulation's, Draw the start state whose draw of a
	// hashed resource's copies it takes (see draws).
	Seed, Draw uint64
	Trace      Tracer // hears what each step runs on, where not nil
}

// Tracer hears, for a schedule, which machine a process's next burn is a
// step on, and for whose order.
type Tracer interface {
	Step(p *sim.Proc, machine string, customer int)
	Done(p *sim.Proc)
	OnBehalf(helper *sim.Proc, customer int)
}

// world is one simulation of a blueprint, which the nodes act on.
type world struct {
	b      *Blueprint
	s      *sim.Sim
	cpus   *sim.CPUs
	pools  []*pool    // by resource index
	stages []*meter   // by stage index
	pipes  []*pipeRun // by pipeline id
	runs   map[runKey]int
	// By step id: Scale's factor (0 for none), looked up once rather than
	// by name at every run, and what scaled held back (see scaled).
	scale, carry []float64
	trace        Tracer
	// machines are a shop's stages' workers' meters, each its own, as
	// made; crew counts each kind's, for their names.
	machines []*meter
	crew     map[string]int
}

// machine is the meter of one more worker of stage name, of n in all
// (grinder, or grinder#1, grinder#2, … as coffee names them).
func (w *world) machine(name string, n int) *meter {
	if n > 1 {
		w.crew[name]++
		name = fmt.Sprintf("%s#%d", name, w.crew[name])
	}
	m := &meter{name: name, capacity: 1, whole: true}
	w.machines = append(w.machines, m)
	return m
}

// Build builds b in s for run r: what runs one order, the meters'
// readings, the resources' then the stages', and, where b's orders can
// run as steps under fifo (see Order) and r has no trace, a new Order for
// each process to run them with, else nil.
func (b *Blueprint) Build(s *sim.Sim, cpus *sim.CPUs, r Run) (func(*sim.Proc), func() []Reading, func() *Order) {
	w := &world{b: b, s: s, cpus: cpus, runs: map[runKey]int{}, trace: r.Trace, crew: map[string]int{},
		scale: make([]float64, len(b.steps)), carry: make([]float64, len(b.steps))}
	for _, st := range b.steps {
		w.scale[st.id] = b.Scale[st.name]
	}
	w.pools = make([]*pool, len(b.Resources)) // nil where unused: nobody takes it
	var meters []*meter
	for _, i := range b.used {
		res := b.sharded(b.Resources[i])
		unit, copies := b.capacity(res), 1
		switch res.Per {
		case PerCPU:
			copies = cpus.N()
		case PerCustomer:
			copies = max(1, r.Customers)
		}
		pl := newPool(s, &meter{name: res.Name, kind: res.readingKind(), capacity: unit * copies, whole: res.Noun != ""},
			res, unit, cpus.N(), b.LineScale[res.Name])
		if res.Hashed {
			pl.drawn = draws(cpus.N(), r.Seed, r.Draw)
		}
		w.pools[i] = pl
		if pl.units != nil {
			meters = append(meters, pl.units...)
		} else {
			meters = append(meters, pl.meter)
		}
	}
	for _, pp := range b.pipes {
		for _, st := range pp.stages {
			w.stages = append(w.stages, &meter{name: st.name, capacity: b.workers(st) * pp.lines})
		}
	}
	for _, pp := range b.pipes {
		w.pipes = append(w.pipes, pp.start(w))
	}
	if w.machines != nil {
		meters = append(meters, w.machines...)
	} else {
		meters = append(meters, w.stages...)
	}
	read := func() []Reading { return collect.Mapped(meters, func(m *meter) Reading { return m.read(s.Now()) }) }
	var order func() *Order
	if code, ok := b.compile(b.flow, nil); ok && r.Trace == nil {
		order = func() *Order { return &Order{w: w, code: code} }
	}
	return func(p *sim.Proc) { b.flow.run(w, p) }, read, order
}

// sharded is r as Shards has it: a mutex or an RWMutex split into shards,
// or a word with a copy on each CPU.
func (b *Blueprint) sharded(r Resource) Resource {
	n := b.Shards[r.Name]
	if n <= 1 || r.Per != "" {
		return r
	}
	switch {
	case r.Kind == Word:
		r.Per = PerCPU
	case r.Kind == Mutex || r.Kind == "" || r.Kind == RWMutex:
		if r.Locks || r.Capacity == 1 {
			r.Locks, r.Capacity = true, r.Capacity*n
		}
	}
	return r
}
