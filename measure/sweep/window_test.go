package sweep

import (
	"testing"
	"time"
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
