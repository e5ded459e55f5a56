package harness

import (
	"syscall"
	"time"
	"unsafe"
)

// ProcessCPU returns the user+system CPU time the process has used so far:
// its difference over a run, divided by the wall time, is how many CPUs it
// kept busy.
//
// It calls getrusage raw, which keeps the P: through the runtime's Syscall,
// a reading taken while every P is busy can lose its P on the way out and
// wait behind every runnable goroutine, a window's edge then falling far
// from its reading. getrusage does not block, so it may be called raw.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if _, _, errno := syscall.RawSyscall(syscall.SYS_GETRUSAGE, uintptr(syscall.RUSAGE_SELF), uintptr(unsafe.Pointer(&ru)), 0); errno != 0 {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
