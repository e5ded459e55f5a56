package harness

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brewput/brewput/results"
)

// TestRunTalkCountsWhatTheWindowHolds: the talk's harness runs the
// operation from several workers, counts only calls that end in the
// window (no more than were made), records one latency per counted call,
// counts errors, and stops every goroutine (goleak checks at the end).
// What holds on any machine: no timing magnitudes.
func TestRunTalkCountsWhatTheWindowHolds(t *testing.T) {
	var calls atomic.Int64
	op := func() error {
		n := calls.Add(1)
		time.Sleep(100 * time.Microsecond)
		if n%10 == 0 {
			return errors.New("every tenth")
		}
		return nil
	}
	res, err := Run(context.Background(), results.Load{Harness: "talk", Par: 3, Warmup: 20 * time.Millisecond, Dur: 100 * time.Millisecond}, op, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Ops == 0 || res.Ops > calls.Load() {
		t.Errorf("%d ops counted of %d calls", res.Ops, calls.Load())
	}
	if res.Latency.TotalCount() != res.Ops {
		t.Errorf("%d latencies for %d ops", res.Latency.TotalCount(), res.Ops)
	}
	if res.Errors > res.Ops || (res.Ops >= 10 && res.Errors == 0) {
		t.Errorf("%d errors of %d ops, want about a tenth", res.Errors, res.Ops)
	}
	if min := res.Latency.Min(); min < int64(100*time.Microsecond) {
		t.Errorf("shortest latency %v, want at least the call's 100µs sleep", time.Duration(min))
	}
	// The window's edges fall where the watching goroutine got to them
	// (see clock): a positive window, the CPU read over it (Usage).
	if res.Window <= 0 {
		t.Errorf("window %v; want a window", res.Window)
	}
}

// TestRunTalkRefuses: no open loop, no nil op, a load error named; a
// cancelled context returns its error and no result.
func TestRunTalkRefuses(t *testing.T) {
	op := func() error { return nil }
	if _, err := Run(context.Background(), results.Load{Harness: "talk", Par: 1, Rate: 100, Dur: time.Millisecond}, op, nil); err == nil {
		t.Error("open loop: no error")
	}
	if _, err := Run(context.Background(), results.Load{Harness: "talk", Par: 1, Dur: time.Millisecond}, nil, nil); !errors.Is(err, ErrNoOp) {
		t.Errorf("nil op: %v", err)
	}
	if _, err := Run(context.Background(), results.Load{Harness: "talk", Par: -1, Dur: time.Millisecond}, op, nil); err == nil || !strings.Contains(err.Error(), "par") {
		t.Errorf("negative par: %v, want an error naming par", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, results.Load{Harness: "talk", Par: 2, Dur: time.Second}, op, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
