//go:build unix

package workloads

import (
	"syscall"
	"time"
)

// processCPU returns the user+system CPU time this process has used so far,
// to tell how many CPUs a variant kept busy while it ran.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
