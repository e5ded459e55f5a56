package driver

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/internal/base/race"
)

// example is one command shown in a doc with its output: the lines after
// "$ brewput …" (a line ending " \" continues on the next) in a fenced
// block, up to the next command or the block's end. An output cut short
// ends with a line "…": only what stands before it is compared.
type example struct {
	file       string
	line       int // of the command, from 1
	args       []string
	start, end int // the output's lines in the file, [start, end)
	cut        bool
}

// deterministic reports whether args give the same output on every
// machine: the model's commands under the fifo policy, which needs no
// calibration, a study's predict from a results file with its
// calibration, and compare of files recorded in testdata.
func deterministic(args []string) bool {
	// A comparison of runs recorded in testdata, as docs/measuring.md shows.
	if len(args) > 0 && args[0] == "compare" {
		return !slices.ContainsFunc(args[1:], func(a string) bool {
			return !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "cmd/brewput/internal/driver/testdata/")
		})
	}
	if len(args) > 2 && args[0] == "study" && args[2] == "predict" || len(args) > 0 && args[0] == "predict" {
		return slices.Contains(args, "--from") // this machine's curves are the tests' recorded calibration
	}
	if len(args) == 0 || !slices.Contains([]string{"model", "advise", "schedule"}, args[0]) {
		return false
	}
	for i, a := range args {
		if a == "--sched" && i+1 < len(args) {
			return args[i+1] == "fifo"
		}
		if a == "--sched=fifo" {
			return true
		}
	}
	return false
}

// examples finds the deterministic examples in lines: also a fit of
// files only deterministic examples before it in the doc wrote (--out).
func examples(file string, lines []string) []example {
	var out []example
	written := map[string]bool{}
	fitsWritten := func(args []string) bool {
		if len(args) < 2 || args[0] != "fit" {
			return false
		}
		for _, a := range args[1:] {
			if !strings.HasPrefix(a, "-") && !written[a] {
				return false
			}
		}
		return true
	}
	in := false
	for i := 0; i < len(lines); i++ {
		if strings.HasPrefix(lines[i], "```") {
			in = !in
			continue
		}
		if !in || !strings.HasPrefix(lines[i], "$ ") {
			continue
		}
		line := i + 1
		full, next := commandAt(lines, i)
		i = next - 1
		cmd, ok := strings.CutPrefix(full, "$ brewput ")
		if !ok {
			cmd, ok = strings.CutPrefix(full, "$ go run ./cmd/brewput ")
		}
		if !ok {
			continue
		}
		args := strings.Fields(cmd)
		if !deterministic(args) && !fitsWritten(args) {
			continue
		}
		if i := slices.Index(args, "--out"); i >= 0 && i+1 < len(args) {
			written[args[i+1]] = true
		}
		e := example{file: file, line: line, args: args, start: next}
		for e.end = e.start; e.end < len(lines) && !strings.HasPrefix(lines[e.end], "```") && !strings.HasPrefix(lines[e.end], "$ "); e.end++ {
			if lines[e.end] == "…" {
				e.cut = true
				break
			}
		}
		out = append(out, e)
	}
	return out
}

// TestDocExamples: every deterministic command shown in README.md and
// docs/ prints what the doc shows; -update rewrites the shown output.
func TestDocExamples(t *testing.T) {
	if race.Enabled {
		// The docs' outputs are checked without the detector; under it
		// the commands took 141 s of the race run, which their packages'
		// own tests cover.
		t.Skip("the docs' outputs checked without the race detector: go test ./cmd/brewput/internal/driver")
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{filepath.Join("..", "..", "..", "..", "README.md")}, files...)
	for i, f := range files {
		if files[i], err = filepath.Abs(f); err != nil {
			t.Fatal(err)
		}
	}
	// The commands run as a user runs them, from the repository's root,
	// but in a folder of their own, where what they write goes: its
	// entries link to the root's, so that brewput study builds there. Each
	// runs in a child, this test binary acting as brewput in that folder,
	// so that the test changes no process-wide folder and runs beside the
	// others, each doc's commands in turn beside the other docs'.
	root, err := filepath.Abs(filepath.Join("..", "..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Parallel()
	dir := t.TempDir()
	for _, e := range entries {
		if err := os.Symlink(filepath.Join(root, e.Name()), filepath.Join(dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	var seen atomic.Int64
	t.Run("docs", func(t *testing.T) {
		for _, file := range files {
			t.Run(filepath.Base(file), func(t *testing.T) {
				t.Parallel()
				seen.Add(int64(docExamples(t, dir, file)))
			})
		}
	})
	if seen.Load() == 0 {
		t.Fatal("no deterministic example found in README.md or docs/: the parser or the docs changed")
	}
}

// docExamples runs file's deterministic examples in dir, each in a child
// acting as brewput, and holds what each prints to what file shows (or,
// with -update, rewrites file); it returns how many it found.
func docExamples(t *testing.T, dir, file string) int {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	exs := examples(file, lines)
	// Run in the doc's order (a fit reads what a model before it
	// wrote), compared from the last, so that rewriting one leaves
	// the others' lines where they were found.
	printed := make([]string, len(exs))
	failed := make([]bool, len(exs))
	for k, e := range exs {
		cmd := exec.Command(os.Args[0], e.args...)
		cmd.Dir, cmd.Env = dir, append(os.Environ(), testMainEnv+"=1")
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Errorf("%s:%d: brewput %s: %v: %s", e.file, e.line, strings.Join(e.args, " "), err, stderr.String())
			failed[k] = true
		}
		printed[k] = stdout.String()
		// A doc's command is one a user runs: it fits the terminal, as
		// TestEveryCommandFitsEighty holds every command's to.
		for _, out := range []struct{ name, text string }{{"stdout", stdout.String()}, {"stderr", stderr.String()}} {
			for _, line := range overColumns(out.text, format.Columns) {
				t.Errorf("%s:%d: brewput %s: a line of %s over %d columns: %q", e.file, e.line, strings.Join(e.args, " "), out.name, format.Columns, line)
			}
		}
	}
	for k := len(exs) - 1; k >= 0; k-- {
		e := exs[k]
		if failed[k] {
			continue
		}
		got := strings.Split(strings.TrimRight(printed[k], "\n"), "\n")
		want := lines[e.start:e.end]
		if e.cut && len(got) > len(want) {
			got = got[:len(want)]
		}
		if slices.Equal(got, want) {
			continue
		}
		if *update {
			lines = slices.Concat(lines[:e.start], got, lines[e.end:])
			continue
		}
		t.Errorf("%s:%d: brewput %s prints otherwise than shown (go test ./cmd/brewput/internal/driver -run TestDocExamples -update rewrites it):\n%s",
			e.file, e.line, strings.Join(e.args, " "), firstDifference(strings.Join(want, "\n"), strings.Join(got, "\n")))
	}
	if *update {
		if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return len(exs)
}

// readmeRun is a run of the main job recorded on a 2-core machine beside
// other work, every point disturbed: brewput report prints from its results
// what the main job printed at its end.
const readmeRun = "testdata/readme/results.json"

// modesRun is a run of the main job recorded quietly on a 2-core machine
// (2026-11-25 10:31 UTC, under quietrun: 31 s, no point left disturbed),
// whose output README.md and docs/modes.md show.
const modesRun = "testdata/modes/results.json"

// renderedRun is brewput report RUN --out DIR/brewput-report of a recorded
// run, rendered once for this test process: TestReadmeMainJob,
// TestOneScreen and TestNoGoIdentifierInWords each rendered the same.
type renderedRun struct {
	once           sync.Once
	root           string // removed by TestMain
	code           int
	stdout, stderr string
	err            error
}

var rendered = map[string]*renderedRun{readmeRun: {}, modesRun: {}}

// reportOf is what brewput report of run (readmeRun or modesRun) printed,
// and the folder it wrote; it fails t where the run did not succeed.
func reportOf(t *testing.T, run string) (stdout, stderr, dir string) {
	t.Helper()
	r := rendered[run]
	r.once.Do(func() {
		if r.root, r.err = os.MkdirTemp("", "brewput-test-report-"); r.err != nil {
			return
		}
		r.code, r.stdout, r.stderr = brewput(context.Background(), t, noChild(), "report", run, "--out", filepath.Join(r.root, "brewput-report"))
	})
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.code != exitOK {
		t.Fatalf("brewput report %s: exit %d; stderr:\n%s", run, r.code, r.stderr)
	}
	return r.stdout, r.stderr, filepath.Join(r.root, "brewput-report")
}

// removeRendered removes what reportOf wrote, once every test is done.
func removeRendered() {
	for _, r := range rendered {
		if r.root != "" {
			os.RemoveAll(r.root)
		}
	}
}

// TestReadmeMainJob: the output README.md and docs/modes.md show under
// "$ brewput" is what the current code prints of the run it comes from
// (modesRun), wrapped at 80 columns; -update rewrites it. A line starting
// "…" ends what is compared.
func TestReadmeMainJob(t *testing.T) {
	if race.Enabled {
		// Rendering a recorded file is one goroutine's work
		// (TestSignalEndsARendering runs it under the detector, package
		// report's tests every part of it); under the detector this took
		// 39 s of the race run's cmd/brewput/internal/driver, which its plain run checks.
		t.Skip("the rendered outputs checked without the race detector: go test ./cmd/brewput/internal/driver")
	}
	t.Parallel()
	for _, doc := range []struct{ path, run string }{
		{filepath.Join("..", "..", "..", "..", "README.md"), modesRun},
		{filepath.Join("..", "..", "..", "..", "docs", "modes.md"), modesRun},
	} {
		t.Run(filepath.Base(doc.path), func(t *testing.T) { checkMainJobSample(t, doc.path, doc.run) })
	}
}

// checkMainJobSample holds the "$ brewput" block of the file at path to
// what brewput report prints of the run it comes from.
func checkMainJobSample(t *testing.T, path, run string) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	start := slices.Index(lines, "$ brewput")
	if start < 0 {
		t.Fatalf(`%s shows no "$ brewput" block`, path)
	}
	start++
	end := start
	for end < len(lines) && !strings.HasPrefix(lines[end], "```") {
		end++
	}
	stdout, _, out := reportOf(t, run)
	got := strings.Split(strings.TrimRight(strings.ReplaceAll(stdout, out, "brewput-report"), "\n"), "\n")
	isCut := func(l string) bool { return strings.HasPrefix(l, "…") }
	want := lines[start:end]
	if cut := slices.IndexFunc(want, isCut); cut >= 0 {
		want = want[:cut]
		got = got[:min(len(got), cut)]
	}
	if slices.Equal(got, want) {
		return
	}
	if *update {
		if cut := slices.IndexFunc(lines[start:end], isCut); cut >= 0 {
			got = append(got, lines[start+cut:end]...)
		}
		lines = slices.Concat(lines[:start], got, lines[end:])
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s shows otherwise than the main job prints of %s (go test ./cmd/brewput/internal/driver -run TestReadmeMainJob -update rewrites it):\n%s",
		path, run, firstDifference(strings.Join(want, "\n"), strings.Join(got, "\n")))
}
