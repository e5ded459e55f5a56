// Package profile records what a measured window did and answers where
// its goroutines waited.
//
// Start, at the window's start, begins an execution trace and a CPU
// profile and turns on block and mutex profiling; Stop writes BASE.trace,
// BASE.cpu.pprof, BASE.block.pprof and BASE.mutex.pprof (for go tool trace
// and go tool pprof), the block and mutex profiles less what they held at
// Start, so that they cover the window alone.
//
// Summarize reads a block profile and says, per place in the code and
// kind of wait (mutex, channel, select, …), how many times goroutines
// waited there, for how long in all and per operation. The block profile
// records every park on a lock, channel, select, sync.Cond or WaitGroup,
// from parking until woken, summed over goroutines (so a total can exceed
// the window); it leaves out the wait for a CPU after waking, spinning,
// sleep and system calls, which the trace and a machine's meter show.
// Profiling costs something: compare points measured the same way.
package profile
