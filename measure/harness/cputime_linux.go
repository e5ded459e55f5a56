package harness

import (
	"syscall"
	"time"
	"unsafe"
)

// ReadUsage reads the process's usage so far: its CPU time's difference
// over a run, divided by the wall time, is how many CPUs it kept busy.
//
// It calls getrusage raw, which keeps the P: through the runtime's Syscall,
// a reading taken while every P is busy can lose its P on the way out and
// wait behind every runnable goroutine, a window's edge then falling far
// from its reading. getrusage does not block, so it may be called raw.
func ReadUsage() Usage {
	var ru syscall.Rusage
	if _, _, errno := syscall.RawSyscall(syscall.SYS_GETRUSAGE, uintptr(syscall.RUSAGE_SELF), uintptr(unsafe.Pointer(&ru)), 0); errno != 0 {
		return Usage{}
	}
	return Usage{CPU: time.Duration(ru.Utime.Nano() + ru.Stime.Nano())}
}
