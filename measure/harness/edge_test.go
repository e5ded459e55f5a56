package harness

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/brewput/brewput/results"
)

// TestEdgeReadsCPUAndWallTogether: the process's CPU time and the window's
// wall time must cover one interval even when the goroutine that reads them
// is descheduled in between, as it was behind a thousand customers on one
// CPU (a window's CPU time then read 222 % of one CPU). Here the CPU clock
// is a fake that runs as fast as the wall clock (a process keeping one CPU
// busy) and whose first reading at each edge stalls for 60 ms after it is
// taken, as a reading that lost its CPU: read in the old order, CPU time
// then wall time, the window's utilization came out 1.30; read together,
// it must be 1.
func TestEdgeReadsCPUAndWallTogether(t *testing.T) {
	c := newClock(results.Load{Warmup: 10 * time.Millisecond, Dur: 200 * time.Millisecond})
	stall := true
	c.usage = func() Usage {
		now := c.now() // one CPU busy since the epoch
		if stall {
			time.Sleep(60 * time.Millisecond)
		}
		stall = !stall // the next reading is quick, the one after stalls
		return Usage{CPU: now}
	}
	res, err := watch(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Window < 200*time.Millisecond {
		t.Errorf("window %v, shorter than the 200ms asked", res.Window)
	}
	// The fake CPU time lies within edgeSlack of the wall reading.
	slack := 2 * float64(edgeSlack) / float64(res.Window)
	if got := res.CPUsUsed(); math.Abs(got-1) > slack {
		t.Errorf("one CPU busy read as %.3f CPUs (CPU %v over %v); want 1 ± %.3f", got, res.Usage.CPU, res.Window, slack)
	}
	if err := res.CheckCPU(1); err != nil {
		t.Error(err)
	}
}

// TestCheckCPURefusesTheImpossible: a window's CPU time beyond what its
// CPUs could give is refused, saying what was read; the accounting's
// tolerance is not.
func TestCheckCPURefusesTheImpossible(t *testing.T) {
	w := 200 * time.Millisecond
	if err := (Result{Window: w, Usage: Usage{CPU: 444 * time.Millisecond}}).CheckCPU(1); err == nil {
		t.Error("222 % of one CPU was not refused")
	} else {
		t.Log(err)
	}
	if err := (Result{Window: w, Usage: Usage{CPU: 203 * time.Millisecond}}).CheckCPU(1); err != nil {
		t.Errorf("101.5 %% of one CPU, within the accounting's tolerance, refused: %v", err)
	}
	if err := (Result{Window: w, Usage: Usage{CPU: 390 * time.Millisecond}}).CheckCPU(2); err != nil {
		t.Errorf("1.95 of 2 CPUs refused: %v", err)
	}
}
