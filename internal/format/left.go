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
	d := elapsed * time.Duration(left) / time.Duration(done)
	if d < 10*time.Second {
		d = d.Round(100 * time.Millisecond)
	} else {
		d = d.Round(time.Second)
	}
	return fmt.Sprintf(", about %v left", d)
}
