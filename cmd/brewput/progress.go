//go:build !js

package main

import (
	"io"
	"os"
	"time"

	"golang.org/x/term"

	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/results"
)

// progressAfter is how long a simulation runs before it shows how far it
// has got: an answer that comes quickly prints nothing but itself.
const progressAfter = 2 * time.Second

// lateBar is env.progress for stderr w where it is a terminal (a log
// should not depend on the machine's speed): sweep's bar, shown from
// progressAfter on.
func lateBar(w io.Writer) func(*sweep.Batch) (func([]results.Point), func()) {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return func(st *sweep.Batch) (func([]results.Point), func()) { return late(w, st, time.Now(), progressAfter) }
}

// late shows st's progress on w once after has passed since start: done
// takes the points so far, finish clears what was shown.
func late(w io.Writer, st *sweep.Batch, start time.Time, after time.Duration) (done func([]results.Point), finish func()) {
	var bar *sweep.Progress
	done = func(points []results.Point) {
		if bar == nil {
			if time.Since(start) < after {
				return
			}
			bar = sweep.NewBar(w, *st)
		}
		bar.Done(points)
	}
	finish = func() {
		if bar != nil {
			bar.Finish(nil)
		}
	}
	return done, finish
}
