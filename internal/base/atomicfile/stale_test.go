package atomicfile

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// TestRemove removes what a process that has ended left, and nothing of a
// process that runs.
func TestRemove(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("no true to run:", err)
	}
	dead := cmd.Process.Pid
	mine, err := os.MkdirTemp(dir, TempPattern("brewput-logs-", ""))
	if err != nil {
		t.Fatal(err)
	}
	left := filepath.Join(dir, "brewput-logs-"+itoa(dead)+"-123")
	if err := os.Mkdir(left, 0o755); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "brewput-logs-notapid-1")
	if err := os.Mkdir(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if n := RemoveStale(dir, "brewput-logs-", ""); n != 1 {
		t.Errorf("removed %d, want 1", n)
	}
	for path, want := range map[string]bool{mine: true, left: false, other: true} {
		if _, err := os.Stat(path); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", path, err == nil, want)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
