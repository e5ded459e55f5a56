package model

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestCancelStopsARun: a simulation of ten virtual hours, which would take
// many minutes, returns context.Canceled once its done channel closes,
// whether that is before it starts or while it runs.
func TestCancelStopsARun(t *testing.T) {
	long := func() Config {
		cfg := talk("finelocking", 8)
		cfg.Dur = 10 * time.Hour
		return cfg
	}
	closed := make(chan struct{})
	close(closed)
	if _, err := simulateOne(long(), closed); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before it started: %v, want context.Canceled", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := simulateOne(long(), ctx.Done())
		done <- err
	}()
	time.Sleep(50 * time.Millisecond) // let it get under way
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled while running: %v, want context.Canceled", err)
	}
}
