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

// TestTimeLeftWithin: after a point measured again, the rate so far
// overstates a quiet rest (the main job said "about 1m11s left" with 17 s
// to go): the time left is the range from the quiet time to the rate's,
// and one figure where they agree.
func TestTimeLeftWithin(t *testing.T) {
	for _, c := range []struct {
		elapsed, quiet time.Duration
		done, left     int
		want           string
	}{
		{20200 * time.Millisecond, 14 * 1200 * time.Millisecond, 4, 14, ", 17s to 1m11s left"},
		{4800 * time.Millisecond, 14 * 1200 * time.Millisecond, 4, 14, ", about 17s left"},
		{19800 * time.Millisecond, 17 * 1200 * time.Millisecond, 1, 17, ", 20s to 5m37s left"},
		{time.Second, time.Second, 0, 5, ""},
	} {
		if got := TimeLeftWithin(c.elapsed, c.done, c.left, c.quiet); got != c.want {
			t.Errorf("TimeLeftWithin(%v, %d, %d, %v) = %q, want %q", c.elapsed, c.done, c.left, c.quiet, got, c.want)
		}
	}
}
