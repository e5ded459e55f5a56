// Package sim is a discrete-event simulation engine in virtual time, on
// which brewput's models predict what a structure does on more CPUs than
// the machine at hand has. A model is straight-line Go code that reads like
// the mode it mirrors, each process a function of a *Proc:
//
//	s := sim.New(1)
//	cpus := sim.NewCPUs(s, 6)
//	grinder := sim.NewMutex(s, "grinder")
//	s.Go(func(p *sim.Proc) {
//		for {
//			grinder.Lock(p)
//			cpus.Burn(p, time.Millisecond)
//			grinder.Unlock(p)
//		}
//	})
//	s.Run(time.Second)
//
// Processes are coroutines (iter.Pull), run one at a time, so nothing needs
// a lock; a *Sim belongs to the goroutine calling Run and its processes.
// Under fifo a process may instead run as steps ([Sim.GoSteps]), callbacks
// that wait by returning, which the engine calls without a switch.
// Events run in order of virtual time, equal times first come, first
// served: the same model and seed give the same run. Only [CPUs.Burn] and
// [Proc.Sleep] take virtual time; a wait takes as long as others make it.
//
// [NewCPUs] gives the fifo policy, the idealized machine that reproduces
// analytic results exactly: waiters served in order, free handoffs.
// [NewGoCPUs] gives the go policy, the Go runtime's scheduler and
// sync.Mutex, with the runtime's work at the [Costs] brewput calibrate
// measures. Models run under either.
//
// [Sim.Run] ends by unwinding every blocked process, running its deferred
// calls; a process's panic surfaces as a [*ProcessPanic]. The steady state
// allocates nothing.
package sim
