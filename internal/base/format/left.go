package format

import (
	"fmt"
	"time"
)

// TimeLeft revises an estimate by the rate seen: done parts took elapsed,
// so left more take about elapsed × left ÷ done: ", about 12s left"; ""
// where none is done or left.
func TimeLeft(elapsed time.Duration, done, left int) string {
	if done <= 0 || left <= 0 {
		return ""
	}
	return fmt.Sprintf(", about %v", roundLeft(elapsed*time.Duration(left)/time.Duration(done))) + " left"
}

// TimeLeftWithin is TimeLeft where quiet is the time left if nothing
// slows: where the rate says over half as long again, it says the range,
// ", 17s to 1m11s left".
func TimeLeftWithin(elapsed time.Duration, done, left int, quiet time.Duration) string {
	if done <= 0 || left <= 0 {
		return ""
	}
	rate := elapsed * time.Duration(left) / time.Duration(done)
	if rate <= quiet*3/2 || roundLeft(quiet) == roundLeft(rate) {
		return TimeLeft(elapsed, done, left)
	}
	return fmt.Sprintf(", %v to %v left", roundLeft(quiet), roundLeft(rate))
}

// roundLeft rounds to 100 ms under 10 s, else to seconds.
func roundLeft(d time.Duration) time.Duration {
	if d < 10*time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Second)
}
