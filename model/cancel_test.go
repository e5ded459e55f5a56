package model

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestCancelStopsARun: a simulation of ten virtual hours, which would take
// many minutes, returns context.Canceled once its Cancel channel closes,
// whether that is before it starts or while it runs.
func TestCancelStopsARun(t *testing.T) {
	long := func() Config {
		cfg := talk("finelocking", 8)
		cfg.Duration = 10 * time.Hour
		return cfg
	}
	closed := make(chan struct{})
	close(closed)
	cfg := long()
	cfg.Cancel = closed
	if _, err := Run(cfg); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before it started: %v, want context.Canceled", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cfg = long()
	cfg.Cancel = ctx.Done()
	done := make(chan error, 1)
	go func() {
		_, err := Run(cfg)
		done <- err
	}()
	time.Sleep(50 * time.Millisecond) // let it get under way
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled while running: %v, want context.Canceled", err)
	}
}
