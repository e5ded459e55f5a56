package results

import "fmt"

// SteadyGrowth is how many requests an open loop's queue may gain or lose
// over its window, as a fraction of the window's arrivals, and at least
// SteadyMinGrowth, before the point is not in its steady state: well above
// the wander of a steady queue's length, a few times its mean at high
// utilization, and well below the growth of a queue that the arrivals
// outrun by 5 %.
const (
	SteadyGrowth    = 0.05
	SteadyMinGrowth = 10
)

// QueueSteady reports whether an open loop whose queue grew by growth
// (shrank, if negative) over a window of arrived arrivals held steady.
func QueueSteady(growth, arrived int) bool {
	return max(growth, -growth) <= max(SteadyMinGrowth, int(SteadyGrowth*float64(arrived)))
}

// boundNotes are what a model point's row says beside its numbers where
// they are not those of a steady state, or pass a bound: an open loop
// whose queue grew or shrank through its window; a throughput above the
// arrivals' rate (Poisson arrivals came faster in this window) or above
// the CPU bound (the steps' random times came out below their means, or,
// with steps ended on the clock, a step that waited for a CPU burned less
// than its time).
func boundNotes(p Point) []string {
	b := p.Bounds
	if b == nil || !p.IsModel() {
		return nil
	}
	var n []string
	if p.Rate > 0 && b.Arrived > 0 && !QueueSteady(b.Growth, b.Arrived) {
		n = append(n, fmt.Sprintf("not steady: the queue grew by %d over the window (%.0f %% of its arrivals); its latencies depend on --dur", b.Growth, 100*float64(b.Growth)/float64(b.Arrived)))
	}
	const edge = 1.005 // a window's edges cut an operation or two
	if p.Rate > 0 && p.Throughput > edge*p.Rate && b.Arrived > 0 && p.DurS > 0 {
		n = append(n, fmt.Sprintf("above the arrival rate: %.0f a second arrived in this window", float64(b.Arrived)/p.DurS))
	}
	if lim := b.ThroughputMax; lim > 0 && b.Limit != "arrivals" && p.Throughput > edge*lim {
		why := "the steps' random times came out below their means"
		if p.Burn == "wall" && b.Limit == "cpus" {
			why = "steps end on the clock (--burn wall), and one that waits for a CPU burns less than its time"
		}
		n = append(n, fmt.Sprintf("above its bound (%s): %s", FormatBound(b), why))
	}
	return n
}
