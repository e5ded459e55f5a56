// Package profile records what a measured window did and summarizes where
// its goroutines waited.
//
// Start, at the window's start, begins an execution trace (runtime/trace)
// and a CPU profile and turns on block and mutex profiling; Stop, at its
// end, stops them and writes four files beside a base path:
//
//	BASE.trace        go tool trace BASE.trace
//	BASE.cpu.pprof    go tool pprof -top BASE.cpu.pprof
//	BASE.block.pprof  go tool pprof -top BASE.block.pprof
//	BASE.mutex.pprof  go tool pprof -top BASE.mutex.pprof
//
// The block and mutex profiles cover the window only: the runtime keeps
// them from the start of the process, so Start takes a snapshot of each
// and Stop subtracts it.
//
// Summarize reads a block profile and says, per place in the code and kind
// of wait (a mutex, a channel receive or send, a select...), how many times
// goroutines waited there and for how long in total and per operation, so
// that a user reads "customers waited 3.1 ms per latte on
// s.grinder.use(s.steps.grind())" without opening a tool.
//
// What the block profile counts: each time a goroutine parks waiting for a
// sync.Mutex or RWMutex, a channel operation, a select, a sync.Cond or a
// WaitGroup, the runtime records, when the wait ends, the goroutine's stack
// and how long it waited (every wait, as Start sets the rate to 1), from
// parking until another goroutine woke it: handed it the lock, the value
// or the room. Times are summed over goroutines: six customers waiting the
// same millisecond count six milliseconds, so a total can exceed the
// window's wall time. A wait that began before the window and ended in it
// counts whole; one still going at the end is not counted. Not in it: the
// time a woken goroutine then waits for a CPU (with more goroutines than
// CPUs, often most of the delay a customer sees), spinning on a lock
// before parking, sleeping and system calls; the execution trace shows
// those, and a coffee machine's own meter, which times from asking to
// having, includes them.
//
// Profiling costs something: each recorded wait takes a stack, and the
// trace records every scheduling event. Compare points measured the same
// way, with or without profiles.
package profile
