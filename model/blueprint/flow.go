package blueprint

import (
	"time"

	"github.com/brewput/brewput/model/sim"
)

// node is one item of an order's steps: a step, a group, a parallel or a
// pipeline. A node is immutable once parsed; run executes it on process p
// against one simulation's state w, so that one Blueprint can be run many
// times.
type node interface {
	run(w *world, p *sim.Proc)
}

// step is the unit of work: it holds its resources, takes its duration on a
// CPU (or waiting, without one), and lets go.
type step struct {
	what  string // how errors name it: step "grind", stage "grind"
	name  string
	line  int
	d     dist
	holds []int // resource indices, taken in this order
	cpu   bool
}

func (st *step) run(w *world, p *sim.Proc) {
	// Drawn before waiting for the resources, as Go code's m.use(d())
	// evaluates the duration before use locks: so the draws come in the
	// same order as package model's.
	d := st.d.draw(w.s.Rand())
	if f, ok := w.opt.Scale[st.name]; ok {
		d = time.Duration(float64(d) * f)
	}
	b0 := acquire(w, p, st.holds)
	if st.cpu {
		w.cpus.Burn(p, d)
	} else {
		p.Sleep(d)
	}
	release(w, p, st.holds, b0)
}

// acquire takes resources in order, and returns the CPU time p had burned
// when it had them all.
func acquire(w *world, p *sim.Proc, holds []int) time.Duration {
	for _, r := range holds {
		w.pools[r].acquire(p)
	}
	return p.Burned()
}

// release lets go of held resources in the reverse of the order they were
// taken, as deferred unlocks would, crediting them with the CPU time p
// burned since burned0, when it had them all.
func release(w *world, p *sim.Proc, holds []int, burned0 time.Duration) {
	for i := len(holds) - 1; i >= 0; i-- {
		w.pools[holds[i]].release(p, p.Burned()-burned0)
	}
}

// group runs its items in order, holding its resources from before the
// first to after the last: a barista for the whole drink.
type group struct {
	what  string // how errors name it: group "make", group
	line  int
	items []node
	holds []int
}

func (g *group) run(w *world, p *sim.Proc) {
	b0 := acquire(w, p, g.holds)
	for _, it := range g.items {
		it.run(w, p)
	}
	release(w, p, g.holds, b0)
}

// parallel runs its branches at once and goes on when all are done. As in
// Go code that starts a goroutine per extra branch, the first branch runs
// on the calling process and each other on a process of its own, which
// reports to the caller on a channel when done.
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

// pipe is a pipeline: stages, each worked by its own processes, joined by
// channels. An order is handed to the first stage and the caller waits for
// the last stage to finish it, as coffee's linearpipe customers do.
type pipe struct {
	id     int // index in Blueprint.pipes and world.pipes
	stages []*stage
	lines  int // copies of the stages sharing the entry channel
}

// stage is one step (or group) of a pipeline, worked by workers processes
// per line, each taking orders from the stage's input channel.
type stage struct {
	name    string
	body    node
	workers int
	buffer  int // room in the channel into this stage (the entry channel for the first)
	machine int // index of its meter in world.stages
}

// workersAt is the stage's workers a line, with opt's additions.
func (st *stage) workersAt(opt Options) int { return st.workers + opt.Workers[st.name] }

// bufferAt is the room in the channel into the stage, as opt may set it.
func (st *stage) bufferAt(opt Options) int {
	if n, ok := opt.Buffers[st.name]; ok {
		return n
	}
	return st.buffer
}

// ticket is an order travelling down a pipeline: where to report when it
// is done, and when it was handed to the current stage, to meter how long
// it waited for a worker.
type ticket struct {
	done   *sim.Chan[struct{}]
	handed time.Duration
}

func (pp *pipe) run(w *world, p *sim.Proc) {
	pr := w.pipes[pp.id]
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

// pipeRun is one simulation's running pipeline: its entry channel and
// the channels of orders' completions not in use.
type pipeRun struct {
	in   *sim.Chan[ticket]
	free []*sim.Chan[struct{}]
}

// start makes the pipeline's channels and starts its stage processes.
func (pp *pipe) start(w *world) *pipeRun {
	pr := &pipeRun{in: sim.NewChan[ticket](w.s, pp.stages[0].bufferAt(w.opt))}
	for range pp.lines {
		in := pr.in
		for i, st := range pp.stages {
			var out *sim.Chan[ticket]
			if i+1 < len(pp.stages) {
				out = sim.NewChan[ticket](w.s, pp.stages[i+1].bufferAt(w.opt))
			}
			m, from := w.stages[st.machine], in // in changes below; the workers keep this stage's
			for range st.workersAt(w.opt) {
				w.s.Go(func(q *sim.Proc) { st.work(w, q, m, from, out) })
			}
			in = out
		}
	}
	return pr
}

// work is a stage worker's loop: take an order, do the stage, pass the
// order on, or at the end of the line tell its customer it is ready. The
// stage is held from taking the order to having passed it on, as package
// model's stages are.
func (st *stage) work(w *world, p *sim.Proc, m *meter, in, out *sim.Chan[ticket]) {
	for {
		t := in.Recv(p)
		m.take(p.Now(), p.Now()-t.handed)
		b0 := p.Burned()
		st.body.run(w, p)
		if out == nil {
			t.done.Send(p, struct{}{})
		} else {
			t.handed = p.Now()
			out.Send(p, t)
		}
		m.give(p.Now(), p.Burned()-b0)
	}
}
