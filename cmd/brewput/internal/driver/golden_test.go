package driver

import (
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/brewput/brewput/internal/base/race"
	"github.com/brewput/brewput/results"
)

// update rewrites the golden files instead of comparing with them:
// go test ./cmd/brewput/internal/driver -run Golden -update.
var update = flag.Bool("update", false, "rewrite the golden files of TestGolden*")

// samples are results files written by brewput, kept so that every later
// version is shown to read and render them as it did.
const samples = "../../../../results/testdata/samples"

// golden compares got with the golden file testdata/golden/name, or
// rewrites it with -update.
func golden(t *testing.T, name string, got string) {
	t.Helper()
	matchFile(t, filepath.Join("testdata", "golden", name), got,
		name+" differs from its golden file", "go test ./cmd/brewput/internal/driver -run Golden -update")
}

// matchFile compares got with the file at path, or writes got there with
// -update. differs says what a difference means, rewrite is the command
// that rewrites the file; both go in the failure.
func matchFile(t *testing.T, path, got, differs, rewrite string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (%s writes it)", err, rewrite)
	}
	if got != string(want) {
		t.Errorf("%s (%s rewrites it):\n%s", differs, rewrite, firstDifference(string(want), got))
	}
}

// firstDifference shows the first line where got leaves want.
func firstDifference(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\nwant %q\ngot  %q", i+1, wl, gl)
		}
	}
	return "(same lines, other line ends)"
}

// digest is a file's size and SHA-256, for outputs too large to keep.
func digest(data []byte) string { return fmt.Sprintf("%x %d", sha256.Sum256(data), len(data)) }

// machineDefaults hides what depends on the machine's CPU count in help
// texts: the --cpus defaults and how far --predict goes.
func machineDefaults(s string) string {
	cpus := regexp.MustCompile(`(--(?:cpus|measure) string .*\(default ")[^"]*("\))`)
	s = cpus.ReplaceAllString(s, "${1}N${2}")
	return regexp.MustCompile(`for 1 to \d+ CPUs`).ReplaceAllString(s, "for 1 to N CPUs")
}

// TestGoldenHelp: every command's help, which names every flag with its
// default and its text.
func TestGoldenHelp(t *testing.T) {
	cmds := [][]string{{}, {"run"}, {"report"}, {"compare"}, {"model"}, {"calibrate"}, {"advise"}, {"why"}, {"fit"}, {"list"}, {"schedule"},
		{"lab"}, {"lab", "list"}}
	for _, l := range []string{"workloads", "channels", "render", "wordcount", "actors", "logs", "stream", "aggregate"} {
		cmds = append(cmds, []string{"lab", l})
	}
	var out strings.Builder
	for _, c := range cmds {
		code, stdout, stderr := brewput(context.Background(), t, noChild(), append(c, "--help")...)
		fmt.Fprintf(&out, "=== brewput %s --help: exit %d\n%s%s", strings.Join(c, " "), code, stdout, stderr)
	}
	for _, c := range [][]string{{"list"}, {"lab", "list"}} {
		code, stdout, stderr := brewput(context.Background(), t, noChild(), c...)
		fmt.Fprintf(&out, "=== brewput %s: exit %d\n%s%s", strings.Join(c, " "), code, stdout, stderr)
	}
	golden(t, "help.txt", machineDefaults(out.String()))
}

// TestGoldenBadInput: the exact error line of bad input to the commands
// whose flags are not the study's (badinput_test checks those).
func TestGoldenBadInput(t *testing.T) {
	cases := [][]string{
		{"lab", "nope"},
		{"--labs", "nope"},
		{"--labs", "workloads,nope"},
		{"lab", "workloads", "--add-size", "0"},
		{"lab", "workloads", "--wait", "-1s"},
		{"lab", "workloads", "--reps", "0"},
		{"lab", "channels", "--batch", "0"},
		{"lab", "channels", "--consumers", "x"},
		{"lab", "render", "--size", "-1"},
		{"lab", "render", "--model-cpus", "0"},
		{"lab", "wordcount", "--size", "0"},
		{"lab", "wordcount", "extra"},
		{"lab", "actors", "--variants", "nope"},
		{"lab", "actors", "--clients", "0"},
		{"lab", "logs", "--kinds", "tape"},
		{"lab", "logs", "--writers", "0"},
		{"lab", "stream", "--modes", "nope"},
		{"lab", "stream", "--buffers", "-1"},
		{"lab", "aggregate", "--handle-cost", "x"},
		{"lab", "aggregate", "--run-length", "0.5"},
		{"lab", "workloads", "--format", "xml"},
		{"lab", "workloads", "--cpus", "0"},
		{"model", "--sched", "x"},
		{"model", "--burn", "foo"},
		{"model", "--sched", "fifo", "--switch", "1us"},
		{"model", "--model", "nope.yaml"},
		{"model", "--model", "../../../../examples/cafe.yaml", "--modes", "locking"},
		{"model", "--modes", "noop", "--sched", "fifo"},
		{"advise"},
		{"advise", "--mode", "a,b"},
		{"advise", "--mode", "nope"},
		{"advise", "--mode", "locking", "--cpus", "1,2"},
		{"advise", "--mode", "locking", "--format", "xml"},
		{"fit"},
		{"fit", "--by", "x", "x.json"},
		{"compare", "a.json"},
		{"report"},
		{"report", "nope.json"},
		{"report", "--format", "json", "x.json"},
		{"schedule"},
		{"schedule", "--mode", "finelocking", "--from", "x"},
		{"schedule", "--mode", "finelocking", "--from", "trace"},
		{"schedule", "--mode", "finelocking", "--from", "trace", "nope.trace"},
		{"schedule", "--mode", "finelocking", "stray"},
		{"schedule", "--mode", "finelocking", "--span", "0s"},
		{"schedule", "--mode", "finelocking", "--cpus", "1,2"},
		{"schedule", "--mode", "finelocking", "--sched", "x"},
	}
	var out strings.Builder
	for _, c := range cases {
		code, stdout, stderr := brewput(context.Background(), t, noChild(), c...)
		fmt.Fprintf(&out, "brewput %s: exit %d %q %q\n", strings.Join(c, " "), code, stdout, stderr)
	}
	golden(t, "badinput.txt", out.String())
}

// TestGoldenModel: brewput model under the fifo policy, which needs no
// calibration, in every format (compact, the default, and table among
// them), and advise and fit on it.
func TestGoldenModel(t *testing.T) {
	if race.Enabled {
		// Output compared byte for byte, whose goroutines are the
		// model's and advise's simulations: under the detector
		// TestModelFifoFinelocking, TestModelCafe and TestAdviseFinelocking
		// run brewput model and advise (and package model's tests its
		// simulations). With TestGoldenFormats it took 9.5 CPU-s of the
		// race run.
		t.Skip("the golden outputs checked without the race detector: go test ./cmd/brewput/internal/driver")
	}
	t.Parallel()
	dir := t.TempDir()
	pred := filepath.Join(dir, "pred.json")
	runs := [][]string{
		{"model", "--sched", "fifo", "--modes", "finelocking,locking,multi-2,linearpipe-0,parsteam", "--cpus", "1-4", "--dur", "300ms"},
		{"model", "--sched", "fifo", "--modes", "finelocking,locking,multi-2,linearpipe-0,parsteam", "--cpus", "1-4", "--dur", "300ms", "--format", "table"},
		{"model", "--sched", "fifo", "--modes", "finelocking,linearpipe-1", "--cpus", "2", "--rate", "800", "--maxq", "10", "--jitter", "200us", "--seed", "3", "--count", "2", "--dur", "300ms", "--format", "json"},
		{"model", "--sched", "fifo", "--modes", "multipipe-2,splitpipe-1", "--cpus", "1,3", "--dur", "300ms", "--format", "csv"},
		{"model", "--sched", "fifo", "--modes", "finelocking", "--cpus", "1,2", "--dur", "300ms", "--format", "bench"},
		{"model", "--sched", "fifo", "--model", "../../../../examples/cafe.yaml", "--cpus", "1,2,4", "--dur", "300ms"},
		{"model", "--sched", "fifo", "--model", "../../../../examples/cafe.yaml", "--cpus", "1,2,4", "--dur", "300ms", "--format", "table"},
		{"model", "--sched", "fifo", "--model", "../../../../examples/webserver.yaml", "--cpus", "2", "--dur", "300ms", "--format", "json"},
		{"model", "--sched", "fifo", "--modes", "finelocking,locking,multi-2", "--cpus", "1-4", "--dur", "300ms", "--out", pred},
		{"fit", pred},
		{"fit", "--format", "json", pred},
		{"advise", "--mode", "finelocking", "--cpus", "4", "--sched", "fifo"},
		{"advise", "--mode", "linearpipe-0", "--cpus", "2", "--sched", "fifo", "--format", "json"},
		{"advise", "--model", "../../../../examples/cafe.yaml", "--cpus", "2", "--sched", "fifo"},
	}
	var out strings.Builder
	for _, c := range runs {
		code, stdout, stderr := brewput(context.Background(), t, noChild(), c...)
		stderr = strings.ReplaceAll(stderr, dir, "DIR")
		fmt.Fprintf(&out, "=== brewput %s: exit %d\n%s--- stderr\n%s", strings.ReplaceAll(strings.Join(c, " "), dir, "DIR"), code, stdout, stderr)
	}
	golden(t, "model.txt", out.String())
}

// TestGoldenReport: brewput report of the saved samples, alone and
// together: the table it prints and a digest of every file it writes.
// The charts are drawn with floating point, which other architectures may
// round otherwise, so the files' digests are compared on amd64 only.
func TestGoldenReport(t *testing.T) {
	if race.Enabled {
		// Rendering a recorded file is one goroutine's work
		// (TestSignalEndsARendering runs it under the detector, package
		// report's tests every part of it); under the detector this took
		// 40 s of the race run's cmd/brewput/internal/driver, which its plain run checks.
		t.Skip("the rendered outputs checked without the race detector: go test ./cmd/brewput/internal/driver")
	}
	t.Parallel()
	cases := map[string][]string{
		"shop":       {"shop.json"},
		"model":      {"model.json"},
		"lab":        {"lab.json"},
		"everything": {"shop.json", "model.json", "lab.json"},
	}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range cases {
			if !yield(k) {
				return
			}
		}
	}) {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			args := []string{"report", "--out", dir}
			for _, f := range cases[name] {
				args = append(args, filepath.Join(samples, f))
			}
			stdout, stderr := succeeds(t, noChild(), args...)
			var out strings.Builder
			fmt.Fprintf(&out, "%s--- stderr\n%s", strings.ReplaceAll(stdout, dir, "DIR"), stderr)
			if runtime.GOARCH == "amd64" {
				fmt.Fprintf(&out, "--- files\n")
				entries, err := os.ReadDir(dir)
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range entries {
					data, err := os.ReadFile(filepath.Join(dir, e.Name()))
					if err != nil {
						t.Fatal(err)
					}
					fmt.Fprintf(&out, "%s %s\n", e.Name(), digest(data))
				}
			}
			golden(t, "report-"+name+".txt", out.String())
		})
	}
}

// TestGoldenFormats: the saved samples written in every format, as brewput
// run, model and lab write their points.
func TestGoldenFormats(t *testing.T) {
	if race.Enabled {
		// Output compared byte for byte: each format is one goroutine's
		// writing, the profiles it annotates the model's simulations,
		// which the main job's tests (TestMainJobAndReport) write and
		// annotate under the detector.
		t.Skip("the golden outputs checked without the race detector: go test ./cmd/brewput/internal/driver")
	}
	t.Parallel()
	for _, name := range []string{"shop", "model", "lab"} {
		t.Run(name, func(t *testing.T) {
			points, err := results.ReadFile(filepath.Join(samples, name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var out strings.Builder
			for _, f := range []results.Format{results.Table, results.CSV, results.JSON, results.Bench} {
				var stdout, stderr strings.Builder
				e := &env{stdout: &stdout, stderr: &stderr}
				if err := e.model().Sink(f, nil).Finish(slices.Clone(points), true); err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				got := stdout.String()
				if f == results.CSV || f == results.JSON {
					got = digest([]byte(got)) + "\n"
				}
				fmt.Fprintf(&out, "=== %s\n%s--- stderr\n%s", f, got, stderr.String())
			}
			golden(t, "formats-"+name+".txt", out.String())
		})
	}
}
