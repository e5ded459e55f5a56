// Package harness answers how fast an operation runs under a load: it
// drives any operation under a results.Load and measures the throughput,
// the full latency distribution and the CPU the process used.
//
// Load comes in two shapes. A closed loop has Par goroutines that each run
// the operation again as soon as the last one returned, like customers who
// order their next coffee the moment they are served. An open loop has
// arrivals at a fixed Rate into a queue of at most MaxQ waiting orders,
// served by Par goroutines; an arrival that finds the queue full is
// dropped and counted. Open-loop latency runs from the arrival's intended
// time, not from when a worker picked it up, so time spent queueing (or time
// the harness itself fell behind) is counted rather than omitted.
//
// Each run has an uncounted warm-up followed by the measured window. An
// operation counts when it completes inside the window; counting completions
// rather than starts keeps throughput unbiased at both edges.
//
// The hot path of a closed loop is one monotonic clock read and one
// histogram increment per operation, all in the worker's own memory: there
// is no generator goroutine, no channel and no shared aggregator to contend
// on, so the harness itself stays out of the way of what it measures.
package harness
