package testkit

import (
	"os"
	"testing"
)

// DirNames returns the names of the entries of dir, sorted by name as
// os.ReadDir sorts them; it fails t if dir cannot be read.
func DirNames(t testing.TB, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
