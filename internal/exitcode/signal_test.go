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
