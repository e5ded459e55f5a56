package sweep

import (
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/results"
)

// TestLeft: the time left follows the rate observed so far, not the first
// estimate: 2 of 10 points in 59 s leave about 3m56s.
func TestLeft(t *testing.T) {
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
		if got := Left(c.elapsed, c.done, c.left); got != c.want {
			t.Errorf("Left(%v, %d, %d) = %q, want %q", c.elapsed, c.done, c.left, got, c.want)
		}
	}
}

// TestProgressRevises: measuring's first line says its estimate will be
// revised, and each point's line (not a terminal) gives the time left by
// the rate so far, none after the last.
func TestProgressRevises(t *testing.T) {
	st := Batch{Specs: []Spec{{Load: Load{CPUs: 1, Load: results.Load{Dur: time.Second}}}, {Load: Load{CPUs: 2, Load: results.Load{Dur: time.Second}}}}, Count: 1}
	points := []results.Point{{Spec: results.Spec{Mode: "locking", CPUs: 1}, Throughput: 250, Unit: "lattes/s"}, {Spec: results.Spec{Mode: "locking", CPUs: 2}, Throughput: 250, Unit: "lattes/s"}}
	var log strings.Builder
	p := NewProgress(&log, st, 0)
	p.Done(points[:1])
	p.Done(points)
	lines := strings.Split(strings.TrimSuffix(log.String(), "\n"), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "(revised as points finish)") || !strings.Contains(lines[1], " left") || strings.Contains(lines[2], " left") {
		t.Errorf("progress:\n%s\nwant the estimate, then the time left after the first point and none after the last", log.String())
	}
}
