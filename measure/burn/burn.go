package burn

import (
	"fmt"
	"time"
)

// Clock selects how a burn accounts for the time it spends.
type Clock int

const (
	// Wall burns until the monotonic wall clock has advanced by d. It is the
	// default (zero value) because its clock read is cheap and exact.
	Wall Clock = iota
	// ThreadCPU burns until the calling OS thread has consumed d of CPU time
	// (CLOCK_THREAD_CPUTIME_ID), with the goroutine locked to its thread for
	// the burn. Only supported on Linux; elsewhere Burn falls back to Wall.
	ThreadCPU
)

// String returns the name accepted by [ParseClock]: "wall" or "cpu".
func (c Clock) String() string {
	switch c {
	case Wall:
		return "wall"
	case ThreadCPU:
		return "cpu"
	}
	return fmt.Sprintf("Clock(%d)", int(c))
}

// ParseClock returns the Clock named s ("wall" or "cpu"). It rejects "cpu"
// on systems without per-thread CPU clocks, so a run never silently measures
// something other than what was asked for.
func ParseClock(s string) (Clock, error) {
	switch s {
	case "wall":
		return Wall, nil
	case "cpu":
		if !threadCPUSupported {
			return Wall, fmt.Errorf("burn clock %q: thread CPU time is only supported on Linux", s)
		}
		return ThreadCPU, nil
	}
	return Wall, fmt.Errorf("unknown burn clock %q; accepted: wall, cpu", s)
}

// Burn spins on the CPU for d, measured by clock c. It returns at once if
// d <= 0.
func (c Clock) Burn(d time.Duration) {
	if d <= 0 {
		return
	}
	if c == ThreadCPU && threadCPUSupported {
		burnThreadCPU(d)
		return
	}
	burnWall(d)
}

// burnWall spins until d of monotonic wall time has passed. time.Since on a
// time from time.Now uses the monotonic reading: one vDSO call per check.
func burnWall(d time.Duration) {
	start := time.Now()
	for time.Since(start) < d {
	}
}

// ThreadTime returns the CPU time the calling OS thread has consumed so
// far, and false where the system has no per-thread CPU clock (anything
// but Linux). Two readings around a step that keeps its thread tell how
// much of the step's wall time it really ran: what a machine's meter
// counts as working.
func ThreadTime() (time.Duration, bool) {
	if !threadCPUSupported {
		return 0, false
	}
	return threadCPUTime(), true
}
