package exitcode

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
)

// SignalContext is cancelled by the first of sigs, the signal its cause,
// after which they take their default action again: a second Ctrl-C ends
// the program at once. stop releases it.
func SignalContext(parent context.Context, sigs ...os.Signal) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, sigs...)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			signal.Reset(sigs...)
			cancel(caught{sig})
		case <-done:
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
