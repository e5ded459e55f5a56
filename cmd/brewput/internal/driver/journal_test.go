package driver

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/outfile"
	"github.com/brewput/brewput/internal/testkit"
	"github.com/brewput/brewput/results"
)

// startBrewput starts this test binary as brewput itself, in a process of
// its own (the child that measures each point is the same binary), so
// that a test can signal it as a user or the system would.
func startBrewput(t *testing.T, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), testMainEnv+"=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return cmd, &stdout, &stderr
}

// waitForPoints waits until the journal at path holds at least n points,
// however slow the machine: the kill then falls mid-sweep, deterministically.
func waitForPoints(t *testing.T, path string, n int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		if f, err := results.Open(path); err == nil && len(f.Points) >= n {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the journal %s did not reach %d points within 2 minutes", path, n)
}

// noStrays fails if dir holds a temporary file or folder.
func noStrays(t *testing.T, dir string) {
	t.Helper()
	for _, name := range testkit.DirNames(t, dir) {
		if output, ok := strings.CutSuffix(name, ".brewput-hold"); ok {
			// The hold of a killed run, which no process can remove: it
			// must hold nothing.
			h, err := outfile.Take(filepath.Join(dir, strings.TrimPrefix(output, ".")))
			if err != nil {
				t.Errorf("the hold %s left in %s blocks the next run: %v", name, dir, err)
			}
			h.Release()
			continue
		}
		if strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".tmp") || strings.HasSuffix(name, ".partial") || strings.HasPrefix(name, "brewput-logs-") {
			t.Errorf("stray %s left in %s", name, dir)
		}
	}
}

// TestSIGKILLLeavesAJournal kills a real run with SIGKILL mid-sweep, once
// its journal holds two of its five points: the file holds those points
// and the plan, nothing half-written; brewput report renders it and says
// the run was cut short; --resume measures the three it lacks.
func TestSIGKILLLeavesAJournal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "r.json")
	cmd, _, stderr := startBrewput(t, "run", "--modes", "noop,finelocking,noop,finelocking,noop", "--cpus", "1",
		"--dur", "150ms", "--warmup", "10ms", "--noisy", "ok", "--out", out)
	waitForPoints(t, out, 2)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	f, err := results.Open(out)
	if err != nil {
		t.Fatalf("the killed run's journal: %v; stderr:\n%s", err, stderr)
	}
	if f.Plan == nil || f.Plan.Command != "run" || f.Plan.Points != 5 {
		t.Errorf("plan %+v, want run's, of 5 points", f.Plan)
	}
	if len(f.Points) < 2 || len(f.Points) >= 5 {
		t.Errorf("%d points, want 2 to 4", len(f.Points))
	}
	for _, n := range f.Notes { // but a kill in the middle of a write
		if !strings.Contains(n.Error(), "incomplete (a write cut short") {
			t.Errorf("note on the journal: %s", n)
		}
	}
	noStrays(t, dir)

	// brewput report renders it, saying how far it got.
	rep := filepath.Join(dir, "report")
	code, stdout, errOut := brewput(context.Background(), t, noChild(), "report", out, "--out", rep)
	if code != exitOK {
		t.Fatalf("report of the journal: exit %d\n%s", code, errOut)
	}
	page, err := os.ReadFile(filepath.Join(rep, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	want := "The run was cut short: it stopped after " + itoa(len(f.Points)) + " of 5 points."
	if !strings.Contains(string(page), want) || !strings.Contains(errOut, want) {
		t.Errorf("the page and stderr do not say %q:\n%s", want, errOut)
	}
	if !strings.Contains(stdout, "noop") {
		t.Errorf("no table:\n%s", stdout)
	}

	// --resume measures only what is missing, and the finished file is
	// a plain results file.
	code, _, errOut = brewput(context.Background(), t, selfChild(), "run", "--resume", out)
	if code != exitOK {
		t.Fatalf("--resume: exit %d\n%s", code, errOut)
	}
	if want := "resuming: " + itoa(len(f.Points)) + " point"; !strings.Contains(errOut, want) {
		t.Errorf("stderr does not say %q:\n%s", want, errOut)
	}
	done, err := results.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	if done.Plan != nil || len(done.Points) != 5 {
		t.Errorf("after --resume: plan %v, %d points; want none and 5", done.Plan, len(done.Points))
	}
	for i, mode := range []string{"noop", "finelocking", "noop", "finelocking", "noop"} {
		if i < len(done.Points) && done.Points[i].Mode != mode {
			t.Errorf("point %d is %s, want %s", i+1, done.Points[i].Mode, mode)
		}
	}
	noStrays(t, dir)
}

// TestSIGHUPKeepsWhatWasMeasured: a closed terminal (SIGHUP) stops a real
// main job in good order once its journal, beside the report folder where
// the report is assembled, holds two points: exit 129, the report of what
// was measured, saying it was cut short, and results.json keeping the plan
// for --resume; no stray files.
func TestSIGHUPKeepsWhatWasMeasured(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "report")
	cmd, stdout, stderr := startBrewput(t, "--modes", "noop,finelocking,noop,finelocking", "--cpus", "1",
		"--dur", "150ms", "--warmup", "10ms", "--noisy", "ok", "--predict=false", "--out", out)
	waitForPoints(t, filepath.Join(out+".partial", "results.json"), 2)
	journal := filepath.Join(out, "results.json")
	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 128+int(syscall.SIGHUP) {
		t.Errorf("exit %d (%v), want 129; stderr:\n%s", code, err, stderr)
	}
	if !strings.Contains(stderr.String(), "interrupted after") {
		t.Errorf("stderr does not say it was interrupted:\n%s", stderr)
	}
	if !strings.Contains(stdout.String(), "report: ") {
		t.Errorf("no report written:\n%s", stdout)
	}
	f, err := results.Open(journal)
	if err != nil {
		t.Fatal(err)
	}
	if f.Plan == nil || f.Plan.Command != "brewput" || len(f.Points) < 2 || len(f.Points) >= 4 {
		t.Fatalf("results.json: plan %+v, %d points; want the main job's plan and 2 or 3 points", f.Plan, len(f.Points))
	}
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "stopped after " + itoa(len(f.Points)) + " of 4 points"; !strings.Contains(string(page), want) {
		t.Errorf("the page does not say %q", want)
	}
	noStrays(t, out)
	noStrays(t, dir)

	// The rest, measured in-process.
	code, _, errOut := brewput(context.Background(), t, selfChild(), "--resume", journal)
	if code != exitOK {
		t.Fatalf("--resume: exit %d\n%s", code, errOut)
	}
	done, err := results.Open(journal)
	if err != nil || done.Plan != nil || len(done.Points) != 4 {
		t.Errorf("after --resume: %v, %+v", err, done)
	}
	if page, _ := os.ReadFile(filepath.Join(out, "index.html")); strings.Contains(string(page), "cut short") {
		t.Errorf("the finished report still says the run was cut short")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
