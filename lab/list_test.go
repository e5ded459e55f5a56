package lab

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"testing"

	"github.com/brewput/brewput/internal/base/exitcode"
)

// A lab's run that ends cancelled is an interruption, one that fails a
// failure naming the lab, and DefaultCPUs compares 1 CPU with all.
func TestEndedAndDefaultCPUs(t *testing.T) {
	if err := Ended(nil, "x"); err != nil {
		t.Errorf("Ended(nil) = %v", err)
	}
	err := Ended(fmt.Errorf("wrapped: %w", context.Canceled), "x")
	if !errors.As(err, new(exitcode.Interruption)) || err.Error() != "lab x interrupted; kept what was measured" {
		t.Errorf("Ended(cancelled) = %v, want an interruption", err)
	}
	err = Ended(errors.New("boom"), "x")
	if !errors.As(err, new(exitcode.Failure)) || err.Error() != "lab x: boom" {
		t.Errorf("Ended(boom) = %v, want a failure naming the lab", err)
	}
	want := "1"
	if n := runtime.NumCPU(); n > 1 {
		want = fmt.Sprintf("1,%d", n)
	}
	if got := DefaultCPUs(); got != want {
		t.Errorf("DefaultCPUs() = %q, want %q", got, want)
	}
}
