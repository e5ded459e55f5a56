package blueprint

import (
	"fmt"
	"math"
	"time"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
)

// Config is b on cpus CPUs under the go policy, 1 s after 100 ms, seed 1.
func (b *Blueprint) Config(cpus int) model.Config {
	return model.Config{System: b, Spec: results.Spec{Mode: b.Name, CPUs: cpus,
		Load: results.Load{Warmup: 100 * time.Millisecond, Dur: time.Second}, Policy: results.Policy{Seed: 1}}}
}

// Words reports whether b has a word that cores add to, whose cache line
// a band spans staying at a core for none to all of its move
// (model.WordSystem): a {kind: word} resource or a read-write lock's
// reader count.
func (b *Blueprint) Words() bool {
	for _, r := range b.Used() {
		if r.Kind == Word || r.Kind == RWMutex {
			return true
		}
	}
	return false
}

// Title is the blueprint's name and what its orders are called.
func (b *Blueprint) Title() (name, unit string) { return b.Name, b.Unit }

// LoadAt is cfg's Par and Rate where set, else the file's, with its queue.
func (b *Blueprint) LoadAt(cfg model.Config) (results.Load, bool) {
	l := cfg.Load
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
		l.Par = cfg.CPUs
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
}

// Build builds b in s; its meters are the resources, then the stages.
func (b *Blueprint) Build(s *sim.Sim, cpus *sim.CPUs, cfg model.Config) (func(*sim.Proc), func() []model.Reading) {
	w := &world{b: b, s: s, cpus: cpus, runs: map[runKey]int{},
		scale: make([]float64, len(b.steps)), carry: make([]float64, len(b.steps))}
	for _, st := range b.steps {
		w.scale[st.id] = b.Scale[st.name]
	}
	w.pools = make([]*pool, len(b.Resources)) // nil where unused: nobody takes it
	for _, i := range b.used {
		r := b.sharded(b.Resources[i])
		unit, copies := b.capacity(r), 1
		switch r.Per {
		case PerCPU:
			copies = cpus.N()
		case PerCustomer:
			l, _ := b.LoadAt(cfg)
			copies = max(1, l.Par)
		}
		pl := newPool(s, &meter{name: r.Name, kind: r.readingKind(), capacity: unit * copies}, r, unit, cpus.N(), b.LineScale[r.Name])
		if r.Hashed {
			pl.drawn = draws(cpus.N(), cfg.Policy.Seed, cfg.Draw)
		}
		w.pools[i] = pl
	}
	for _, pp := range b.pipes {
		for _, st := range pp.stages {
			w.stages = append(w.stages, &meter{name: st.name, capacity: b.workers(st) * pp.lines})
		}
	}
	for _, pp := range b.pipes {
		w.pipes = append(w.pipes, pp.start(w))
	}
	meters := make([]*meter, 0, len(w.pools)+len(w.stages))
	for _, pl := range w.pools {
		if pl != nil {
			meters = append(meters, pl.meter)
		}
	}
	meters = append(meters, w.stages...)
	read := func() []model.Reading {
		out := make([]model.Reading, len(meters))
		for i, m := range meters {
			out[i] = m.read(s.Now())
		}
		return out
	}
	return func(p *sim.Proc) { b.flow.run(w, p) }, read
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
