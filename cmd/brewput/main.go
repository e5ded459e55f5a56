// Command brewput measures how the structure of a concurrent Go program
// (locks, channels, pipelines, buffers, replicas) shapes its throughput,
// latency, contention and CPU use, on a coffee shop.
//
// Run it with no arguments for a short default sweep, or see
// `brewput --help` and `brewput run --help`.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/brewput/brewput/internal/exitcode"
	"github.com/brewput/brewput/lab"
)

// Exit statuses (see package exitcode).
const (
	exitOK          = exitcode.OK
	exitFailure     = exitcode.Fail
	exitUsage       = exitcode.Usage
	exitInterrupted = exitcode.Interrupted
)

func main() {
	ctx, stop := signalContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// signalContext is cancelled by the first of sigs, with a caught signal
// as its cause, after which each of sigs takes its default action again:
// a second Ctrl-C ends brewput at once. Ctrl-C (SIGINT), a kill (SIGTERM)
// and a closed terminal (SIGHUP) all stop a run in good order: it keeps
// what it measured and writes its results.
func signalContext(parent context.Context, sigs ...os.Signal) (context.Context, func()) {
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

// exitCode is the shell's status of a program ended by the signal that
// cancelled ctx (128 + its number: 130 for Ctrl-C, 143 for SIGTERM, 129
// for SIGHUP), kept by brewput when it stops on one after saving what it
// measured; exitInterrupted for a context cancelled otherwise.
func exitCode(ctx context.Context) int {
	var c caught
	if errors.As(context.Cause(ctx), &c) {
		if s, ok := c.sig.(syscall.Signal); ok {
			return 128 + int(s)
		}
	}
	return exitInterrupted
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
	err := root.ExecuteContext(ctx)
	if err != nil {
		fmt.Fprintf(e.stderr, "brewput: %v\n", err)
	}
	return exitcode.Of(err, exitCode(ctx))
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
