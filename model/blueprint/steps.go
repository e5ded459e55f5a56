package blueprint

import (
	"time"

	"github.com/brewput/brewput/model/sim"
)

// An Order runs a process's orders through a blueprint of steps and
// groups as a process that runs as steps (sim.Sim.GoSteps), under fifo:
// call for call what the nodes' run methods do, but waiting by returning,
// so that the engine switches to no coroutine. The order is compiled to
// code, each step's and group's run spelled out one instruction a part.
type Order struct {
	w    *world
	code []instr
	pc   int
	// take's place in a usage's resources, and the copy p waits for
	// and when it asked (nil where none).
	next  int
	in    *instance
	asked time.Duration
	d     time.Duration // the step's drawn time
	held  []hold        // the usages held, innermost last
}

// hold is what p had burned, and when, once a usage's resources were
// taken, for their release to credit.
type hold struct{ burned, got time.Duration }

type instr struct {
	op    opcode
	node  node // opTurn's
	every int
	skip  int // opTurn's: where its node's code ends
	st    *step
	u     *usage
}

type opcode uint8

const (
	opTurn   opcode = iota // a node run every few times: skip it unless its turn
	opDraw                 // a step's time
	opTake                 // a usage's resources, in order
	opBurn                 // a step's burn or sleep
	opBurned               // the burn's end
	opLet                  // a usage's resources let go, in reverse
)

// compile appends node n's code, or reports that an Order cannot run it:
// a parallel's or a pipeline's processes, or a resource whose wait is not
// a mutex's (steps wait by sim.Mutex.LockOrWait alone).
func (b *Blueprint) compile(n node, code []instr) ([]instr, bool) {
	start := len(code)
	var every int
	switch n := n.(type) {
	case *step:
		if every = n.every; every > 1 {
			code = append(code, instr{op: opTurn, node: n, every: every})
		}
		code = append(code, instr{op: opDraw, st: n}, instr{op: opTake, u: &n.usage}, instr{op: opBurn, st: n},
			instr{op: opBurned, st: n}, instr{op: opLet, u: &n.usage})
		if !b.mutexesOnly(&n.usage) {
			return code, false
		}
	case *group:
		if every = n.every; every > 1 {
			code = append(code, instr{op: opTurn, node: n, every: every})
		}
		code = append(code, instr{op: opTake, u: &n.usage})
		for _, it := range n.items {
			var ok bool
			if code, ok = b.compile(it, code); !ok {
				return code, false
			}
		}
		code = append(code, instr{op: opLet, u: &n.usage})
		if !b.mutexesOnly(&n.usage) {
			return code, false
		}
	default:
		return code, false
	}
	if every > 1 {
		code[start].skip = len(code)
	}
	return code, true
}

// mutexesOnly reports whether every resource u holds is a mutex or
// unguarded, as newInstance makes them: the waits a step can make.
func (b *Blueprint) mutexesOnly(u *usage) bool {
	for _, i := range u.taken() {
		r := b.sharded(b.Resources[i])
		switch n := b.capacity(r); {
		case r.Kind == Unguarded:
		case r.Pooled || r.Kind == RWMutex || r.Kind == Runtime || r.Kind == Word:
			return false
		case !r.Locks && n > 1:
			return false // units handed over a channel
		}
	}
	return true
}

// Run runs the order on, from where p last waited, and reports whether it
// is done; else p waits, and its next step runs it on. Once done, the next
// Run starts another order.
func (o *Order) Run(p *sim.Proc) bool {
	w := o.w
	for o.pc < len(o.code) {
		in := &o.code[o.pc]
		o.pc++
		switch in.op {
		case opTurn:
			if !w.turn(in.node, p, in.every) {
				o.pc = in.skip
			}
		case opDraw:
			// Drawn before waiting for the resources, as step.run draws.
			st := in.st
			o.d = st.d.draw(w.s.Rand())
			if f := w.scale[st.id]; f > 0 {
				o.d = w.scaled(st, o.d, f)
			}
		case opTake:
			if !o.take(p, in.u) {
				o.pc--
				return false
			}
			o.held = append(o.held, hold{burned: p.Burned(), got: p.Now()})
		case opBurn:
			switch {
			case !in.st.cpu:
				o.pc++ // a sleep has no end to see to
				p.After(o.d)
				return false
			case o.d > 0:
				w.cpus.StartBurn(p, o.d)
				return false
			}
			o.pc++ // no time, no burn
		case opBurned:
			w.cpus.EndBurn(p, o.d)
		case opLet:
			h := o.held[len(o.held)-1]
			o.held = o.held[:len(o.held)-1]
			in.u.release(w, p, h.burned, h.got)
		}
	}
	o.pc = 0
	return true
}

// take takes u's resources in order from the next, as usage.acquire
// does, and reports whether it took them all; else p waits in line for a
// mutex, and holds it when take is called again.
func (o *Order) take(p *sim.Proc, u *usage) bool {
	w := o.w
	for ; o.next < len(u.holds)+len(u.shares); o.next++ {
		var pl *pool
		if o.next < len(u.holds) {
			pl = w.pools[u.holds[o.next]]
		} else {
			pl = w.pools[u.shares[o.next-len(u.holds)]]
		}
		if o.in != nil { // the mutex waited for, now held
			pl.took(p, o.in, o.asked)
			o.in = nil
			continue
		}
		asked := p.Now()
		in := pl.pick(p)
		if in.mu != nil && !in.mu.LockOrWait(p) {
			o.in, o.asked = in, asked
			return false
		}
		pl.took(p, in, asked)
	}
	o.next = 0
	for _, r := range u.reads {
		w.pools[r].touch(p, false)
	}
	for _, r := range u.writes {
		w.pools[r].touch(p, true)
	}
	return true
}
