package blueprint

import (
	"testing"
	"time"
)

// TestScaledKeepsShortStepsMean: a step of a few nanoseconds scaled to a
// fraction of one keeps its scaled mean over its runs (validation scales
// 7 ns to 7.6, and whole nanoseconds alone would run it at 7), while a
// step of a microsecond or more is cut to whole nanoseconds as before, so
// that what the fifo policy answers does not move.
func TestScaledKeepsShortStepsMean(t *testing.T) {
	w := &world{carry: make([]float64, 2)}
	short, long := &step{name: "short", id: 0}, &step{name: "long", id: 1}
	var sum time.Duration
	const runs = 1000
	for range runs {
		sum += w.scaled(short, 7, 7.6/7)
		if got := w.scaled(long, 1000003, 0.9); got != 900002 {
			t.Fatalf("1000003 ns scaled by 0.9: %d, want 900002 (cut to whole nanoseconds)", got)
		}
	}
	if mean := float64(sum) / runs; mean < 7.599 || mean > 7.601 {
		t.Errorf("7 ns scaled to 7.6 ran %.3f ns on average over %d runs; want 7.6", mean, runs)
	}
}
