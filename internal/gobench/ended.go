package gobench

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/brewput/brewput/internal/exitcode"
	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/results"
)

// Ended hands what Run measured to write, tells each failure on log, and
// turns how Run ended into the command's error: a build error or failures
// are an exitcode.Failure, a -bench matching nothing or a bad package bad
// usage, an interruption an exitcode.Interruption, the points kept.
func Ended(res Result, runErr error, write func([]results.Point) error, log io.Writer) error {
	var build *BuildError
	var noMatch *NoMatchError
	var pkgErr *PackageError
	switch {
	case errors.As(runErr, &build):
		return exitcode.Failure{Err: runErr}
	case errors.As(runErr, &noMatch):
		return fmt.Errorf("-bench: %w", runErr)
	case errors.As(runErr, &pkgErr):
		return runErr
	}
	if len(res.Points) > 0 {
		if err := write(res.Points); err != nil {
			return exitcode.Failure{Err: err}
		}
	}
	for _, fl := range res.Failures {
		fmt.Fprintf(log, "FAIL: %v\n", fl)
	}
	switch {
	case errors.Is(runErr, context.Canceled):
		return exitcode.Interruption{Err: fmt.Errorf("interrupted after %s; kept what was measured", format.Count(len(res.Points), "point"))}
	case runErr != nil:
		return exitcode.Failure{Err: runErr}
	case len(res.Failures) > 0:
		return exitcode.Failure{Err: fmt.Errorf("%s failed; the report and the table hold the %s measured", format.Count(len(res.Failures), "benchmark run"), format.Count(len(res.Points), "point"))}
	}
	return nil
}
