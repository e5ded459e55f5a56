package format

import (
	"fmt"
	"time"
)

// TimeLeft revises a first estimate of how long work takes by the rate
// observed: done of its parts took elapsed, so left more should take
// about elapsed × left ÷ done: ", about 12s left"; "" where nothing is
// done yet or nothing is left. A point measured again while disturbed,
// or a child process slow to start, shows here, not in the first estimate.
func TimeLeft(elapsed time.Duration, done, left int) string {
	if done <= 0 || left <= 0 {
		return ""
	}
	return fmt.Sprintf(", about %v", roundLeft(elapsed*time.Duration(left)/time.Duration(done))) + " left"
}

// TimeLeftWithin is TimeLeft where quiet is how long the parts left take
// if nothing slows them (none measured again): where the rate so far says
// over half as long again — a disturbed point measured again weighs on
// the few done —, the time left is the range between, ", 17s to 1m11s
// left", as either may come true.
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

// roundLeft rounds a time left to what is worth saying: 100 ms under
// 10 s, else seconds.
func roundLeft(d time.Duration) time.Duration {
	if d < 10*time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Second)
}
