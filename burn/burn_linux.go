package burn

import (
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

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
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		// Cannot fail on Linux >= 2.6.12 with a valid pointer; failing
		// loudly beats spinning forever on a clock that never advances.
		panic("burn: clock_gettime(CLOCK_THREAD_CPUTIME_ID): " + err.Error())
	}
	return time.Duration(ts.Nano())
}
