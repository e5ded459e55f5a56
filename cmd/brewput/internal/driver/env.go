package driver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/modelcli"
	"github.com/brewput/brewput/cmd/brewput/internal/driver/outfile"
	"github.com/brewput/brewput/coffee/shopsweep"
	"github.com/brewput/brewput/experiment"
	"github.com/brewput/brewput/internal/base/atomicfile"
	"github.com/brewput/brewput/internal/base/exitcode"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/model/curves"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// env is what a command reads and writes besides its flags. Past the
// streams and progress, a zero field means the usual; the tests set them.
type env struct {
	dir            string // where a benchmark's go command runs; "" is the working folder
	stdin          io.Reader
	stdout, stderr io.Writer
	child          childCommand     // the child that measures a point; this program's "point"
	labList        func() []lab.Lab // lab/all's
	lessonsTiny    bool             // one sample a claim: the tests check wiring, not claims
	holds          []*outfile.Hold  // the outputs this run writes, held until it ends
	// progress shows how far a study's simulation has got (lateBar): nil
	// where stderr is read whole and must not depend on a run's speed.
	progress        func(st *shopsweep.Batch) (done func([]results.Point), finish func())
	calibrateCosts  calibrate.Measurer // the go policy's costs where none are saved
	calibrateCurves curves.Options     // how brewput calibrate measures the curves
	analyze         func([]results.Point, experiment.Options) (*analysis.Analysis, error)
	platformNoted   bool // notePlatform has told sweep.PlatformNote
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

// replaceable refuses, before any work, an output a rename cannot replace
// when the run ends: the working folder, a folder holding it, a mount point.
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

// model is e as the model's commands take it.
func (e *env) model() modelcli.Env {
	return modelcli.Env{Stdout: e.stdout, Stderr: e.stderr, Measure: e.calibrateCosts, Progress: e.progress, Hold: e.hold}
}

func (e *env) tell(line string) { format.Lines(e.stderr, "")(line) }

func (e *env) release() {
	for _, h := range e.holds {
		h.Release()
	}
	e.holds = nil
}

type childCommand struct {
	path      string
	args, env []string
}

// failure marks an error that is not the user's input (exit 1); failed
// marks err, where there is one, as one.
type failure = exitcode.Failure

func failed(err error) error {
	if err != nil {
		return failure{Err: err}
	}
	return nil
}

// rendering runs work, which reads files and renders them (a folder
// written whole, or nothing), until it returns or ctx ends: a signal ends
// it at once, its goroutine left to the program's exit, which follows.
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
