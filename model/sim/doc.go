// Package sim is a discrete-event simulation engine in virtual time: the
// foundation of brewput's models, which predict what a shop's structure does
// on more CPUs than the machine at hand has.
//
// A model is written as straight-line Go code, so that it reads like the
// real mode it mirrors. Each process is an ordinary function that takes a
// *Proc and calls blocking operations on it — burn a CPU for a while
// ([CPUs.Burn]), take a lock ([Mutex.Lock]), send on a channel ([Chan.Send]),
// sleep ([Proc.Sleep]):
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
// Processes run as coroutines (iter.Pull). The engine keeps a heap of
// events ordered by virtual time and, among events at the same time, by the
// order they were scheduled (first come, first served), so a run is
// deterministic: the same model with the same seed gives the same result.
// The engine pops the next event, sets the clock to its time and resumes the
// process it belongs to, which runs until it blocks again. The engine runs
// on the goroutine of the process that blocks, which switches straight to
// the next process: one coroutine switch per event, none when the next
// event is its own. Only one process
// runs at a time, so nothing in the engine or in a model needs a lock; in
// exchange, a *Sim and everything made from it must be used from one
// goroutine (the one calling Run) and from its processes.
//
// Code between two blocking operations takes no virtual time: only
// [CPUs.Burn] and [Proc.Sleep] advance a process's clock, and waiting for a
// lock, a channel or a CPU takes as long as the others make it.
//
// The CPUs come in two scheduling policies. [NewCPUs] gives the fifo
// policy: a ready burn takes the first free CPU, burns waiting for a CPU are
// served first come, first served, and handing a CPU, a lock or a channel
// value to a waiting process costs nothing — the idealized machine that
// reproduces analytic results exactly. [NewGoCPUs] gives the go policy,
// what the Go runtime does: every process is a goroutine that needs a P to
// run at all, readied goroutines take the runnext slot of the readier's P,
// idle Ps steal and must first be woken, goroutines keep their P until
// sysmon finds their 10 ms time slice over at one of its ticks, mutexes
// barge and starve as sync.Mutex does, and the
// runtime's own work costs what [Costs] says (measured by brewput
// calibrate). Models are written once and run under either.
//
// [Sim.Run] ends a simulation: it runs every event up to a virtual time and
// then unwinds every process that is still blocked, running its deferred
// calls, so that no coroutine is left behind. A process function that
// panics stops the simulation and the panic surfaces from Run as a
// [*ProcessPanic], with the process's stack.
//
// The steady state allocates nothing: the event heap holds values, waiter
// queues are reused ring buffers, and no closure is made per event.
package sim
