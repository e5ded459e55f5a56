//go:build unix

package exitcode

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"
)

// A caught signal cancels the context with itself as the cause, and the
// status is the shell's 128 + its number; a context cancelled otherwise
// gives Interrupted.
func TestSignalContext(t *testing.T) {
	ctx, stop := SignalContext(context.Background(), syscall.SIGUSR1)
	defer stop()
	if err := syscall.Kill(os.Getpid(), syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("SIGUSR1 did not cancel the context")
	}
	if got, want := OfSignal(ctx), 128+int(syscall.SIGUSR1); got != want {
		t.Errorf("OfSignal after SIGUSR1 = %d, want %d", got, want)
	}
	other, cancel := context.WithCancel(context.Background())
	cancel()
	if got := OfSignal(other); got != Interrupted {
		t.Errorf("OfSignal of a context cancelled otherwise = %d, want %d", got, Interrupted)
	}
}

// Signals 20 ms apart are one: the second, which would end the test
// binary had SIGHUP its default action back, is taken as the first again.
func TestSignalsTogetherAreOne(t *testing.T) {
	ctx, stop := SignalContext(context.Background(), syscall.SIGHUP)
	defer stop()
	for range 3 {
		if err := syscall.Kill(os.Getpid(), syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("SIGHUP did not cancel the context")
	}
	// Still alive: the signals after the first were swallowed.
	if got, want := OfSignal(ctx), 128+int(syscall.SIGHUP); got != want {
		t.Errorf("OfSignal = %d, want %d", got, want)
	}
}
