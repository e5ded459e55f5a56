// Package dirtest lists a folder for tests that check what a command or a
// library left in it: one helper for every package whose tests need it.
package dirtest

import (
	"os"
	"testing"
)

// Names returns the names of the entries of dir, sorted by name as
// os.ReadDir sorts them; it fails t if dir cannot be read.
func Names(t testing.TB, dir string) []string {
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
