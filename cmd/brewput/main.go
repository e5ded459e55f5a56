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

	"github.com/brewput/brewput/lab"
)

// Exit statuses.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
	// exitInterrupted is the shell's status for a program stopped by
	// Ctrl-C (128 + SIGINT), kept by brewput when it stops on one after
	// saving what it measured.
	exitInterrupted = 130
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
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
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	fmt.Fprintf(e.stderr, "brewput: %v\n", err)
	var f failure
	var i interrupted
	switch {
	case errors.As(err, &i):
		return exitInterrupted
	case errors.As(err, &f):
		return exitFailure
	}
	return exitUsage
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

// failure marks an error that is not the user's input: a measurement that
// went wrong, an interrupted run. Every other error is bad usage.
type failure struct{ err error }

func (f failure) Error() string { return f.err.Error() }
func (f failure) Unwrap() error { return f.err }

// interrupted marks a run stopped by the user (Ctrl-C) after it saved what
// it had measured.
type interrupted struct{ err error }

func (i interrupted) Error() string { return i.err.Error() }
func (i interrupted) Unwrap() error { return i.err }
