package testkit

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/pprof/profile"
)

// ParseProfiles fails t for each of paths that cannot be opened or is not a
// profile pprof can parse.
func ParseProfiles(t testing.TB, paths ...string) {
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

// BadProfileBases are bases of a profile's files (paths without the extensions,
// as profile.Start takes them) that name no files one can write, made in
// dir, each with what its error says: a folder, a path under a folder
// that does not exist, a path under a file (dir/file, which BadProfileBases
// writes), the current folder.
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
