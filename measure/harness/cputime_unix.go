//go:build unix && !linux

package harness

import (
	"syscall"
	"time"
)

// ProcessCPU returns the user+system CPU time the process has used so far:
// the difference over a run, divided by its wall time, is how many CPUs it
// kept busy. Labs measure their runs with it too.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// processCPU is ProcessCPU, read at a window's edges.
func processCPU() time.Duration { return ProcessCPU() }
