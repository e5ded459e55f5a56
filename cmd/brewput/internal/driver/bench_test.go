package driver

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/results"
)

// TestBench runs brewput bench on the cache example briefly (20 calls a
// benchmark): every benchmark at every CPU count and repetition in the
// table, the results and the report written, each point carrying its
// latency histogram (the benchmarks use package bench), and the results
// read back by report, fit and compare. Timings are not checked: only
// structure, files and exit statuses.
func TestBench(t *testing.T) {
	t.Parallel()
	cpus := "1"
	if runtime.NumCPU() >= 2 {
		cpus = "1,2"
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "report")
	code, stdout, stderr := brewput(context.Background(), t, noChild(), "bench", "../../../../examples/cache", "-cpu", cpus, "--count", "2", "-benchtime", "20x", "--out", out)
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "building github.com/brewput/brewput/examples/cache") {
		t.Errorf("no progress on stderr:\n%s", stderr)
	}
	points, err := results.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	n := len(strings.Split(cpus, ","))
	if want := 6 * n * 2; len(points) != want {
		t.Fatalf("%d points, want %d (6 benchmarks × %d CPU counts × 2 runs):\n%s", len(points), want, n, stdout)
	}
	charts := 0
	for _, p := range points {
		if p.Bench == nil || p.Ops != 20 || p.Hist == "" || p.Latency.P50 <= 0 || p.Rep < 1 || p.Host.GoVersion == "" {
			t.Errorf("%s cpus=%d rep=%d: %d ops, hist %v, p50 %v, bench %+v", p.Mode, p.CPUs, p.Rep, p.Ops, p.Hist != "", p.Latency.P50, p.Bench)
		}
		if !strings.Contains(stdout, p.Mode) {
			t.Errorf("%s is not in the table:\n%s", p.Mode, stdout)
		}
		if want := sweep.FormatCPUs(pinnedTo(t, p.CPUs)); p.CPUSet != want {
			t.Errorf("%s cpus=%d ran on CPUs %q, want %q", p.Mode, p.CPUs, p.CPUSet, want)
		}
	}
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "bench-") && strings.HasSuffix(e.Name(), ".svg") {
			charts++
		}
	}
	if want := 2 * 2; charts != want { // throughput and latency per family: design=* under each load
		t.Errorf("%d charts in %s, want %d", charts, out, want)
	}
	if !strings.Contains(stdout, "Cache/design=*/load=write, measured on") {
		t.Errorf("no answer for the family of the write-heavy load:\n%s", stdout)
	}
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil || !strings.Contains(string(page), "Go benchmarks") || !strings.Contains(string(page), "Cache/design=sharded/load=write") {
		t.Errorf("page: %v", err)
	}

	// The bench format, read back by report.
	code, bench, stderr := brewput(context.Background(), t, noChild(), "report", filepath.Join(out, "results.json"), "--out", filepath.Join(dir, "again"))
	if code != exitOK || !strings.Contains(bench, "Cache/design=mutex/load=read") {
		t.Errorf("report of the results: exit %d\n%s%s", code, bench, stderr)
	}
	code, _, stderr = brewput(context.Background(), t, noChild(), "compare", filepath.Join(out, "results.json"), filepath.Join(out, "results.json"))
	if code != exitOK {
		t.Errorf("compare: exit %d: %s", code, stderr)
	}
}

// TestBenchGoSpelling: brewput bench takes go test's flags as go test
// spells them, with one dash, interspersed with the packages; with no
// --out the report goes to ./brewput-report, as the main job's does,
// named in the output.
func TestBenchGoSpelling(t *testing.T) {
	t.Chdir("../../../../examples/cache")
	if _, err := os.Stat(defaultReportDir); err == nil {
		t.Skipf("examples/cache/%s is there already: the test would replace it", defaultReportDir)
	}
	t.Cleanup(func() { os.RemoveAll(defaultReportDir) })
	code, stdout, stderr := brewput(context.Background(), t, noChild(), "bench", ".", "-bench", "Cache/design=mutex/load=read", "-cpu", "1", "-count", "2", "-benchtime=20x", "-run", "^$", "-benchmem")
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	report := filepath.Join(defaultReportDir, "index.html")
	// "report:" and its path, on a line of its own where both do not fit.
	if _, err := os.Stat(report); err != nil || !strings.Contains(strings.ReplaceAll(stdout, "report:\n", "report: "), "report: "+report) {
		t.Errorf("report not in ./%s: %v\n%s", defaultReportDir, err, stdout)
	}
	if !strings.Contains(stdout, "Cache/design=mutex/load=read ") || strings.Contains(stdout, "design=sharded") || !strings.Contains(stdout, "  2\n") {
		t.Errorf("table of the one benchmark matched, 2 runs:\n%s", stdout)
	}
}

// TestBenchNoMatch: a -bench that matches nothing exits 2 naming it.
func TestBenchNoMatch(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	code, stdout, stderr := brewput(context.Background(), t, noChild(), "bench", "../../../../examples/cache", "-bench", "NoSuchBenchmark", "-cpu", "1", "--out", filepath.Join(dir, "r"))
	if code != exitUsage || stdout != "" || !strings.Contains(stderr, `-bench: no benchmark matches "NoSuchBenchmark"`) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left %d files", len(entries))
	}
	// A package of no benchmark at all is told so, not that "." matches none.
	code, stdout, stderr = brewput(context.Background(), t, noChild(), "bench", "../../../../internal/base/format", "-cpu", "1", "--out", filepath.Join(dir, "r"))
	if code != exitUsage || stdout != "" || !strings.Contains(stderr, "brewput: no benchmark in github.com/brewput/brewput/internal/base/format (its test files have no func BenchmarkXxx)") {
		t.Errorf("no benchmark at all: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestPackageWithoutDot: a folder here named without ./ (go reads it as a
// standard package's import path, and says only that there is none)
// gets the hint, for bench and for study, exit 2 and nothing written.
func TestPackageWithoutDot(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"bench", "testdata/golden", "-bench", "X", "-cpu", "1", "--out", filepath.Join(dir, "r")},
		{"study", "testdata/golden", "list"},
	} {
		code, stdout, stderr := brewput(context.Background(), t, noChild(), args...)
		if code != exitUsage || stdout != "" || !strings.Contains(oneLine(stderr), "did you mean ./testdata/golden?") {
			t.Errorf("brewput %q: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left %d files", len(entries))
	}
}

// TestBenchBuildFailure: a package that does not compile gets the
// compiler's message and exit 1, with nothing written.
func TestBenchBuildFailure(t *testing.T) {
	mod := t.TempDir()
	for name, data := range map[string]string{
		"go.mod":    "module example.com/broken\n\ngo 1.26\n",
		"x_test.go": "package x\n\nimport \"testing\"\n\nfunc BenchmarkX(b *testing.B) { notDefined() }\n",
	} {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "r")
	t.Chdir(mod)
	code, stdout, stderr := brewput(context.Background(), t, noChild(), "bench", "--cpus", "1", "--out", out)
	if code != exitFailure || stdout != "" || !strings.Contains(stderr, "undefined: notDefined") || !strings.Contains(stderr, "example.com/broken") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a failed build wrote the report")
	}
}

// TestReadGoTestOutput: brewput report and fit read a plain go test -bench
// output, the CPU count from the -N suffix.
func TestReadGoTestOutput(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r")
	code, stdout, stderr := brewput(context.Background(), t, noChild(), "report", "testdata/gotest-cpus.txt", "--out", out)
	if code != exitOK {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"pkg: example.com/kv", "Get/shards=16-4", "25.50n ± ∞", "sec/op", "allocs/op"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("report's table lacks %q:\n%s", want, stdout)
		}
	}
	for _, f := range []string{"index.html", "bench-Get_shards__.svg", "bench-Get_shards__.png"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	code, stdout, stderr = brewput(context.Background(), t, noChild(), "fit", "testdata/gotest-cpus.txt")
	if code != exitOK {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	lines := strings.Split(stdout, "\n")
	var got []string
	for _, l := range lines {
		if f := strings.Fields(l); len(f) > 1 && strings.HasPrefix(f[0], "Get/") {
			got = append(got, f[0])
		}
	}
	if len(got) != 2 || !strings.Contains(stdout, "gotest-cpus.txt") {
		t.Errorf("fit table:\n%s", stdout)
	}
}

// TestVersion: brewput --version and brewput version print one line, the
// module's version and the Go version it was built with.
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}} {
		code, stdout, stderr := brewput(context.Background(), t, noChild(), args...)
		if code != exitOK || stderr != "" || !strings.HasPrefix(stdout, "brewput ") || !strings.Contains(stdout, runtime.Version()) || strings.Count(stdout, "\n") != 1 {
			t.Errorf("brewput %s: exit %d, stdout %q, stderr %q", args[0], code, stdout, stderr)
		}
	}
}

// pinnedTo is the CPUs a run on n CPUs is pinned to by default.
func pinnedTo(t *testing.T, n int) []int {
	t.Helper()
	cpus, err := sweep.PinTo(n, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cpus
}
