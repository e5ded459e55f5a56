package results

// Bottleneck is what limits a point's throughput: the resource closest to
// being used all the time, how much of the time it was, and the
// throughput it allows.
type Bottleneck struct {
	// Resource is "cpus", a shared resource's name as in Machines but for
	// its kind ("grinder" for grinder#1 and grinder#2, used as a pool), or,
	// when nothing is saturated, what the load limits: "customers" (a
	// closed loop) or "arrivals" (an open loop that keeps up).
	Resource string `json:"resource"`
	// Utilization is the fraction of the time the resource was in use (for
	// a pool, the mean over its copies; for the CPUs, the process's CPU
	// time over the CPUs' time); for customers or arrivals, the point's
	// throughput over the bound they set.
	Utilization float64 `json:"utilization"`
	// Bound is the throughput the resource allows, in the point's Unit:
	// the throughput it would reach with the resource used all the time
	// (throughput ÷ utilization), or the model's analytic bound where it
	// has one for the resource. 0 when it cannot be told.
	Bound float64 `json:"bound"`
	// Text says it in words, with the advice that follows.
	Text string `json:"text"`
}
