package driver

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/brewput/brewput/internal/testkit"
	"github.com/brewput/brewput/measure/quiet"
	"github.com/brewput/brewput/results"
)

// TestRunProfile measures finelocking with more customers than CPUs and
// --profile: the four files of the point are in the folder, named by mode
// and CPU count, stderr says where they are, the point's waits name the
// machines' locks by their calls, and go tool opens every file.
func TestRunProfile(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "prof") // made by the run
	cpus := min(2, runtime.NumCPU())
	before := quiet.Take()
	stdout, stderr := succeeds(t, selfChild(),
		"run", "--modes", "finelocking", "--cpus", fmt.Sprint(cpus), "--par", "4",
		"--dur", "200ms", "--warmup", "50ms", "--noisy", "ok", "--profile", dir, "--format", "json")
	base := filepath.Join(dir, fmt.Sprintf("finelocking-%dcpu", cpus))
	exts := []string{".block.pprof", ".cpu.pprof", ".mutex.pprof", ".trace"}
	var want []string
	for _, ext := range exts {
		want = append(want, filepath.Base(base)+ext)
	}
	if got := testkit.DirNames(t, dir); !slices.Equal(got, want) {
		t.Errorf("the profile folder holds %v, want %v", got, want)
	}
	for _, line := range []string{"profiles of 1 point in " + dir, "go tool trace " + base + ".trace", "go tool pprof -top " + base + ".block.pprof"} {
		if !strings.Contains(stderr, line) {
			t.Errorf("stderr does not say %q:\n%s", line, stderr)
		}
	}

	points, err := results.ReadJSON(strings.NewReader(stdout))
	if err != nil || len(points) != 1 {
		t.Fatalf("stdout holds %d points, %v; want one:\n%s", len(points), err, stdout)
	}
	p := points[0]
	if p.Profile != base {
		t.Errorf("the point's profile is %q, want %q", p.Profile, base)
	}
	locks := 0
	for _, w := range p.Waits {
		if w.Kind == "mutex" && strings.Contains(w.Site, ".use(s.steps.") && strings.Contains(w.Site, " in coffee.(*fineLocking).Brew at coffee/finelocking.go:") {
			locks++
		}
		if w.TotalMs <= 0 || w.Count <= 0 || w.PerOpMs <= 0 {
			t.Errorf("wait %+v: want a count and times", w)
		}
	}
	// Customers wait for a machine's lock when one is preempted holding it
	// (every 10 ms of a spinning step), which a process starved of its CPUs
	// by other processes may not see happen in the window.
	if others := quiet.Since(before); locks == 0 && others > results.DisturbedCPUs {
		t.Logf("no wait names a machine's lock, but other processes took %.2f CPUs meanwhile", others)
	} else if locks == 0 {
		t.Errorf("4 customers on %d CPUs, and no wait names a machine's lock: %+v", cpus, p.Waits)
	}

	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH: cannot check that go tool opens the files")
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"tool", "pprof", "-top", base + ".cpu.pprof"}, "Type: cpu"},
		{[]string{"tool", "pprof", "-top", base + ".block.pprof"}, "Type: delay"},
		{[]string{"tool", "pprof", "-top", base + ".mutex.pprof"}, "Type: delay"},
		{[]string{"tool", "trace", "-d=parsed", base + ".trace"}, "StateTransition"},
	} {
		var out, errOut bytes.Buffer
		cmd := exec.Command(goTool, c.args...)
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Errorf("go %s: %v\n%s", strings.Join(c.args, " "), err, errOut.String())
			continue
		}
		if !strings.Contains(out.String(), c.want) {
			t.Errorf("go %s does not print %q:\n%.2000s", strings.Join(c.args, " "), c.want, out.String())
		}
	}
}

// TestProfileNamesRepetitions: under --count, each repetition has files
// of its own; the main job takes --profile too.
func TestProfileNamesRepetitions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	succeeds(t, selfChild(),
		"run", "--modes", "noop", "--cpus", "1", "--count", "2", "--dur", "30ms", "--warmup", "0s", "--noisy", "ok",
		"--profile", filepath.Join(dir, "runs"), "--format", "json")
	var want []string
	for _, rep := range []string{"rep1", "rep2"} {
		for _, ext := range []string{".block.pprof", ".cpu.pprof", ".mutex.pprof", ".trace"} {
			want = append(want, "noop-1cpu-"+rep+ext)
		}
	}
	if got := testkit.DirNames(t, filepath.Join(dir, "runs")); !slices.Equal(got, want) {
		t.Errorf("with --count 2 the profile folder holds %v, want %v", got, want)
	}

	succeeds(t, selfChild(),
		"--modes", "noop", "--cpus", "1", "--dur", "30ms", "--warmup", "0s", "--noisy", "ok", "--predict=false",
		"--out", filepath.Join(dir, "report"), "--profile", filepath.Join(dir, "main"))
	if got := testkit.DirNames(t, filepath.Join(dir, "main")); len(got) != 4 || got[3] != "noop-1cpu.trace" {
		t.Errorf("the main job's profile folder holds %v, want noop-1cpu's four files", got)
	}
}

// TestProfileBadFolder: a --profile folder that cannot be made or written
// is a usage error, one line naming the flag, before anything is measured.
func TestProfileBadFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"run", "--modes", "finelocking", "--profile", filepath.Join(file, "prof")}, []string{"--profile " + filepath.Join(file, "prof"), "is a file"}},
		{[]string{"run", "--modes", "finelocking", "--profile", file}, []string{"--profile " + file, "is a file; want a folder for the profiles"}},
		{[]string{"run", "--modes", "finelocking", "--profile", ""}, []string{"--profile", "want a folder"}},
		{[]string{"--modes", "finelocking", "--out", filepath.Join(dir, "report"), "--profile", filepath.Join(file, "prof")}, []string{"--profile", "is a file"}},
	} {
		code, stdout, stderr := brewput(context.Background(), t, selfChild(), c.args...)
		if code != exitUsage {
			t.Errorf("brewput %q: exit %d, want %d; stderr:\n%s", c.args, code, exitUsage, stderr)
		}
		if stdout != "" || strings.Contains(stderr, "measuring") {
			t.Errorf("brewput %q measured:\nstdout:\n%s\nstderr:\n%s", c.args, stdout, stderr)
		}
		if !strings.HasPrefix(stderr, "brewput: ") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("brewput %q: stderr is not one line:\n%s", c.args, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("brewput %q: stderr %q does not say %q", c.args, stderr, w)
			}
		}
	}
	if got := testkit.DirNames(t, dir); !slices.Equal(got, []string{"file"}) {
		t.Errorf("refused runs left %v", got)
	}
}
