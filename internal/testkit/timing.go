package testkit

import (
	"runtime"
	"testing"

	"github.com/brewput/brewput/internal/race"
)

// Timing skips t where a timing it would measure says nothing: under the
// race detector, which slows everything unevenly; with -short, as it
// takes seconds; or on a machine with fewer than cpus CPUs.
func Timing(t testing.TB, cpus int) {
	t.Helper()
	switch {
	case race.Enabled:
		t.Skip("timing under the race detector says nothing")
	case testing.Short():
		t.Skip("measures real timings for seconds")
	case runtime.NumCPU() < cpus:
		t.Skipf("needs %d CPUs", cpus)
	}
}
