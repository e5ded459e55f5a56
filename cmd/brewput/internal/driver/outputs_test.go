package driver

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/brewput/brewput/internal/testkit"
	"github.com/brewput/brewput/results"
)

// snapshot reads every file of dir, by name.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	for _, name := range testkit.DirNames(t, dir) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(b)
	}
	return files
}

// sameFiles fails unless dir holds exactly the files of before.
func sameFiles(t *testing.T, dir string, before map[string]string) {
	t.Helper()
	after := snapshot(t, dir)
	if !maps.Equal(before, after) {
		var diff []string
		for name := range maps.Keys(before) {
			if after[name] != before[name] {
				diff = append(diff, name)
			}
		}
		for name := range maps.Keys(after) {
			if _, ok := before[name]; !ok {
				diff = append(diff, name+" (new)")
			}
		}
		t.Errorf("%s changed: %v", dir, diff)
	}
}

// A second run asked to write an output a live run is writing is refused
// before it measures anything, told which process holds it; the first
// run's results are whole. For a report folder and for a results file.
func TestSecondRunIntoTheSameOutput(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		out     string
		journal string // where the first run's points come as it runs
		cmd     []string
	}{
		{"report folder", "report", filepath.Join("report.partial", "results.json"), []string{"--predict=false"}},
		{"results file", "r.json", "r.json", []string{"run"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			out, journal := filepath.Join(dir, c.out), filepath.Join(dir, c.journal)
			args := append(c.cmd, "--modes", "noop,finelocking,noop,finelocking", "--cpus", "1",
				"--dur", "200ms", "--warmup", "10ms", "--noisy", "ok", "--out", out)
			first, _, firstErr := startBrewput(t, args...)
			waitForPoints(t, journal, 1)

			code, _, stderr := brewput(context.Background(), t, noChild(), args...)
			if code != exitUsage {
				t.Errorf("the second run: exit %d, want %d; stderr:\n%s", code, exitUsage, stderr)
			}
			want := fmt.Sprintf("brewput: --out %s is being written by brewput (pid %d: ", out, first.Process.Pid)
			if lines := strings.Split(strings.TrimSpace(stderr), "\n"); len(lines) != 1 || !strings.HasPrefix(lines[0], want) || !strings.Contains(lines[0], "give another --out, or wait") {
				t.Errorf("the second run's refusal is not one line naming the output and the holder (%q…):\n%s", want, stderr)
			}
			if err := first.Wait(); err != nil {
				t.Fatalf("the first run: %v\n%s", err, firstErr)
			}
			results := filepath.Join(out, "results.json")
			if c.out == "r.json" {
				results = out
			}
			f, err := resultsOpen(results)
			if err != nil || f.Plan != nil || len(f.Points) != 4 {
				t.Errorf("the first run's results: %v; want its 4 points, whole", err)
			}
			noStrays(t, dir)
		})
	}
}

// A run killed before its report is written leaves the report folder
// byte for byte as it was, and its journal beside it; a plain run into the
// folder is then refused, naming the journal, and --resume finishes the
// run and replaces the folder whole.
func TestKilledRunLeavesTheReport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "report")
	args := []string{"--modes", "noop", "--cpus", "1", "--dur", "50ms", "--warmup", "0s", "--noisy", "ok", "--predict=false", "--out", out}
	if code, _, stderr := brewput(context.Background(), t, selfChild(), args...); code != exitOK {
		t.Fatalf("the earlier report: exit %d\n%s", code, stderr)
	}
	if err := os.WriteFile(filepath.Join(out, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, out)

	cmd, _, _ := startBrewput(t, "--modes", "noop,finelocking,noop,finelocking", "--cpus", "1", "--dur", "300ms",
		"--warmup", "10ms", "--noisy", "ok", "--predict=false", "--out", out)
	journal := filepath.Join(out+".partial", "results.json")
	waitForPoints(t, journal, 1)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	sameFiles(t, out, before)

	code, _, stderr := brewput(context.Background(), t, noChild(), args...)
	if code != exitUsage || !strings.Contains(stderr, "brewput --resume "+journal) {
		t.Errorf("a plain run beside the journal: exit %d, want %d and the way to resume; stderr:\n%s", code, exitUsage, stderr)
	}
	sameFiles(t, out, before)

	code, _, stderr = brewput(context.Background(), t, selfChild(), "--resume", journal)
	if code != exitOK {
		t.Fatalf("--resume: exit %d\n%s", code, stderr)
	}
	f, err := resultsOpen(filepath.Join(out, "results.json"))
	if err != nil || f.Plan != nil || len(f.Points) != 4 {
		t.Errorf("after --resume: %v, want the 4 points", err)
	}
	if b, err := os.ReadFile(filepath.Join(out, "notes.txt")); string(b) != "mine" {
		t.Errorf("the user's file in the folder was not carried over: %q, %v", b, err)
	}
	noStrays(t, dir)
}

// resultsOpen opens a results file (results.Open), under a name that
// leaves "results" to the variables of the tests above.
func resultsOpen(path string) (*results.File, error) { return results.Open(path) }
