// Package harness drives an operation under a results.Load and measures
// its throughput, full latency distribution and the process's CPU.
//
// A closed loop has Par goroutines that each rerun the operation as soon
// as it returns, as customers who order the moment they are served. An
// open loop has arrivals at Rate into a queue of at most MaxQ, served by
// Par goroutines; an arrival finding it full is dropped and counted, and
// latency runs from the intended arrival, so queueing (and the harness
// falling behind) is counted, not omitted.
//
// An uncounted warm-up precedes the window; an operation counts where it
// completes inside it. A closed loop's hot path is one clock read and one
// histogram increment in the worker's own memory.
package harness
