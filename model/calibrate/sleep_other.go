//go:build !unix

package calibrate

import "time"

// threadSleep sleeps for d; without nanosleep, the runtime's own timer
// stands in for it.
func threadSleep(d time.Duration) { time.Sleep(d) }
