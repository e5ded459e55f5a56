package sweep

import (
	"context"
	"os"
	"time"
)

// parentPoll is how often a child looks whether its parent is still there.
const parentPoll = 100 * time.Millisecond

// WhileParentLives returns a context that is cancelled, besides with ctx,
// when the process that started this one ends (a killed brewput, whose
// child would go on measuring), as its parent process id changes. stop
// ends the watch.
func WhileParentLives(ctx context.Context) (context.Context, func()) {
	return watchParent(ctx, os.Getppid, parentPoll)
}

// watchParent is WhileParentLives with the parent's id read by ppid every
// every.
func watchParent(ctx context.Context, ppid func() int, every time.Duration) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	parent := ppid()
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if ppid() != parent {
					cancel()
					return
				}
			}
		}
	}()
	return ctx, func() { cancel(); <-done }
}
