package testkit

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/brewput/brewput/internal/base/collect"
)

// DirNames are dir's entries' names, sorted; it fails t if dir cannot be read.
func DirNames(t testing.TB, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return collect.Mapped(entries, os.DirEntry.Name)
}

// BadProfileBases are profile bases (paths without extensions) that name
// no writable files, each with what its error says: a folder, a path
// under a missing folder, one under a file, the current folder.
func BadProfileBases(t testing.TB, dir string) map[string]string {
	t.Helper()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return map[string]string{
		dir + "/":                       "want a path that names the files",
		filepath.Join(dir, "none", "x"): "no such file or directory",
		filepath.Join(file, "x"):        "is not a folder",
		".":                             "want a path that names the files",
	}
}
