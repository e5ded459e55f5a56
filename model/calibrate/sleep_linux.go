package calibrate

import (
	"syscall"
	"time"
)

// platformNote is empty on Linux, where every cost is measured.
const platformNote = ""

// threadSleep puts the calling thread to sleep for d with nanosleep, as the
// runtime's usleep does on Linux.
func threadSleep(d time.Duration) {
	ts := syscall.NsecToTimespec(int64(d))
	_ = syscall.Nanosleep(&ts, nil) // an interrupted sleep is a shorter sample, not an error
}
