package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/brewput/brewput/internal/cliflag"
	"github.com/brewput/brewput/internal/exitcode"
	"github.com/brewput/brewput/internal/hold"
	"github.com/brewput/brewput/internal/sweep"
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/results"
)

// env is what a command reads and writes besides its flags.
type env struct {
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
	holds []*hold.Hold
	// progress, where set, starts showing on stderr how far a study's
	// simulation has got (see lateBar): done takes the points so far,
	// finish clears what it showed. nil where stderr is read whole, as in
	// the tests and the playground, whose output must not depend on how
	// long a run took.
	progress func(st *sweep.Batch) (done func([]results.Point), finish func())
}

// hold claims the output at path, which --out named, for this run, before
// anything is measured: one another live run writes is refused, naming
// that run.
func (e *env) hold(path string) error {
	h, err := hold.Take(path)
	if err != nil {
		return fmt.Errorf("--out %w", err)
	}
	e.holds = append(e.holds, h)
	return nil
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

// failure marks an error that is not the user's input (exit 1); every
// other error is bad usage (2).
type failure = exitcode.Failure

// interrupted marks a run stopped by a signal after it saved what it had
// measured (exit 128 + the signal).
type interrupted = exitcode.Interruption

// unknownArgs turns stray arguments into a usage error naming them.
func unknownArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("%s takes no arguments, got %q; see %s --help", cmd.CommandPath(), args[0], cmd.CommandPath())
	}
	return nil
}

// finishRoot gives root, once its commands are added, what every command
// of the program shares: e's streams, flag errors that say what a flag
// accepts, non-finite numbers refused before any command runs, and each
// command's long help.
func finishRoot(root *cobra.Command, e *env) {
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return cliflag.Explain(err) })
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error { return cliflag.CheckFinite(cmd.Flags()) }
	root.CompletionOptions.DisableDefaultCmd = true
	setHelp(root)
}

// execute runs root with args in e and maps its error to an exit status: a
// failure is 1, any other error bad usage (2).
func execute(ctx context.Context, root *cobra.Command, args []string, e *env) int {
	root.SetArgs(args)
	defer e.release()
	err := root.ExecuteContext(ctx)
	if err != nil {
		fmt.Fprintf(e.stderr, "brewput: %v\n", err)
	}
	return exitcode.Of(err, exitcode.OfSignal(ctx))
}
