// Package labtest holds the checks every lab's tests make of its input
// handling, so that each lab asks the same of its error messages.
package labtest

import (
	"strings"
	"testing"
)

// FlagError fails t unless err is a one-line error that starts with flag,
// as a lab's Validate messages must: the CLI puts "--" before them.
func FlagError(t testing.TB, flag string, err error) {
	t.Helper()
	if err == nil || !strings.HasPrefix(err.Error(), flag+" ") && !strings.HasPrefix(err.Error(), flag+":") {
		t.Errorf("%s: Validate() = %v, want an error starting with %q", flag, err, flag)
	} else if strings.Contains(err.Error(), "\n") {
		t.Errorf("%s: error on more than one line: %q", flag, err)
	}
}

// RejectsBadCPUs fails t unless run refuses an empty CPU list and one
// holding 0 with an error about cpus.
func RejectsBadCPUs(t testing.TB, run func(cpus []int) error) {
	t.Helper()
	for _, cpus := range [][]int{nil, {2, 0}} {
		if err := run(cpus); err == nil || !strings.HasPrefix(err.Error(), "cpus") {
			t.Errorf("Run with cpus %v: %v, want an error about cpus", cpus, err)
		}
	}
}
