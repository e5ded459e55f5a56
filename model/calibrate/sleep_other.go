//go:build !linux

package calibrate

import "time"

// platformNote says what a calibration lacks off Linux. The runnext grace
// is not measured: the runtime's usleep(3) is libc's on macOS, which Go's
// syscall package does not call, Windows' runtime yields instead of
// sleeping, and time.Sleep would time the runtime's timers, another cost.
// Nor are the transfer's threads pinned (pinThread), nor other processes'
// CPU use read (package quiet).
const platformNote = "measured off Linux: the runnext grace is not (the model waits the 3 µs the runtime asks for; on Windows the runtime yields instead), the transfer's threads are not pinned to CPUs, and other processes' CPU use is not read"

// threadSleep is never called off Linux: the grace is not measured.
func threadSleep(time.Duration) {}
