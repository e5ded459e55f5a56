package harness

import "time"

// Usage is the process's own accounting at an instant, or over a window:
// what each edge of a measured window reads (ReadUsage), the harness's
// and sweep.Stopwatch's alike.
type Usage struct {
	// CPU is the user+system CPU time.
	CPU time.Duration
}

// Sub is the usage from before to u.
func (u Usage) Sub(before Usage) Usage { return Usage{CPU: u.CPU - before.CPU} }

// Add adds o to u.
func (u *Usage) Add(o Usage) { u.CPU += o.CPU }
