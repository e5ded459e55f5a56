package text

import (
	"testing"
	"time"
)

// TestTimeLeftKeepsTheLimit: issue 57 saw lessons say "about 2m51s left"
// 11 s into a quick run, its first claim slow, that ended at 55 s, its
// limit: the claims left share what the limit leaves, so the time left
// is never told past it; within it, the rate seen is told.
func TestTimeLeftKeepsTheLimit(t *testing.T) {
	for _, c := range []struct {
		elapsed, limitLeft time.Duration
		done, left         int
		waits              bool
		want               string
	}{
		{11 * time.Second, 49 * time.Second, 1, 15, false, ", at most 49s left (the run's limit)"},
		{11 * time.Second, 49 * time.Second, 1, 15, true, ", about 2m45s left"}, // waits for quiet move the limit
		{30 * time.Second, 30 * time.Second, 10, 6, false, ", about 18s left"},
		{70 * time.Second, -5 * time.Second, 15, 1, false, ", at most 0s left (the run's limit)"},
		{11 * time.Second, 49 * time.Second, 16, 0, false, ""},
	} {
		if got := lessonsTimeLeft(c.elapsed, c.done, c.left, c.limitLeft, c.waits); got != c.want {
			t.Errorf("lessonsTimeLeft(%v, %d done, %d left, limit leaves %v, waits %v) = %q; want %q", c.elapsed, c.done, c.left, c.limitLeft, c.waits, got, c.want)
		}
	}
}
