// Package sim is a discrete-event simulation engine in virtual time, the
// foundation of brewput's models: they predict what a shop's structure does
// on more CPUs than the machine at hand has.
//
// A model is straight-line Go code that reads like the mode it mirrors. Each
// process is a function of a *Proc that calls blocking operations on it:
// burn a CPU ([CPUs.Burn]), take a lock ([Mutex.Lock]), send on a channel
// ([Chan.Send]), sleep ([Proc.Sleep]):
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
// Processes are coroutines (iter.Pull). Events are ordered by virtual time
// and, at equal times, first come, first served, so the same model and seed
// give the same run. A process that blocks runs the engine itself and
// switches straight to the next event's process: one coroutine switch per
// event. Only one process runs at a time, so nothing needs a lock; in
// exchange a *Sim and everything made from it belong to the goroutine
// calling Run and to its processes.
//
// Only [CPUs.Burn] and [Proc.Sleep] take virtual time; waiting for a lock, a
// channel or a CPU takes as long as the others make it.
//
// [NewCPUs] gives the fifo policy: burns take the first free CPU, waiters
// are served in order, and handoffs cost nothing — the idealized machine
// that reproduces analytic results exactly. [NewGoCPUs] gives the go
// policy, what the Go runtime does: Ps, runnext, stealing, sysmon's time
// slices, sync.Mutex's barging and starvation, and the runtime's own work
// at the [Costs] brewput calibrate measures. Models run under either.
//
// [Sim.Run] runs the events up to a virtual time, then unwinds every
// blocked process, running its deferred calls. A process that panics stops
// the simulation; Run panics with a [*ProcessPanic] holding its stack.
//
// The steady state allocates nothing: the event heap holds values, waiter
// queues are reused rings, and no closure is made per event.
package sim
