// Package harness answers how fast an operation runs under a load: it
// drives any operation under a results.Load and measures the throughput,
// the full latency distribution and the CPU the process used.
//
// A closed loop has Par goroutines that each run the operation again as
// soon as it returns, like customers who order the moment they are served.
// An open loop has arrivals at a fixed Rate into a queue of at most MaxQ,
// served by Par goroutines; an arrival that finds it full is dropped and
// counted. Open-loop latency runs from the intended arrival, so queueing
// (and the harness falling behind) is counted, not omitted.
//
// An uncounted warm-up precedes the measured window. An operation counts
// when it completes inside the window, which keeps throughput unbiased at
// both edges.
//
// A closed loop's hot path is one clock read and one histogram increment
// per operation in the worker's own memory: no generator, channel or
// shared aggregator to contend on.
package harness
