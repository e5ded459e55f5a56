package driver

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/modelcli"
	"github.com/brewput/brewput/coffee/shopsweep"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/measure/record"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// planMeasured is sf's plan of a measurement on this machine's CPUs, its
// --profile folder checked.
func planMeasured(sf *modelcli.StudyFlags, fs *pflag.FlagSet) (*shopsweep.Batch, error) {
	st, err := sf.Plan(fs, runtime.NumCPU())
	if err == nil && fs.Changed("profile") {
		err = record.CheckDir(sf.Profile)
	}
	return st, err
}

// measure measures what have lack of st, in child processes.
func (e *env) measure(ctx context.Context, st *shopsweep.Batch, have []results.Point, add func(*results.Point) error) ([]results.Point, error) {
	runner, err := e.runner()
	if err != nil {
		return nil, err
	}
	return runner.MeasureRest(ctx, st, have, e.stderr, text.SweepWords{}, add)
}

// runner returns the Runner that measures each point in a child process.
func (e *env) runner() (shopsweep.Runner, error) {
	e.notePlatform()
	if e.child.path != "" {
		return shopsweep.Runner{Path: e.child.path, Args: e.child.args, Env: e.child.env}, nil
	}
	self, err := os.Executable()
	if err != nil {
		return shopsweep.Runner{}, failure{Err: fmt.Errorf("find brewput's own executable to measure in a child process: %w", err)}
	}
	return shopsweep.Runner{Path: self, Args: []string{"point"}}, nil
}

// notePlatform tells once what a measurement lacks off Linux.
func (e *env) notePlatform() {
	if sweep.PlatformNote != "" && !e.platformNoted {
		e.platformNoted = true
		format.Lines(e.stderr, "")(sweep.PlatformNote)
	}
}

// newPointCmd is the child side of a sweep (shopsweep.ServeChild), hidden.
func newPointCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:    "point",
		Short:  "Measure one point given as JSON on stdin (used by brewput itself)",
		Hidden: true,
		Args:   unknownArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return failed(shopsweep.ServeChild(cmd.Context(), e.stdin, e.stdout))
		},
	}
}

// progressAfter is how long a simulation runs before it shows its
// progress; progressEvery how often the bar is redrawn between points.
const (
	progressAfter = 2 * time.Second
	progressEvery = time.Second
)

// lateBar is env.progress for stderr w where it is a terminal: sweep's
// bar, shown from progressAfter on.
func lateBar(w io.Writer) func(*shopsweep.Batch) (func([]results.Point), func()) {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return func(st *shopsweep.Batch) (func([]results.Point), func()) {
		return late(w, st, time.Now(), progressAfter)
	}
}

// late shows st's progress on w once after has passed since start,
// redrawn every progressEvery: done takes the points so far, finish
// clears it.
func late(w io.Writer, st *shopsweep.Batch, start time.Time, after time.Duration) (done func([]results.Point), finish func()) {
	var mu sync.Mutex // done and the redrawing share the bar
	var bar *sweep.Progress
	due := func() bool { // with mu held
		if bar == nil && time.Since(start) >= after {
			bar = sweep.NewBar(w, text.SweepWords{}, *st).Since(start)
		}
		return bar != nil
	}
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(progressEvery)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				mu.Lock()
				if due() {
					bar.Tick()
				}
				mu.Unlock()
			}
		}
	}()
	done = func(points []results.Point) {
		mu.Lock()
		defer mu.Unlock()
		if due() && len(points) > 0 {
			bar.Done(points)
		}
	}
	finish = func() {
		close(stop)
		<-stopped
		mu.Lock()
		defer mu.Unlock()
		if bar != nil {
			bar.Finish(nil)
		}
	}
	return done, finish
}
