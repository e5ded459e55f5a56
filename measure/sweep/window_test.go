package sweep

import (
	"testing"
	"time"

	"github.com/brewput/brewput/measure/harness"
	"github.com/brewput/brewput/results"
)

// A stopwatch's wall time is the time since its start, and the CPU time
// of a stretch of spinning on one goroutine about as long.
func TestStopwatch(t *testing.T) {
	before := time.Now()
	sw := StartStopwatch()
	for time.Since(sw.Start()) < 20*time.Millisecond {
	}
	w := sw.Stop()
	wall, cpu := w.Wall, w.CPU
	if w.Start != sw.Start() || sw.Start().Before(before) || wall < 20*time.Millisecond || time.Since(before) < wall {
		t.Errorf("start %v (before %v), wall %v", sw.Start(), before, wall)
	}
	if cpu <= 0 || cpu > 2*wall+10*time.Millisecond {
		t.Errorf("CPU time %v over %v of spinning", cpu, wall)
	}
}

// A window marks a point with its CPU use, its share of the point's CPUs
// at most 1 (the runtime's threads may add a little), and windows added
// up start with the first and use the CPU of all.
func TestWindowMark(t *testing.T) {
	start := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
	var w Window
	w.Add(Window{Start: start, Wall: time.Second, Usage: harness.Usage{CPU: 2 * time.Second}})
	w.Add(Window{Start: start.Add(time.Hour), Wall: time.Second, Usage: harness.Usage{CPU: 3 * time.Second}})
	p := results.Point{Spec: results.Spec{CPUs: 2}}
	w.Mark(&p)
	if w.Start != start || p.Metrics[results.CPUUsed] != 2.5 || p.Metrics[results.Util] != 1 {
		t.Errorf("start %v, CPUUsed %v, Util %v; want %v, 2.5, 1", w.Start, p.Metrics[results.CPUUsed], p.Metrics[results.Util], start)
	}
}
