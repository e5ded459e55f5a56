package blueprint

import (
	"time"

	"github.com/brewput/brewput/model/sim"
)

// node is an item of an order's steps, immutable; run executes it.
type node interface {
	run(w *world, p *sim.Proc)
}

// usage is what a step or a group holds and uses, and how often.
type usage struct {
	holds  []int // resource indices, taken in this order
	shares []int // read-write mutexes held to read, after holds
	reads  []int // words read, then written, as a step starts
	writes []int
	every  int // runs on one order in every
}

// taken are the resources u holds, in the order taken.
func (u *usage) taken() []int { return append(u.holds[:len(u.holds):len(u.holds)], u.shares...) }

// step holds its resources, burns (or waits) its duration, lets go.
type step struct {
	what string // how errors name it: step "grind", stage "grind"
	name string
	line int
	d    dist
	usage
	cpu    bool
	id     int // index in Blueprint.steps, and in a world's slices by step
	doing  string
	splits bool // see StepInfo
}

func (st *step) run(w *world, p *sim.Proc) {
	if st.every > 1 && !w.turn(st, p, st.every) {
		return
	}
	// Drawn before waiting for the resources, as coffee's m.use(d()) draws.
	d := st.d.draw(w.s.Rand())
	if f := w.scale[st.id]; f > 0 {
		d = w.scaled(st, d, f)
	}
	b0, got, at := st.acquire(w, p)
	if w.trace != nil && at != nil {
		w.trace.Step(p, at.name, p.ID())
	}
	if st.cpu {
		w.cpus.Burn(p, d)
	} else {
		p.Sleep(d)
	}
	if w.trace != nil && at != nil {
		w.trace.Done(p)
	}
	st.release(w, p, b0, got)
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

// acquire takes u's resources in order, then reads and writes its words,
// returning what p had burned then, when, and the meter of the first
// resource, where any: the machine a trace names.
func (u *usage) acquire(w *world, p *sim.Proc) (burned, got time.Duration, first *meter) {
	for _, r := range u.holds {
		m := w.pools[r].acquire(p, false)
		if first == nil {
			first = m
		}
	}
	for _, r := range u.shares {
		m := w.pools[r].acquire(p, true)
		if first == nil {
			first = m
		}
	}
	for _, r := range u.reads {
		w.pools[r].touch(p, false)
	}
	for _, r := range u.writes {
		w.pools[r].touch(p, true)
	}
	return p.Burned(), p.Now(), first
}

// release lets go of u's resources in reverse, crediting what p burned
// since got.
func (u *usage) release(w *world, p *sim.Proc, burned0, got time.Duration) {
	for i := len(u.shares) - 1; i >= 0; i-- {
		w.pools[u.shares[i]].release(p, p.Burned()-burned0, true, got)
	}
	for i := len(u.holds) - 1; i >= 0; i-- {
		w.pools[u.holds[i]].release(p, p.Burned()-burned0, false, got)
	}
}

// group runs its items in order, holding its resources throughout.
type group struct {
	what  string // how errors name it: group "make", group
	line  int
	items []node
	usage
}

func (g *group) run(w *world, p *sim.Proc) {
	if g.every > 1 && !w.turn(g, p, g.every) {
		return
	}
	b0, got, _ := g.acquire(w, p)
	for _, it := range g.items {
		it.run(w, p)
	}
	g.release(w, p, b0, got)
}

// parallel runs its branches at once, the first on the caller's process.
type parallel struct {
	branches []node // at least two
	// unbuffered: each other branch hands its end over, waiting for the
	// caller to take it, as parsteam's milk; else it goes at once.
	unbuffered bool
}

func (pa *parallel) run(w *world, p *sim.Proc) {
	room := len(pa.branches) - 1
	if pa.unbuffered {
		room = 0
	}
	done := sim.NewChan[struct{}](w.s, room)
	for _, b := range pa.branches[1:] {
		w.s.Go(func(q *sim.Proc) {
			if w.trace != nil {
				w.trace.OnBehalf(q, p.ID())
			}
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
	// forks are pipelines the order is handed to next, in turn, and
	// waited for as well (splitpipe's milk); none is a node of its own.
	forks []*pipe
}

// stage is a pipeline's step or group, worked by workers a line.
type stage struct {
	name    string
	body    node
	workers int
	buffer  int // room in the channel into this stage (the entry channel for the first)
	machine int // index of its meter in world.stages
	// noun and queue say it and its channel in words (StageInfo): a
	// stage of the shop, whose workers are each a machine metered alone.
	noun, queue string
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

// ticket is an order down a pipeline, and when it was handed on; its
// customer is the process that placed it, for a trace.
type ticket struct {
	done     *sim.Chan[struct{}]
	handed   time.Duration
	customer int
}

func (pp *pipe) run(w *world, p *sim.Proc) {
	pr := w.pipes[pp.id]
	if pp.detach {
		pr.in.Send(p, ticket{handed: p.Now(), customer: p.ID()})
		return
	}
	var done *sim.Chan[struct{}]
	if n := len(pr.free); n > 0 { // a finished order's channel, so that an order allocates none
		done, pr.free = pr.free[n-1], pr.free[:n-1]
	} else {
		done = sim.NewChan[struct{}](w.s, 1+len(pp.forks))
	}
	pr.in.Send(p, ticket{done: done, handed: p.Now(), customer: p.ID()})
	for _, f := range pp.forks {
		w.pipes[f.id].in.Send(p, ticket{done: done, handed: p.Now(), customer: p.ID()})
	}
	for range 1 + len(pp.forks) {
		done.Recv(p)
	}
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
			n := w.b.workers(st)
			for range n {
				wm := m
				if st.noun != "" { // a machine of its own each, as the shop's crew
					wm = w.machine(st.name, pp.lines*n)
				}
				w.s.Go(func(q *sim.Proc) { st.work(w, q, wm, from, out) })
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
		got := p.Now()
		m.take(got, got-t.handed)
		b0 := p.Burned()
		if w.trace != nil {
			w.trace.Step(p, m.name, t.customer)
		}
		st.body.run(w, p)
		if w.trace != nil {
			w.trace.Done(p)
		}
		if out == nil {
			if t.done != nil {
				t.done.Send(p, struct{}{})
			}
		} else {
			t.handed = p.Now()
			out.Send(p, t)
		}
		m.give(p.Now(), got, p.Burned()-b0)
	}
}
