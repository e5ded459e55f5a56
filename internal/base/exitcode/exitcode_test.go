package exitcode

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// Every way a command ends has its status, also when the marking error is
// wrapped; Ended says how far an interrupted run got.
func TestOf(t *testing.T) {
	bad := errors.New("bad")
	for _, c := range []struct {
		err  error
		want int
	}{
		{nil, OK},
		{bad, Usage},
		{Failure{bad}, Fail},
		{fmt.Errorf("wrapped: %w", Failure{bad}), Fail},
		{Interruption{bad}, 143},
		{Ended(context.Canceled, 3, 8, "points", "what was measured"), 143},
		{Ended(bad, 3, 8, "points", "what was measured"), Fail},
		{Ended(nil, 8, 8, "points", "what was measured"), OK},
	} {
		if got := Of(c.err, 143); got != c.want {
			t.Errorf("Of(%v) = %d, want %d", c.err, got, c.want)
		}
	}
	err := Ended(fmt.Errorf("run: %w", context.Canceled), 3, 8, "points", "what was measured")
	if want := "interrupted after 3 of 8 points; kept what was measured"; err.Error() != want {
		t.Errorf("Ended = %q, want %q", err, want)
	}
}
