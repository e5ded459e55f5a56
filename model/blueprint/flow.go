package blueprint

import (
	"time"

	"github.com/brewput/brewput/model/sim"
)

// node is an item of an order's steps, immutable; run executes it.
type node interface {
	run(w *world, p *sim.Proc)
}

// step holds its resources, burns (or waits) its duration, lets go.
type step struct {
	what   string // how errors name it: step "grind", stage "grind"
	name   string
	line   int
	d      dist
	holds  []int // resource indices, taken in this order
	shares []int // read-write mutexes held to read, after holds
	reads  []int // words read, then written, as the step starts
	writes []int
	every  int // runs on one order in every
	cpu    bool
	id     int // index in Blueprint.steps, and in a world's slices by step
}

func (st *step) run(w *world, p *sim.Proc) {
	if st.every > 1 && !w.turn(st, p, st.every) {
		return
	}
	// Drawn before waiting for the resources, as m.use(d()) draws, in
	// package model's order.
	d := st.d.draw(w.s.Rand())
	if f := w.scale[st.id]; f > 0 {
		d = w.scaled(st, d, f)
	}
	b0 := acquire(w, p, st.holds, st.shares)
	for _, r := range st.reads {
		w.pools[r].touch(p, false)
	}
	for _, r := range st.writes {
		w.pools[r].touch(p, true)
	}
	if st.cpu {
		w.cpus.Burn(p, d)
	} else {
		p.Sleep(d)
	}
	release(w, p, st.holds, st.shares, b0)
}

// scaled is d times f in whole nanoseconds. Under a microsecond, where
// the fraction cut off is a thousandth of the step or more, each run
// carries it to the step's next, so that a step of a few nanoseconds keeps
// its scaled mean.
func (w *world) scaled(st *step, d time.Duration, f float64) time.Duration {
	x := float64(d) * f
	out := time.Duration(x)
	if x < float64(time.Microsecond) {
		c := w.carry[st.id] + x - float64(out)
		if c >= 1 {
			out++
			c--
		}
		w.carry[st.id] = c
	}
	return out
}

// turn reports whether n's every-th run by p's customer has come: its
// 1st, 2nd, … run of n is its every-th, 2·every-th, …
func (w *world) turn(n node, p *sim.Proc, every int) bool {
	k := runKey{n, p.ID()}
	w.runs[k]++
	return w.runs[k]%every == 0
}

// runKey is an item run by a process, counted for every.
type runKey struct {
	n    node
	proc int
}

// acquire takes resources in order, returning what p had burned then.
func acquire(w *world, p *sim.Proc, holds, shares []int) time.Duration {
	for _, r := range holds {
		w.pools[r].acquire(p, false)
	}
	for _, r := range shares {
		w.pools[r].acquire(p, true)
	}
	return p.Burned()
}

// release lets go of resources in reverse, crediting what p burned.
func release(w *world, p *sim.Proc, holds, shares []int, burned0 time.Duration) {
	for i := len(shares) - 1; i >= 0; i-- {
		w.pools[shares[i]].release(p, p.Burned()-burned0, true)
	}
	for i := len(holds) - 1; i >= 0; i-- {
		w.pools[holds[i]].release(p, p.Burned()-burned0, false)
	}
}

// group runs its items in order, holding its resources throughout.
type group struct {
	what   string // how errors name it: group "make", group
	line   int
	items  []node
	holds  []int
	shares []int
	every  int
}

func (g *group) run(w *world, p *sim.Proc) {
	if g.every > 1 && !w.turn(g, p, g.every) {
		return
	}
	b0 := acquire(w, p, g.holds, g.shares)
	for _, it := range g.items {
		it.run(w, p)
	}
	release(w, p, g.holds, g.shares, b0)
}

// parallel runs its branches at once, the first on the caller's process.
type parallel struct {
	branches []node // at least two
}

func (pa *parallel) run(w *world, p *sim.Proc) {
	done := sim.NewChan[struct{}](w.s, len(pa.branches)-1)
	for _, b := range pa.branches[1:] {
		w.s.Go(func(q *sim.Proc) {
			b.run(w, q)
			done.Send(q, struct{}{})
		})
	}
	pa.branches[0].run(w, p)
	for range len(pa.branches) - 1 {
		done.Recv(p)
	}
}

// pipe is stages with their own processes, joined by channels.
type pipe struct {
	id     int // index in Blueprint.pipes and world.pipes
	stages []*stage
	lines  int  // copies of the stages sharing the entry channel
	detach bool // an order goes on once handed in, not waiting for the stages (wait: false)
}

// stage is a pipeline's step or group, worked by workers a line.
type stage struct {
	name    string
	body    node
	workers int
	buffer  int // room in the channel into this stage (the entry channel for the first)
	machine int // index of its meter in world.stages
}

// workers is st's workers a line, with b's additions.
func (b *Blueprint) workers(st *stage) int { return st.workers + b.Workers[st.name] }

// capacity is r's units, with b's additions.
func (b *Blueprint) capacity(r Resource) int { return r.Capacity + b.Units[r.Name] }

// buffer is the room in the channel into st, as b may set it.
func (b *Blueprint) buffer(st *stage) int {
	if n, ok := b.Buffers[st.name]; ok {
		return n
	}
	return st.buffer
}

// ticket is an order down a pipeline, and when it was handed on.
type ticket struct {
	done   *sim.Chan[struct{}]
	handed time.Duration
}

func (pp *pipe) run(w *world, p *sim.Proc) {
	pr := w.pipes[pp.id]
	if pp.detach {
		pr.in.Send(p, ticket{handed: p.Now()})
		return
	}
	var done *sim.Chan[struct{}]
	if n := len(pr.free); n > 0 { // a finished order's channel, so that an order allocates none
		done, pr.free = pr.free[n-1], pr.free[:n-1]
	} else {
		done = sim.NewChan[struct{}](w.s, 1)
	}
	pr.in.Send(p, ticket{done: done, handed: p.Now()})
	done.Recv(p)
	pr.free = append(pr.free, done)
}

// pipeRun is a running pipeline: its entry, and free done channels.
type pipeRun struct {
	in   *sim.Chan[ticket]
	free []*sim.Chan[struct{}]
}

// start makes the pipeline's channels and starts its stage processes.
func (pp *pipe) start(w *world) *pipeRun {
	pr := &pipeRun{in: sim.NewChan[ticket](w.s, w.b.buffer(pp.stages[0]))}
	for range pp.lines {
		in := pr.in
		for i, st := range pp.stages {
			var out *sim.Chan[ticket]
			if i+1 < len(pp.stages) {
				out = sim.NewChan[ticket](w.s, w.b.buffer(pp.stages[i+1]))
			}
			m, from := w.stages[st.machine], in // in changes below; the workers keep this stage's
			for range w.b.workers(st) {
				w.s.Go(func(q *sim.Proc) { st.work(w, q, m, from, out) })
			}
			in = out
		}
	}
	return pr
}

// work is a stage worker's loop, the stage held for each order.
func (st *stage) work(w *world, p *sim.Proc, m *meter, in, out *sim.Chan[ticket]) {
	for {
		t := in.Recv(p)
		m.take(p.Now(), p.Now()-t.handed)
		b0 := p.Burned()
		st.body.run(w, p)
		if out == nil {
			if t.done != nil {
				t.done.Send(p, struct{}{})
			}
		} else {
			t.handed = p.Now()
			out.Send(p, t)
		}
		m.give(p.Now(), p.Burned()-b0)
	}
}
