//go:build unix

package render

import (
	"syscall"
	"time"
)

// processCPU returns the user+system CPU time the process has used so far,
// all threads together: the runtime's and the garbage collector's count
// as much as the lab's own goroutines.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
