package lesson

import "time"

// Start is what a run of claims is about to measure: Claims claims at
// Level ("quick"), taking AtMost, each claim that waits for quiet up to
// QuietWait more, on Host with CPUs CPUs.
type Start struct {
	Claims            int
	Level, Host       string
	AtMost, QuietWait time.Duration
	CPUs              int
}

// Reached is a verdict as it is reached, the Done-th of Total, Elapsed
// into the run, whose limit leaves LimitLeft; Waits says claims may wait
// for quiet, which moves the limit.
type Reached struct {
	Result             Result
	Done, Total        int
	Elapsed, LimitLeft time.Duration
	Waits              bool
}
