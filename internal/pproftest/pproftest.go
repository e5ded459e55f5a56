// Package pproftest checks, for tests, that files brewput wrote are
// profiles pprof reads.
package pproftest

import (
	"os"
	"testing"

	"github.com/google/pprof/profile"
)

// Parse fails t for each of paths that cannot be opened or is not a
// profile pprof can parse.
func Parse(t testing.TB, paths ...string) {
	t.Helper()
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		_, err = profile.Parse(f)
		f.Close()
		if err != nil {
			t.Errorf("%s: %v", path, err)
		}
	}
}
