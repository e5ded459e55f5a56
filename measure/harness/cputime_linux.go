package harness

import (
	"syscall"
	"time"
	"unsafe"
)

// ProcessCPU returns the user+system CPU time the process has used so far:
// the difference over a run, divided by its wall time, is how many CPUs it
// kept busy. Labs measure their runs with it too.
func ProcessCPU() time.Duration { return processCPU() }

// processCPU reads the process's CPU time with a raw system call, which
// keeps its P: through the runtime's Syscall, a reading taken while
// every P is busy can lose its P to the scheduler on the way out and wait
// behind every runnable goroutine (a thousand customers on one CPU: long
// enough for the window's edge to fall a quarter of a second from its
// reading). getrusage does not block, so it may be called raw.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if _, _, errno := syscall.RawSyscall(syscall.SYS_GETRUSAGE, uintptr(syscall.RUSAGE_SELF), uintptr(unsafe.Pointer(&ru)), 0); errno != 0 {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
