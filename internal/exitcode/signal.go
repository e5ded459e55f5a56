package exitcode

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
)

// SignalContext is cancelled by the first of sigs, with a caught signal
// as its cause, after which each of sigs takes its default action again:
// a second Ctrl-C ends the program at once. Ctrl-C (SIGINT), a kill
// (SIGTERM) and a closed terminal (SIGHUP) all stop a run in good order:
// it keeps what it measured and writes its results. stop releases it.
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
// cancelled ctx (SignalContext): 128 + its number, 130 for Ctrl-C, 143
// for SIGTERM, 129 for SIGHUP, kept by a program that stops on one after
// saving what it measured; Interrupted for a context cancelled otherwise.
func OfSignal(ctx context.Context) int {
	var c caught
	if errors.As(context.Cause(ctx), &c) {
		if s, ok := c.sig.(syscall.Signal); ok {
			return 128 + int(s)
		}
	}
	return Interrupted
}
