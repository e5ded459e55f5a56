// Package quiettest runs a test's timing checks guarded against a busy
// machine: retried on a quiet one, skipped where other processes take
// the CPUs it times.
package quiettest

import (
	"context"
	"testing"
	"time"

	"github.com/brewput/brewput/measure/quiet"
	"github.com/brewput/brewput/results"
)

// Retry's bounds, so that beside a busy neighbour the suite finishes
// promptly (under go test ./... each second waited idles one of its
// slots): at most quietWait waiting for a quiet machine, maxVoid attempts
// spoiled by other processes before it skips, quietAttempts failures on a
// quiet machine before it fails.
const (
	quietWait     = 600 * time.Millisecond
	maxVoid       = 2
	quietAttempts = 3
)

// Guard holds what a test's timing checks spent waiting for a quiet
// machine, so its subtests share the bound: once the machine proved busy,
// the rest skip at once.
type Guard struct {
	waited time.Duration
	void   int
	busy   float64 // the CPUs others took when the wait ran out; 0 before
}

// Retry runs check under a Guard of its own; see Guard.Retry.
func Retry(t testing.TB, check func() error) {
	t.Helper()
	new(Guard).Retry(t, check)
}

// Retry runs check until it passes or fails quietAttempts times on a quiet
// machine, then fails t with the last complaint. While the machine is not
// quiet, it waits up to quietWait in all for g, then skips. An attempt
// during which others took over results.DisturbedCPUs is void; after
// maxVoid of them the test skips.
func (g *Guard) Retry(t testing.TB, check func() error) {
	t.Helper()
	var err error
	failed := 0
	for failed < quietAttempts {
		if g.void >= maxVoid {
			t.Skipf("machine busy: other processes took more than %.1f CPUs during %d attempts; a timing measured beside them says nothing", results.DisturbedCPUs, g.void)
		}
		if g.busy == 0 {
			others, waited, _ := quiet.Wait(context.Background(), quietWait-g.waited, 200*time.Millisecond, results.DisturbedCPUs)
			g.waited += waited
			if others >= results.DisturbedCPUs {
				g.busy = others
			}
		}
		if g.busy > 0 {
			t.Skipf("machine busy: other processes took %.2f CPUs (more than %.1f) for %v; a timing measured beside them says nothing",
				g.busy, results.DisturbedCPUs, g.waited.Round(100*time.Millisecond))
		}
		before := quiet.Take()
		err = check()
		during := quiet.Since(before)
		if err == nil {
			return
		}
		if during > results.DisturbedCPUs {
			g.void++
			t.Logf("void attempt (other processes took %.2f CPUs): %v", during, err)
			continue
		}
		failed++
		t.Logf("attempt on a quiet machine (other processes took %.2f CPUs): %v", during, err)
	}
	t.Fatal(err)
}
