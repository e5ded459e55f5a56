// Package driver is brewput's command layer: the commands, their flags
// and the jobs they run. cmd/brewput is its main.
package driver

import (
	"context"
	"io"
	"os"
	"syscall"

	"github.com/brewput/brewput/internal/base/exitcode"
)

// Main runs brewput on this process's arguments and returns its exit status.
func Main() int {
	ctx, stop := exitcode.SignalContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	return run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
}

// run is the whole program, its streams and arguments passed in.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runEnv(ctx, args, &env{stdin: stdin, stdout: stdout, stderr: stderr, progress: lateBar(stderr)})
}

// runEnv runs args in e and maps the error to an exit status (env.exit).
func runEnv(ctx context.Context, args []string, e *env) int {
	root := newRoot(e)
	root.SetArgs(args)
	defer e.release()
	return e.exit(ctx, root.ExecuteContext(ctx))
}
