// Package cmdline is what the validation commands share to read their
// flags and run other commands: a failure ends the calling command with
// its message.
package cmdline

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
)

// Run runs name with args, its standard error passed through.
func Run(name string, args ...string) {
	cmd := exec.Command(name, args...)
	cmd.Stderr = os.Stderr
	Check(cmd.Run())
}

// Output runs name with args and returns its standard output, its
// standard error passed through.
func Output(name string, args ...string) []byte {
	cmd := exec.Command(name, args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	Check(err)
	return out
}

// Check ends the command with err, if not nil.
func Check(err error) {
	if err != nil {
		Fail(err)
	}
}

// Fail ends the command with err, named after the command, status 1.
func Fail(err error) {
	fmt.Fprintf(os.Stderr, "%s: %v\n", filepath.Base(os.Args[0]), err)
	os.Exit(1)
}

// Bad ends the command with err, named after the command, status 2: for
// input refused before any work starts.
func Bad(err error) {
	fmt.Fprintf(os.Stderr, "%s: %v\n", filepath.Base(os.Args[0]), err)
	os.Exit(2)
}

// Parse parses the command line's flags (flag.CommandLine), which takes
// no arguments besides them; a bad flag or an argument ends the command
// in one line (Bad) instead of the flag package's usage text, and -h
// prints the flags.
func Parse() {
	fs := flag.CommandLine
	fs.Init(fs.Name(), flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	err := fs.Parse(os.Args[1:])
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(os.Stderr)
		fs.PrintDefaults()
		os.Exit(0)
	}
	if err != nil {
		Bad(err)
	}
	if fs.NArg() > 0 {
		Bad(fmt.Errorf("unexpected argument %q: the command takes flags only", fs.Arg(0)))
	}
}
