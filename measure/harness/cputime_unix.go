//go:build unix && !linux

package harness

import (
	"syscall"
	"time"
)

// ProcessCPU returns the user+system CPU time the process has used so far.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
