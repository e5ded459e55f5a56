package results

import "time"

// Measuring is what a sweep is about to measure: Left of Total points,
// Done of them before (a run resumed), taking About on a quiet machine and
// up to Most where every point is measured again (0: none is).
type Measuring struct {
	Done, Left, Total int
	About, Most       time.Duration
}

// Remeasure says a point was disturbed (Interference) and is measured
// again, attempt Attempt of Attempts, after waiting Waited for a quiet
// machine, which it got or not (Quiet).
type Remeasure struct {
	Point             Point
	Waited            time.Duration
	Quiet             bool
	Attempt, Attempts int
}

// Profiles says where a sweep's points left their profiles: Points of
// them in Dir, the last one's trace and block profile at Trace and Block.
type Profiles struct {
	Points            int
	Dir, Trace, Block string
}
