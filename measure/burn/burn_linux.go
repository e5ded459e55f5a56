package burn

import (
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTime is Linux's CLOCK_THREAD_CPUTIME_ID, which package
// syscall does not name.
const clockThreadCPUTime = 3

const threadCPUSupported = true

// burnThreadCPU spins until the calling thread has consumed d of CPU time.
// The goroutine is locked to its thread so that the clock read at the end
// belongs to the same thread as the one read at the start.
func burnThreadCPU(d time.Duration) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := threadCPUTime()
	for threadCPUTime()-start < d {
	}
}

// threadCPUTime returns the CPU time consumed so far by the calling thread.
func threadCPUTime() time.Duration {
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		// Cannot fail on Linux >= 2.6.12 with a valid pointer; failing
		// loudly beats spinning forever on a clock that never advances.
		panic("burn: clock_gettime(CLOCK_THREAD_CPUTIME_ID): " + errno.Error())
	}
	return time.Duration(ts.Nano())
}
