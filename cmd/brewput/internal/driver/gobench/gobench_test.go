package gobench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brewput/brewput/results"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// module writes a throwaway module of one package, with only the
// standard library, whose test file is test; it returns its folder.
func module(t *testing.T, test string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":    "module example.com/x\n\ngo 1.26\n",
		"x.go":      "package x\n\n// Sum adds.\nfunc Sum(a, b int) int { return a + b }\n",
		"x_test.go": test,
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const benchmarks = `package x

import (
	"runtime"
	"testing"
)

func BenchmarkSum(b *testing.B) {
	for b.Loop() {
		_ = Sum(1, 2)
	}
	b.ReportMetric(42, "answers/op")
}

func BenchmarkFailsOnTwo(b *testing.B) {
	if runtime.GOMAXPROCS(0) == 2 {
		b.Fatal("broken on two CPUs")
	}
	for b.Loop() {
	}
}
`

// TestRun runs a module's benchmarks on 1 and 2 CPUs: each benchmark
// at each CPU count and repetition is a point with every value of its
// line, the repetitions run as passes over the counts, and the one that
// fails on 2 CPUs is a failure there, told once, its other points kept.
func TestRun(t *testing.T) {
	t.Parallel()
	if runtime.NumCPU() < 2 {
		t.Skip("needs 2 CPUs")
	}
	var log strings.Builder
	res, err := Run(context.Background(), Config{Dir: module(t, benchmarks), CPUs: []int{1, 2}, Count: 2, Benchtime: "20x", Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	type key struct {
		mode      string
		cpus, rep int
	}
	var got []key
	for _, p := range res.Points {
		got = append(got, key{p.Mode, p.CPUs, p.Rep})
		if p.Bench.Pkg != "example.com/x" || p.Ops != 20 || p.Unit != "ops/s" || p.Throughput <= 0 || p.Par != p.CPUs {
			t.Errorf("%s cpus=%d: pkg %q, %d ops, %v %s, par %d", p.Mode, p.CPUs, p.Bench.Pkg, p.Ops, p.Throughput, p.Unit, p.Par)
		}
		if p.Mode == "Sum" {
			if v, ok := p.Metrics["answers/op"]; !ok || v != 42 {
				t.Errorf("Sum's answers/op = %v, %v", v, ok)
			}
			if _, ok := p.Metrics["allocs/op"]; !ok {
				t.Errorf("no allocs/op: -test.benchmem is not on: %+v", p.Metrics)
			}
		}
	}
	want := []key{{"Sum", 1, 1}, {"Sum", 1, 2}, {"Sum", 2, 1}, {"Sum", 2, 2}, {"FailsOnTwo", 1, 1}, {"FailsOnTwo", 1, 2}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("points %v, want %v", got, want)
	}
	// The repeats are passes over the CPU counts, not back to back.
	if len(res.Points) == len(want) && !res.Points[1].Start.After(res.Points[2].Start) {
		t.Errorf("Sum's second run on 1 CPU began %v, before its first on 2 CPUs (%v): want passes", res.Points[1].Start, res.Points[2].Start)
	}
	if len(res.Failures) != 1 {
		t.Fatalf("failures %+v, want one, told once", res.Failures)
	}
	f := res.Failures[0]
	if f.CPUs != 2 || f.Bench != "BenchmarkFailsOnTwo" || !strings.Contains(f.Output, "broken on two CPUs") || f.Pkg != "example.com/x" {
		t.Errorf("failure %+v", f)
	}
	if !strings.Contains(log.String(), "building example.com/x") || !strings.Contains(log.String(), "on 2 CPUs") {
		t.Errorf("log:\n%s", log.String())
	}
}

// TestAgain: a benchmark named is run again alone, count times on one
// CPU and on the count named, in turn; the others are not.
func TestAgain(t *testing.T) {
	t.Parallel()
	if runtime.NumCPU() < 2 {
		t.Skip("needs 2 CPUs")
	}
	b, err := Build(context.Background(), Config{Dir: module(t, benchmarks), CPUs: []int{1, 2}, Count: 1, Benchtime: "20x"})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	res, err := b.Again(context.Background(), map[string]int{"Sum": 2}, 2)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range res.Points {
		got = append(got, fmt.Sprintf("%s-%d", p.Mode, p.CPUs))
	}
	if want := []string{"Sum-1", "Sum-1", "Sum-2", "Sum-2"}; !reflect.DeepEqual(got, want) || len(res.Failures) > 0 {
		t.Errorf("points %v, failures %+v; want %v and none", got, res.Failures, want)
	}
}

// TestRunCountsOthers: a benchmark's points say how much CPU other
// processes took while its test binary ran. A busy loop beside it, for
// longer than the benchmark runs, takes some of any machine's CPU time
// (here at least 0.05 CPUs, a few of the kernel's 10 ms ticks).
func TestRunCountsOthers(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/proc/stat"); err != nil {
		t.Skip("needs Linux's CPU accounting")
	}
	dir := module(t, benchmarks)
	hog := exec.Command("sh", "-c", "while :; do :; done")
	if err := hog.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		hog.Process.Kill()
		hog.Wait()
	}()
	res, err := Run(context.Background(), Config{Dir: dir, Bench: "Sum", CPUs: []int{1}, Benchtime: "500ms"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Points) != 1 {
		t.Fatalf("%d points, want 1", len(res.Points))
	}
	if p := res.Points[0]; p.OthersCPUs+p.StealCPUs < 0.05 {
		t.Errorf("others %.3f CPUs, steal %.3f while a busy loop ran beside the benchmark: want 0.05 or more", p.OthersCPUs, p.StealCPUs)
	}
}

// TestRunErrors: a package that does not compile gives the compiler's
// message before anything runs, an expression that matches nothing is
// NoMatchError, a folder without Go files a PackageError, a bad
// expression is refused before building.
func TestRunErrors(t *testing.T) {
	t.Parallel()
	broken := module(t, "package x\n\nimport \"testing\"\n\nfunc BenchmarkX(b *testing.B) { undefinedThing() }\n")
	_, err := Run(context.Background(), Config{Dir: broken, CPUs: []int{1}, Benchtime: "1x"})
	var build *BuildError
	if !errors.As(err, &build) || !strings.Contains(build.Output, "undefined: undefinedThing") {
		t.Errorf("a package that does not compile: %v", err)
	}

	good := module(t, benchmarks)
	_, err = Run(context.Background(), Config{Dir: good, Bench: "Nothing", CPUs: []int{1}, Benchtime: "1x"})
	var none *NoMatchError
	if !errors.As(err, &none) || !strings.Contains(err.Error(), `no benchmark matches "Nothing" in example.com/x`) {
		t.Errorf("no match: %v", err)
	}

	_, err = Run(context.Background(), Config{Dir: good, Packages: []string{"./nowhere"}, CPUs: []int{1}})
	var pe *PackageError
	if !errors.As(err, &pe) {
		t.Errorf("a folder that does not exist: %v", err)
	}

	// Outside any module: said in words, not as go's exit status.
	_, err = Run(context.Background(), Config{Dir: t.TempDir(), CPUs: []int{1}})
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "not inside a Go module") || strings.Contains(err.Error(), "exit status") {
		t.Errorf("outside a module: %v", err)
	}

	_, err = Run(context.Background(), Config{Dir: good, Bench: "(", CPUs: []int{1}})
	if err == nil || !strings.Contains(err.Error(), "not a regular expression") {
		t.Errorf("bad expression: %v", err)
	}
}

func TestSplitFlags(t *testing.T) {
	build, test, err := SplitFlags([]string{"-tags", "purego", "-race", "--timeout=20m", "-cpuprofile", "cpu.out", "-gcflags=-N -l", "-test.short"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"-tags", "purego", "-race", "-gcflags=-N -l"}; !reflect.DeepEqual(build, want) {
		t.Errorf("build flags %q, want %q", build, want)
	}
	if want := []string{"-test.timeout=20m", "-test.cpuprofile=cpu.out", "-test.short"}; !reflect.DeepEqual(test, want) {
		t.Errorf("test flags %q, want %q", test, want)
	}
	for args, want := range map[string]string{
		"-count 3":  "-count: give it before --, as brewput bench's own flag",
		"-cpu=1,2":  "-cpu: give it before --",
		"-run X":    "-run: give it before --",
		"-benchmem": "-benchmem: give it before --",
		"-o x":      "-o: brewput bench sets it, or does without it",
		"-timeout":  "-timeout needs a value",
		"./pkg":     `"./pkg" is not a go test flag`,
		"-bench=.":  "-bench: give it before --",
	} {
		if _, _, err := SplitFlags(strings.Fields(args)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("SplitFlags(%s): %v, want %q", args, err, want)
		}
	}
}

// TestValidate: what Run refuses before building anything, each error
// naming the setting and what it accepts.
func TestValidate(t *testing.T) {
	ok := Config{CPUs: []int{1, 2}}
	for _, good := range []string{"", "2s", "150ms", "1000x"} {
		c := ok
		c.Benchtime = good
		if err := c.Validate(); err != nil {
			t.Errorf("benchtime %q: %v", good, err)
		}
	}
	for want, c := range map[string]Config{
		`bench "(": not a regular expression`: {Bench: "(", CPUs: []int{1}},
		"cpus: want at least one":             {},
		"cpus: 0; want at least 1":            {CPUs: []int{0}},
		"count -1":                            {CPUs: []int{1}, Count: -1},
		`benchtime "fast": want a duration`:   {CPUs: []int{1}, Benchtime: "fast"},
		`benchtime "0x"`:                      {CPUs: []int{1}, Benchtime: "0x"},
		`benchtime "01x"`:                     {CPUs: []int{1}, Benchtime: "01x"},
		`benchtime "-1s"`:                     {CPUs: []int{1}, Benchtime: "-1s"},
	} {
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%+v: %v, want %q", c, err, want)
		}
	}
}

// lockedLog is a log safe to read while Run writes to it.
type lockedLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestRunInterruptedKeepsWhatItPrinted: interrupted while a benchmark
// runs, Run keeps every benchmark the test binary reported whole before,
// with ctx's error.
func TestRunInterruptedKeepsWhatItPrinted(t *testing.T) {
	t.Parallel()
	dir := module(t, `package x

import (
	"testing"
	"time"
)

func BenchmarkSum(b *testing.B) {
	for b.Loop() {
		_ = Sum(1, 2)
	}
}

func BenchmarkHang(b *testing.B) { time.Sleep(time.Hour) }
`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var log lockedLog
	done := make(chan struct{})
	var res Result
	var err error
	go func() {
		defer close(done)
		res, err = Run(ctx, Config{Dir: dir, CPUs: []int{1}, Benchtime: "20x", Log: &log})
	}()
	deadline := time.Now().Add(2 * time.Minute) // a guard against a hang, not a timing
	for !strings.Contains(log.String(), "BenchmarkSum") {
		if time.Now().After(deadline) {
			t.Fatalf("BenchmarkSum not reported within 2 minutes:\n%s", log.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	<-done
	if !errors.Is(err, context.Canceled) || len(res.Points) != 1 || res.Points[0].Mode != "Sum" || res.Points[0].Ops != 20 {
		t.Errorf("interrupted: %v, points %+v; want context.Canceled and Sum's point", err, res.Points)
	}
}

// TestRunComparedInTurn: watched, each benchmark runs unwatched too, one
// run of each at a time, the order alternating (watched, unwatched,
// unwatched, watched, …), each side's runs numbered as -count numbers
// them; a benchmark that fails on 2 CPUs is told once, not at each run.
func TestRunComparedInTurn(t *testing.T) {
	t.Parallel()
	if testing.Short() || runtime.NumCPU() < 2 {
		t.Skip("builds the standard library's sync with lockwatch's overlay; needs 2 CPUs")
	}
	res, err := Run(context.Background(), Config{Dir: module(t, benchmarks), CPUs: []int{1, 2}, Count: 3, Benchtime: "20x",
		Locks: true, Unwatched: true})
	if err != nil {
		t.Fatal(err)
	}
	type run struct {
		watched bool
		rep     int
		start   time.Time
	}
	var sum []run
	for _, side := range [][]results.Point{res.Points, res.Unwatched} {
		for _, p := range side {
			if p.Mode == "Sum" && p.CPUs == 1 {
				sum = append(sum, run{p.Bench.Watched, p.Rep, p.Start})
			}
		}
	}
	slices.SortFunc(sum, func(a, b run) int { return a.start.Compare(b.start) })
	want := []run{{true, 1, time.Time{}}, {false, 1, time.Time{}}, {false, 2, time.Time{}}, {true, 2, time.Time{}},
		{true, 3, time.Time{}}, {false, 3, time.Time{}}}
	if len(sum) != len(want) {
		t.Fatalf("Sum on 1 CPU: %d runs, want %d: %+v", len(sum), len(want), sum)
	}
	for i := range sum {
		if sum[i].watched != want[i].watched || sum[i].rep != want[i].rep {
			t.Errorf("Sum on 1 CPU, run %d in time: watched %v, rep %d; want watched %v, rep %d", i+1,
				sum[i].watched, sum[i].rep, want[i].watched, want[i].rep)
		}
	}
	failed := 0
	for _, f := range res.Failures {
		if f.CPUs == 2 && strings.Contains(f.Output, "broken on two CPUs") {
			failed++
		}
	}
	if failed != 1 {
		t.Errorf("FailsOnTwo on 2 CPUs told %d times, want once: %+v", failed, res.Failures)
	}
}

// A benchmark that writes while it runs (bigcache logs as it starts)
// splits go test's line of its name from its result: parse joins them.
func TestParseMendsSplitLines(t *testing.T) {
	out := "goos: linux\npkg: example.com/m\n" +
		"BenchmarkBigcache            \t2026/11/27 20:43:03 Allocated new queue in 187.929µs;\n" +
		"Capacity: 585000\n" +
		"  323533\t       283.3 ns/op\t      53 B/op\t       1 allocs/op\n" +
		"BenchmarkFastcache   \t 18387418\t        57.99 ns/op\n" +
		"BenchmarkQuiet \tnot a result\n" +
		"PASS\n"
	points, failures := parse(out, pkg{path: "example.com/m"}, 1, time.Now())
	if len(failures) != 0 {
		t.Fatalf("failures %+v", failures)
	}
	got := map[string]float64{}
	for _, p := range points {
		v := p.Metrics["ns/op"]
		got[p.Bench.Name] = v
	}
	if got["BenchmarkBigcache"] != 283.3 || got["BenchmarkFastcache"] != 57.99 || len(got) != 2 {
		t.Errorf("read %v, want Bigcache's 283.3 and Fastcache's 57.99 ns/op alone", got)
	}
}
