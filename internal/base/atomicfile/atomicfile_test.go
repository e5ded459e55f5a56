package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A file appears, whole and readable by all, only when committed; a
// discarded one leaves nothing.
func TestFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("half"))
	if _, err := os.Stat(path); err == nil {
		t.Error("the file is there before Commit")
	}
	f.Write([]byte(" and whole"))
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(path); err != nil || string(data) != "half and whole" {
		t.Errorf("read %q, %v", data, err)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", info.Mode().Perm())
	}
	g, err := Create(filepath.Join(dir, "gone"))
	if err != nil {
		t.Fatal(err)
	}
	g.Discard()
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d entries after a discard, want the committed file only", len(entries))
	}
	if err := WriteFile(filepath.Join(dir, "w"), []byte("x")); err != nil {
		t.Error(err)
	}
	for path, want := range map[string]string{dir: "is a directory", "/nonexistent-dir/x": "cannot write in /nonexistent-dir"} {
		if _, err := Create(path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Create(%s) = %v, want %q", path, err, want)
		}
	}
}
