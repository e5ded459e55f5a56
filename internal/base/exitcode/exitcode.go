// Package exitcode says how a brewput command line ends: its exit statuses
// and the errors that choose them.
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
	// Interrupted is the shell's status for Ctrl-C (128 + SIGINT).
	Interrupted = 130
)

// Failure marks an error that is not the user's input, such as a
// measurement that went wrong; every other error is bad usage.
type Failure struct{ Err error }

func (f Failure) Error() string { return f.Err.Error() }
func (f Failure) Unwrap() error { return f.Err }

// Interruption marks a run the user stopped (Ctrl-C) after it saved what
// it had; Err says how far it got.
type Interruption struct{ Err error }

func (i Interruption) Error() string { return i.Err.Error() }
func (i Interruption) Unwrap() error { return i.Err }

// Of is the exit status for how a command ended.
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

// Ended turns how a run of total things ended, done of them done, into
// its command's error: an Interruption for a cancelled context, else err
// as a Failure.
func Ended(err error, done, total int, noun, kept string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.Canceled):
		return Interruption{fmt.Errorf("interrupted after %d of %d %s; kept %s", done, total, noun, kept)}
	}
	return Failure{err}
}

// Measured is Ended for points, saying how far a failed run got.
func Measured(err error, done, total int) error {
	if err != nil && done > 0 && !errors.Is(err, context.Canceled) {
		err = fmt.Errorf("after %d of %d points: %w", done, total, err)
	}
	return Ended(err, done, total, "points", "what was measured")
}

// Together is how close signals are one: `timeout -s INT` and some
// terminals send an interrupt twice, ms apart, which is no second Ctrl-C.
const Together = 200 * time.Millisecond

// SignalContext is cancelled by the first of sigs, its cause; those within
// Together are the same one, and after that they take their default
// action again, so a second Ctrl-C ends the program at once.
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

type caught struct{ sig os.Signal }

func (c caught) Error() string { return "caught " + c.sig.String() }

// OfSignal is the shell's status of a program ended by the signal that
// cancelled ctx (128 + its number); Interrupted for another cancellation.
func OfSignal(ctx context.Context) int {
	var c caught
	if errors.As(context.Cause(ctx), &c) {
		if s, ok := c.sig.(syscall.Signal); ok {
			return 128 + int(s)
		}
	}
	return Interrupted
}
