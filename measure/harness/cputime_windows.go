package harness

import (
	"syscall"
	"time"
)

// ReadUsage reads the process's usage so far: its kernel and user time,
// which Windows counts in 100 ns units (advanced at its clock tick).
func ReadUsage() Usage {
	self, err := syscall.GetCurrentProcess()
	if err != nil {
		return Usage{}
	}
	var created, exited, kernel, user syscall.Filetime
	if syscall.GetProcessTimes(self, &created, &exited, &kernel, &user) != nil {
		return Usage{}
	}
	ticks := func(ft syscall.Filetime) time.Duration {
		return time.Duration(int64(ft.HighDateTime)<<32|int64(ft.LowDateTime)) * 100
	}
	return Usage{CPU: ticks(kernel) + ticks(user)}
}
