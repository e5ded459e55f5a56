// Package cmdline is what the validation commands share to run other
// commands: a failure ends the calling command with its message.
package cmdline

import (
	"fmt"
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
