package driver

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A report that cannot be written for want of room leaves the earlier
// report byte for byte as it was, and the journal of what was measured
// beside it, said on stderr. It needs a small file system of its own: a
// tmpfs, which only root may mount.
func TestFullDiskKeepsTheReport(t *testing.T) {
	t.Parallel()
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small tmpfs to fill (%v: %s): needs root", err, strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() { exec.Command("umount", mnt).Run() })
	out := filepath.Join(mnt, "report")
	args := []string{"--modes", "noop", "--cpus", "1", "--dur", "50ms", "--warmup", "0s", "--noisy", "ok", "--predict=false", "--out", out}
	if code, _, stderr := brewput(context.Background(), t, selfChild(), args...); code != exitOK {
		t.Fatalf("the earlier report: exit %d\n%s", code, stderr)
	}
	before := snapshot(t, out)
	// Leave room for the journal, not for the charts.
	var st syscall.Statfs_t
	if err := syscall.Statfs(mnt, &st); err != nil {
		t.Fatal(err)
	}
	free := int64(st.Bavail) * st.Bsize
	if err := os.WriteFile(filepath.Join(mnt, "filler"), make([]byte, free-12<<10), 0o644); err != nil {
		t.Fatal(err)
	}

	code, _, stderr := brewput(context.Background(), t, selfChild(), args...)
	if code != exitFailure || !strings.Contains(stderr, "no space left on device") {
		t.Fatalf("a report on a full disk: exit %d, want %d saying so; stderr:\n%s", code, exitFailure, stderr)
	}
	sameFiles(t, out, before)
	journal := filepath.Join(out+".partial", "results.json")
	if !strings.Contains(stderr, "brewput --resume "+journal) {
		t.Errorf("stderr does not say where the points measured are:\n%s", stderr)
	}
	if f, err := resultsOpen(journal); err != nil || len(f.Points) != 1 {
		t.Errorf("the journal beside the report: %v", err)
	}
}
