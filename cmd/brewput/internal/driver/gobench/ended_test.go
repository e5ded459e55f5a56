package gobench

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/brewput/brewput/internal/base/exitcode"
	"github.com/brewput/brewput/results"
)

// Ended writes the points kept and turns each way a run ends into its
// status: a --bench that matched nothing is usage, nothing written; an
// interruption keeps the points; failures beside points are a failure
// that counts both.
func TestEnded(t *testing.T) {
	two := Result{Points: make([]results.Point, 2)}
	for _, c := range []struct {
		res    Result
		err    error
		writes bool
		check  func(error) bool
		want   string
	}{
		{two, nil, true, func(err error) bool { return err == nil }, ""},
		{two, &NoMatchError{Bench: "X"}, false, func(err error) bool {
			return !errors.As(err, new(exitcode.Failure)) && strings.HasPrefix(err.Error(), "-bench: ")
		}, ""},
		{two, context.Canceled, true, func(err error) bool { return errors.As(err, new(exitcode.Interruption)) }, "interrupted after 2 points; kept what was measured"},
		{Result{Points: two.Points, Failures: []Failure{{Pkg: "p", CPUs: 1}}}, nil, true, func(err error) bool { return errors.As(err, new(exitcode.Failure)) },
			"1 benchmark run failed; the report and the table hold the 2 points measured"},
	} {
		wrote := false
		var log bytes.Buffer
		err := Ended(c.res, c.err, func(p []results.Point) error { wrote = len(p) == 2; return nil }, &log)
		if !c.check(err) || (c.want != "" && err.Error() != c.want) || wrote != c.writes {
			t.Errorf("Ended(%d points, %d failures, %v) = %v, wrote %v; want %q, wrote %v", len(c.res.Points), len(c.res.Failures), c.err, err, wrote, c.want, c.writes)
		}
		if len(c.res.Failures) > 0 && !strings.HasPrefix(log.String(), "FAIL: ") {
			t.Errorf("log %q: want each failure told", log.String())
		}
	}
}
