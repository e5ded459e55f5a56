package cliflag

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPackageHint: a folder here written without ./ gets the hint; a
// pattern with ./, a name that is no folder here, and another error do
// not.
func TestPackageHint(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "examples", "cache"), 0o755); err != nil {
		t.Fatal(err)
	}
	const std = "package examples/cache is not in std (/usr/local/go/src/examples/cache)"
	for _, c := range []struct {
		pattern, msg, want string
	}{
		{"examples/cache", std, std + "; did you mean ./examples/cache? (without ./ the go command reads it as an import path)"},
		{"examples/cache/...", std, std + "; did you mean ./examples/cache/...? (without ./ the go command reads it as an import path)"},
		{"./examples/cache", std, std},
		{"examples/nothere", std, std},
		{"examples/cache", "cannot find module providing package examples/cache", "cannot find module providing package examples/cache"},
	} {
		if got := PackageHint(dir, c.pattern, c.msg); got != c.want {
			t.Errorf("PackageHint(%q, %q):\n%q\nwant\n%q", c.pattern, c.msg, got, c.want)
		}
	}
}
