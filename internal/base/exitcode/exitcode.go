// Package exitcode answers how a brewput command line ends: its exit
// statuses and the errors that choose them (bad input by default, a
// Failure, an Interruption after a run saved what it had).
package exitcode

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"
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
// went wrong. Every other error is bad usage.
type Failure struct{ Err error }

// Error is the error's own.
func (f Failure) Error() string { return f.Err.Error() }

// Unwrap returns the error.
func (f Failure) Unwrap() error { return f.Err }

// Interruption marks a run stopped by the user (Ctrl-C) after it saved
// what it had done; Err says how far it got.
type Interruption struct{ Err error }

// Error is the error's own.
func (i Interruption) Error() string { return i.Err.Error() }

// Unwrap returns the error.
func (i Interruption) Unwrap() error { return i.Err }

// Of is the exit status for how a command ended: interrupted for an
// Interruption, Fail for a Failure, Usage for any other error.
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
// command's error: an Interruption for a cancelled context ("interrupted
// after 3 of 8 points; kept what was measured"), else err as a Failure.
func Ended(err error, done, total int, noun, kept string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.Canceled):
		return Interruption{fmt.Errorf("interrupted after %d of %d %s; kept %s", done, total, noun, kept)}
	}
	return Failure{err}
}

// Measured is Ended for a run that measures points, saying how far a
// failed one got ("after 3 of 8 points: ...").
func Measured(err error, done, total int) error {
	if err != nil && done > 0 && !errors.Is(err, context.Canceled) {
		err = fmt.Errorf("after %d of %d points: %w", done, total, err)
	}
	return Ended(err, done, total, "points", "what was measured")
}

// Together is how close signals come to be one: `timeout -s INT` and some
// terminals send an interrupt twice, milliseconds apart, which is not a
// second Ctrl-C.
const Together = 200 * time.Millisecond

// SignalContext is cancelled by the first of sigs, the signal its cause;
// those that follow within Together are the same one, and after that
// they take their default action again: a second, deliberate Ctrl-C ends
// the program at once. stop releases it.
func SignalContext(parent context.Context, sigs ...os.Signal) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 4)
	signal.Notify(ch, sigs...)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			cancel(caught{sig})
		case <-done:
			return
		}
		together := time.NewTimer(Together)
		defer together.Stop()
		for {
			select {
			case <-ch: // the first one again
			case <-together.C:
				signal.Reset(sigs...)
				return
			case <-done:
				return
			}
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}

// caught is the cause of a context cancelled by a signal.
type caught struct{ sig os.Signal }

func (c caught) Error() string { return "caught " + c.sig.String() }

// OfSignal is the shell's status of a program ended by the signal that
// cancelled ctx: 128 + its number (130 for Ctrl-C); Interrupted for a
// context cancelled otherwise.
func OfSignal(ctx context.Context) int {
	var c caught
	if errors.As(context.Cause(ctx), &c) {
		if s, ok := c.sig.(syscall.Signal); ok {
			return 128 + int(s)
		}
	}
	return Interrupted
}
