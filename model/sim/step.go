package sim

import (
	"runtime/debug"
	"time"
)

// GoSteps starts a process that runs as steps rather than as a coroutine:
// step runs now, after the events already due, and again each time the
// process resumes, in the engine's own loop, with no switch to a
// goroutine of its own. Under fifo only, a step never blocks: it waits by
// CPUs.StartBurn, Mutex.LockOrWait or Proc.After and returns, and the
// process's next step runs once the wait is over. The process finishes
// when a step returns without waiting. Stop has nothing of it to unwind.
func (s *Sim) GoSteps(step func(p *Proc)) {
	switch {
	case s.stopped || s.stopping:
		panic("sim: GoSteps after the simulation was stopped")
	case s.sched != nil:
		panic("sim: GoSteps under the go policy")
	}
	p := &Proc{sim: s, id: s.nextID, live: -1, cpu: -1, step: step}
	s.nextID++
	s.wake(p)
}

// After is Sleep for a process that runs as steps: its next step runs d
// from now (d <= 0: after the events already due).
func (p *Proc) After(d time.Duration) {
	if p.step == nil {
		panic("sim: After is for a process that runs as steps")
	}
	p.sim.schedule(p, p.sim.now+max(d, 0))
}

// runStep runs p's step, keeping a panic as a coroutine's is kept, for
// RunUntil to raise.
func (s *Sim) runStep(p *Proc) {
	s.running = p
	defer func() {
		s.running = nil
		if r := recover(); r != nil {
			p.failure = &ProcessPanic{Process: p.id, At: s.now, Value: r, Stack: debug.Stack()}
			s.failure = p.failure
		}
	}()
	p.step(p)
}
