package lessons

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/brewput/brewput/results/lesson"
)

// RunTelling is Run, telling log what it measures (a line naming how many
// claims, the level, the most time the run takes, the host and its CPUs)
// and each verdict as it is reached ("[2/9] …", see Line), before emit
// hears it.
func RunTelling(ctx context.Context, claims []Claim, opt Options, log io.Writer, emit func(lesson.Result) error) ([]lesson.Result, error) {
	host, _ := os.Hostname()
	fmt.Fprintf(log, "measuring %d claims (%s run, at most %v) on %s, %d CPUs\n",
		len(claims), opt.Level, atMost(opt.Level).Round(time.Second), host, runtime.NumCPU())
	done := 0
	return Run(ctx, claims, opt, func(r lesson.Result) error {
		done++
		fmt.Fprintf(log, "[%d/%d] %s\n", done, len(claims), Line(r))
		return emit(r)
	})
}

// atMost is the time a run of level takes at most, as the user is told:
// its budget and the last claim's verdict.
func atMost(l Level) time.Duration {
	switch l {
	case Quick:
		return time.Minute
	case Tiny:
		return 10 * time.Second
	}
	return 10 * time.Minute
}
