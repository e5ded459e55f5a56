package burn

import (
	"fmt"
	"time"
)

// Clock selects how a burn accounts for the time it spends.
type Clock int

const (
	// Wall burns until the monotonic wall clock has advanced by d.
	Wall Clock = iota
	// ThreadCPU burns until the calling thread has used d of CPU time; off
	// Linux, Burn falls back to Wall.
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

// ParseClock returns the Clock named s ("wall" or "cpu"), refusing "cpu"
// where there is no thread CPU clock rather than measure something else.
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

// burnWall spins until d of monotonic wall time has passed.
func burnWall(d time.Duration) {
	start := time.Now()
	for time.Since(start) < d {
	}
}

// ThreadTime returns the CPU time the calling thread has used so far, and
// false where there is no thread CPU clock (off Linux): two readings around
// a step tell a machine meter's working time.
func ThreadTime() (time.Duration, bool) {
	if !threadCPUSupported {
		return 0, false
	}
	return threadCPUTime(), true
}
