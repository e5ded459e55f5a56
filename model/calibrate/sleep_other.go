//go:build !linux

package calibrate

import "time"

// platformNote says what a calibration lacks off Linux: the runtime's
// usleep(3) is libc's on macOS, and Windows' runtime yields instead.
const platformNote = "measured off Linux: the runnext grace is not (the model waits the 3 µs the runtime asks for; on Windows the runtime yields instead), the transfer's threads are not pinned to CPUs, and other processes' CPU use is not read"

// threadSleep is never called off Linux: the grace is not measured.
func threadSleep(time.Duration) {}
