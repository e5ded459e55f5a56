package driver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/brewput/brewput/coffee/shopsweep"
	"github.com/brewput/brewput/experiment"
	"github.com/brewput/brewput/internal/base/atomicfile"
	"github.com/brewput/brewput/internal/base/exitcode"
	"github.com/brewput/brewput/internal/driver/outfile"
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/model/curves"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// env is what a command reads and writes besides its flags.
type env struct {
	// dir is where a benchmark's go command runs and its package patterns
	// are read from; "" is this process's working directory. The tests of
	// a module of its own set it, and run beside others.
	dir            string
	stdin          io.Reader
	stdout, stderr io.Writer
	// child is how to start the child process that measures one point; by
	// default this very program with its hidden "point" command.
	child childCommand
	// labList lists the labs; by default lab/all's.
	labList func() []lab.Lab
	// lessonsTiny makes lessons runs measure the tiny level, one sample a
	// claim: the tests' runs, which check wiring, not the claims.
	lessonsTiny bool
	// holds are the outputs this run writes, held from other runs until
	// it ends (see package hold).
	holds []*outfile.Hold
	// progress, where set, starts showing on stderr how far a study's
	// simulation has got (see lateBar): done takes the points so far,
	// finish clears what it showed. nil where stderr is read whole, as in
	// the tests and the playground, whose output must not depend on how
	// long a run took.
	progress func(st *shopsweep.Batch) (done func([]results.Point), finish func())
	// calibrateCosts measures the go policy's costs where none are saved;
	// nil for the usual way (calibrate.MeasureQuiet). The tests give a
	// measurement of their own, quiet or busy, as they need.
	calibrateCosts calibrate.Measurer
	// calibrateCurves is how brewput calibrate measures the contention
	// curves; zero for their defaults. The tests of the command, which
	// check what it prints and saves, not the figures, measure briefly.
	calibrateCurves curves.Options
	// analyze makes the analysis of points read back without one; by
	// default experiment.Analyze.
	analyze func([]results.Point, experiment.Options) (*analysis.Analysis, error)
	// platformNoted is set once notePlatform has told sweep.PlatformNote.
	platformNoted bool
}

// analyzer is the env's analyze, experiment.Analyze by default.
func (e *env) analyzer() func([]results.Point, experiment.Options) (*analysis.Analysis, error) {
	if e.analyze != nil {
		return e.analyze
	}
	return experiment.Analyze
}

// hold claims the output --out names for this run, before anything is
// measured; one another live run writes is refused.
func (e *env) hold(path string) error {
	if err := replaceable(path); err != nil {
		return err
	}
	h, err := outfile.Take(path)
	if err != nil {
		return fmt.Errorf("--out %w", err)
	}
	e.holds = append(e.holds, h)
	return nil
}

// replaceable refuses, before any work, an output that the finished run
// could not put in place: the working folder or a folder that holds it,
// which a rename cannot replace.
func replaceable(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil // said when the output is written
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil
	}
	what := "is a mount point"
	if rel, err := filepath.Rel(abs, wd); err == nil && (rel == "." || !strings.HasPrefix(rel, "..")) {
		what = "is the working folder or holds it"
	} else if !atomicfile.MountPoint(abs) {
		return nil
	}
	return fmt.Errorf("--out %s: %s, which the finished run cannot replace; give a folder inside it, such as %s",
		path, what, filepath.Join(path, "brewput-report"))
}

// release gives up the run's holds.
func (e *env) release() {
	for _, h := range e.holds {
		h.Release()
	}
	e.holds = nil
}

type childCommand struct {
	path string
	args []string
	env  []string
}

// failure marks an error that is not the user's input (exit 1).
type failure = exitcode.Failure

// failed marks err, where there is one, as a failure (exit 1).
func failed(err error) error {
	if err != nil {
		return failure{Err: err}
	}
	return nil
}

// interrupted marks a run stopped by a signal (exit 128 + the signal).
type interrupted = exitcode.Interruption

// rendering runs work, which reads files and renders them (writing its
// folder whole at its end, or nothing), until it returns or ctx ends: a
// signal ends a report of a large file at once, the output as it was.
// On a signal work's goroutine is left to the program's exit, which
// follows; a folder it had begun is a staging folder the next run
// clears.
func rendering(ctx context.Context, work func() error) error {
	done := make(chan error, 1)
	go func() { done <- work() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return exitcode.Interruption{Err: errors.New("interrupted; nothing was written")}
	}
}
