package harness

import (
	"syscall"
	"time"
	"unsafe"
)

// ReadUsage reads the process's usage so far. It calls getrusage, which
// does not block, raw, keeping the P: through Syscall, a reading taken
// while every P is busy can lose its P and wait behind every runnable
// goroutine, a window's edge then falling far from its reading.
func ReadUsage() Usage {
	var ru syscall.Rusage
	if _, _, errno := syscall.RawSyscall(syscall.SYS_GETRUSAGE, uintptr(syscall.RUSAGE_SELF), uintptr(unsafe.Pointer(&ru)), 0); errno != 0 {
		return Usage{}
	}
	return Usage{CPU: time.Duration(ru.Utime.Nano() + ru.Stime.Nano())}
}
