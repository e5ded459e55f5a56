package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// CheckDir accepts a folder that can be made, and creates nothing; it
// refuses a file in the folder's place, saying what the folder is for,
// and a path through a file.
func TestCheckDir(t *testing.T) {
	dir := t.TempDir()
	if err := CheckDir(filepath.Join(dir, "a", "b"), "the report"); err != nil {
		t.Errorf("CheckDir of a folder that can be made: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "a")); err == nil {
		t.Errorf("CheckDir created %s", filepath.Join(dir, "a"))
	}
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CheckDir(file, "the pictures"); err == nil || !strings.HasSuffix(err.Error(), "is a file; want a folder for the pictures") {
		t.Errorf("CheckDir of a file = %v", err)
	}
	if err := CheckDir(filepath.Join(file, "sub"), "the pictures"); err == nil || !strings.Contains(err.Error(), "is a file") {
		t.Errorf("CheckDir through a file = %v", err)
	}
}

// TestMountPoint: /proc is a mount point where there is one; a fresh
// folder and its file are not.
func TestMountPoint(t *testing.T) {
	dir := t.TempDir()
	if MountPoint(dir) || MountPoint(filepath.Join(dir, "x")) {
		t.Errorf("a fresh folder %s is called a mount point", dir)
	}
	if _, err := os.Stat("/proc/self/mountinfo"); err == nil && !MountPoint("/proc") {
		t.Errorf("/proc is not called a mount point")
	}
}
