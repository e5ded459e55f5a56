//go:build !js

// Command brewput measures how the structure of a concurrent Go program
// (locks, channels, pipelines, buffers, replicas) shapes its throughput,
// latency, contention and CPU use, on a coffee shop: see brewput --help.
package main

import (
	"context"
	"io"
	"os"
	"syscall"

	"github.com/brewput/brewput/internal/base/exitcode"
)

func main() {
	ctx, stop := exitcode.SignalContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is the whole program, its streams and arguments passed in.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runEnv(ctx, args, &env{stdin: stdin, stdout: stdout, stderr: stderr, progress: lateBar(stderr)})
}

// runEnv runs the program with args in e and maps its error to an exit
// status (env.exit).
func runEnv(ctx context.Context, args []string, e *env) int {
	root := newRoot(e)
	root.SetArgs(args)
	defer e.release()
	return e.exit(ctx, root.ExecuteContext(ctx))
}
