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

// LabEvent is what a lab's run tells as it goes, one of: a point measured,
// a CPU count measured again, a count's profiles written, or a warning
// that does not stop the run (report/text's LabEvent says it).
type LabEvent struct {
	Measured *LabPoint
	Again    *LabAgain
	Profiled *LabProfiled
	Warning  error
}

// LabPoint is a lab's point measured, with the intervals of the figures
// its lab tells beside the point's own: Rate the runs' throughput, Vs
// their ratio to the lab's reference way; N 0 where the lab tells none.
type LabPoint struct {
	Point    Point
	Rate, Vs Interval
}

// Interval is the median of a figure measured once a run and its 95 %
// interval, infinite where N runs are too few to bound it.
type Interval struct {
	Median, Lo, Hi float64
	N              int
}

// LabAgain says Disturbed of the Of points on CPUs were disturbed and the
// count is measured again, attempt Attempt of Attempts, after waiting
// Waited for a quiet machine; Others is the CPUs other processes still
// used where it stayed busy (Busy).
type LabAgain struct {
	Disturbed, Of, CPUs int
	Waited              time.Duration
	Busy                bool
	Others              float64
	Attempt, Attempts   int
}

// LabProfiled says a lab's count of CPUs left its profiles at Base
// (Base.trace, .cpu.pprof, .block.pprof, .mutex.pprof).
type LabProfiled struct {
	CPUs int
	Base string
}

// CalibrationEvent is what measuring the runtime's costs for a prediction
// tells as it goes (report/text's CalibrationTold says it): Kind is
// Calibrating, StayedBusy (after Waited, others using Others CPUs),
// NotKept (others used Others; Host's costs used instead) or Saved (at
// Path).
type CalibrationEvent struct {
	Kind       string
	Waited     time.Duration
	Others     float64
	Host, Path string
}

// The kinds of CalibrationEvent.
const (
	Calibrating = "measuring"
	StayedBusy  = "stayed_busy"
	NotKept     = "not_kept"
	Saved       = "saved"
)
