// Command brewput measures how the structure of a concurrent Go program
// (locks, channels, pipelines, buffers, replicas) shapes its throughput,
// latency, contention and CPU use, on a coffee shop.
//
// Run it with no arguments for a short default sweep, or see
// `brewput --help` and `brewput run --help`.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/brewput/brewput/internal/exitcode"
	"github.com/brewput/brewput/internal/hold"
	"github.com/brewput/brewput/lab"
)

func main() {
	ctx, stop := exitcode.SignalContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is the whole program, with its streams and arguments passed in so that
// tests can call it.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runEnv(ctx, args, &env{stdin: stdin, stdout: stdout, stderr: stderr})
}

// runEnv runs the program with args in e and maps its error to an exit
// status: a failure is 1, any other error bad usage (2).
func runEnv(ctx context.Context, args []string, e *env) int {
	root := newRoot(e)
	root.SetArgs(args)
	defer e.release()
	err := root.ExecuteContext(ctx)
	if err != nil {
		fmt.Fprintf(e.stderr, "brewput: %v\n", err)
	}
	return exitcode.Of(err, exitcode.OfSignal(ctx))
}

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
