package format

import (
	"testing"
	"time"
)

// TestTimeLeft: the time left follows the rate observed so far, not the first
// estimate: 2 of 10 points in 59 s leave about 3m56s.
func TestTimeLeft(t *testing.T) {
	for _, c := range []struct {
		elapsed    time.Duration
		done, left int
		want       string
	}{
		{59 * time.Second, 2, 8, ", about 3m56s left"},
		{1500 * time.Millisecond, 3, 1, ", about 500ms left"},
		{time.Second, 0, 5, ""},
		{time.Second, 5, 0, ""},
	} {
		if got := TimeLeft(c.elapsed, c.done, c.left); got != c.want {
			t.Errorf("TimeLeft(%v, %d, %d) = %q, want %q", c.elapsed, c.done, c.left, got, c.want)
		}
	}
}
