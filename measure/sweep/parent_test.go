package sweep

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// TestWatchParent: the context ends once the parent's id changes (this
// process adopted), and not before; stop ends the watch.
func TestWatchParent(t *testing.T) {
	var parent atomic.Int64
	parent.Store(100)
	ctx, stop := watchParent(context.Background(), func() int { return int(parent.Load()) }, time.Millisecond)
	defer stop()
	select {
	case <-ctx.Done():
		t.Fatal("cancelled while the parent lives")
	case <-time.After(20 * time.Millisecond):
	}
	parent.Store(1) // adopted: the parent has gone
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("not cancelled after the parent went")
	}

	ctx, stop = watchParent(context.Background(), func() int { return 7 }, time.Millisecond)
	stop()
	if ctx.Err() == nil {
		t.Error("stop left the context live")
	}
}
