// Package exitcode holds the exit statuses of brewput's command lines (the
// brewput command's and a study's) and the errors that choose them: bad
// input is the default, a Failure is not the user's input, an Interruption
// is a run stopped by a signal after it saved what it had.
package exitcode

import (
	"context"
	"errors"
	"fmt"
)

// Exit statuses.
const (
	OK    = 0
	Fail  = 1
	Usage = 2
	// Interrupted is the shell's status for a program stopped by Ctrl-C
	// (128 + SIGINT).
	Interrupted = 130
)

// Failure marks an error that is not the user's input: a measurement that
// went wrong, an interrupted run. Every other error is bad usage.
type Failure struct {
	// Err is what failed.
	Err error
}

// Error is the error's own.
func (f Failure) Error() string { return f.Err.Error() }

// Unwrap returns the error.
func (f Failure) Unwrap() error { return f.Err }

// Interruption marks a run stopped by the user (Ctrl-C) after it saved
// what it had done.
type Interruption struct {
	// Err says how far the run got.
	Err error
}

// Error is the error's own.
func (i Interruption) Error() string { return i.Err.Error() }

// Unwrap returns the error.
func (i Interruption) Unwrap() error { return i.Err }

// Of is the exit status for how a command ended: OK without an error,
// interrupted for an Interruption, Fail for a Failure, Usage for any
// other error.
func Of(err error, interrupted int) int {
	var f Failure
	var i Interruption
	switch {
	case err == nil:
		return OK
	case errors.As(err, &i):
		return interrupted
	case errors.As(err, &f):
		return Fail
	}
	return Usage
}

// Ended turns how a run of total things ended, done of them done, into its
// command's error: none; an Interruption for a cancelled context, saying
// how far it got ("interrupted after 3 of 8 points; kept what was
// measured", noun "points", kept "what was measured"); or err as a Failure.
func Ended(err error, done, total int, noun, kept string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.Canceled):
		return Interruption{fmt.Errorf("interrupted after %d of %d %s; kept %s", done, total, noun, kept)}
	}
	return Failure{err}
}

// Measured is Ended for a run that measures points, one that fails after
// its first point saying how far it got ("after 3 of 8 points: ...").
func Measured(err error, done, total int) error {
	if err != nil && done > 0 && !errors.Is(err, context.Canceled) {
		err = fmt.Errorf("after %d of %d points: %w", done, total, err)
	}
	return Ended(err, done, total, "points", "what was measured")
}
