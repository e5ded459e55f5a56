//go:build unix && !linux

package harness

import (
	"syscall"
	"time"
)

// ReadUsage reads the process's usage so far.
func ReadUsage() Usage {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return Usage{}
	}
	return Usage{CPU: time.Duration(ru.Utime.Nano() + ru.Stime.Nano())}
}
