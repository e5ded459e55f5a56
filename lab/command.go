package lab

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"

	"github.com/brewput/brewput/internal/exitcode"
	"github.com/brewput/brewput/internal/format"
)

// WriteList writes a line for each lab: its name and summary.
func WriteList(w io.Writer, labs []Lab) error {
	t := format.Table{Ragged: true}
	for _, l := range labs {
		t.Row(l.Info().Name, l.Info().Summary)
	}
	return t.Write(w)
}

// DefaultCPUs is 1 CPU and all of them, the comparison every lab makes,
// as a CPU list.
func DefaultCPUs() string {
	if n := runtime.NumCPU(); n > 1 {
		return fmt.Sprintf("1,%d", n)
	}
	return "1"
}

// Ended turns how the run of the lab named name ended into its command's
// error: none, an exitcode.Interruption for a cancelled context, or an
// exitcode.Failure.
func Ended(err error, name string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.Canceled):
		return exitcode.Interruption{Err: fmt.Errorf("lab %s interrupted; kept what was measured", name)}
	}
	return exitcode.Failure{Err: fmt.Errorf("lab %s: %w", name, err)}
}
