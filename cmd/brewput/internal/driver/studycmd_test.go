package driver

import (
	"context"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/studyjob"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// cacheStudy is the example study, from cmd/brewput/internal/driver as from the root.
const cacheStudy = "../../../../examples/cache/study"

// builtCacheStudy is the example study built once for the test process
// (removed by TestMain): every test that runs its commands with the
// program built already ran the same go build.
var builtCacheStudy struct {
	once   sync.Once
	prog   *studyjob.Program
	remove func()
	err    error
}

// buildCache is the example study, built once for the test process, for
// a test's commands: as built now, so that a why's --within counts from
// the test's start, not the build's.
func buildCache(t *testing.T) *studyjob.Program {
	t.Helper()
	b := &builtCacheStudy
	b.once.Do(func() { b.prog, b.remove, b.err = studyjob.Build(context.Background(), cacheStudy) })
	if b.err != nil {
		t.Fatal(b.err)
	}
	prog := *b.prog
	prog.Began = time.Now()
	return &prog
}

// removeCacheStudy removes the program buildCache built, once every test
// is done.
func removeCacheStudy() {
	if builtCacheStudy.remove != nil {
		builtCacheStudy.remove()
	}
}

// inStudy runs brewput study PKG args with prog built already.
func inStudy(ctx context.Context, prog *studyjob.Program, args ...string) (code int, stdout, stderr string) {
	var out syncBuffer
	errOut := syncBuffer{columns: unwrapped}
	code = inStudyTo(ctx, prog, &out, &errOut, args...)
	return code, out.String(), errOut.String()
}

// inStudyTo is inStudy writing to stdout and stderr as it goes.
func inStudyTo(ctx context.Context, prog *studyjob.Program, stdout, stderr io.Writer, args ...string) int {
	e := &env{stdin: strings.NewReader(""), stdout: stdout, stderr: stderr}
	defer e.release()
	return e.exit(ctx, runStudy(ctx, e, prog, append([]string{cacheStudy}, args...)))
}

// brewput study builds the program and runs its commands end to end:
// list, and a short run.
func TestStudyCommand(t *testing.T) {
	t.Parallel()
	stdout, _ := succeeds(t, noChild(), "study", cacheStudy, "list")
	if !strings.Contains(stdout, "mutex-write    one map behind one mutex; 50 % writes\n") || strings.Count(stdout, "\n") != 6 {
		t.Errorf("list:\n%s", stdout)
	}
	stdout, stderr := succeeds(t, noChild(), "study", cacheStudy, "run", "--cpus", "1", "--dur", "50ms", "--variants", "mutex-write", "--noisy", "ok")
	if !strings.Contains(stdout, "mutex-write") || !strings.Contains(stdout, "mutex cache held") || !strings.Contains(stderr, "[1/1] mutex-write cpus=1: ") {
		t.Errorf("run:\n%s%s", stdout, stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "brewput: study: give the study program's package first"},
		{[]string{"--cpus", "1"}, "brewput: study: give the study program's package first"},
		{[]string{"./nonexistent", "list"}, "brewput: study ./nonexistent: does not build: "},
		{[]string{"../../../../results"}, "brewput: study ../../../../results: not a study program"},
		{[]string{cacheStudy, "--cpus", "0"}, "cache: --cpus"},
	} {
		code, stdout, stderr := brewput(context.Background(), t, noChild(), append([]string{"study"}, c.args...)...)
		if code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("study %q: exit %d, stdout %q, stderr %q; want exit 2 and one line %q…", c.args, code, stdout, stderr, c.want)
		}
	}
}

// The study's main job and the commands that read its results: the
// variants side by side and the compact table, with no limit named and
// no lattes; run's file read back by compare, fit and report.
func TestStudyMainJob(t *testing.T) {
	prog := buildCache(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "report")
	code, stdout, stderr := inStudy(context.Background(), prog, "--variants", "mutex-write,sharded-write,syncmap-write", "--cpus", "1", "--par", "2",
		"--dur", "50ms", "--warmup", "10ms", "--noisy", "ok", "--out", out)
	if code != exitOK {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	for _, want := range []string{"Study cache, as measured", "On 1 CPU, measured on", "variant", "mutex-write", "sharded-write", "syncmap-write",
		"of the most", "most used meter", "mutex cache held", "report: " + filepath.Join(out, "index.html")} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	for _, never := range []string{"limited by", "What limits"} {
		if strings.Contains(stdout, never) {
			t.Errorf("output says %q:\n%s", never, stdout)
		}
	}
	// The full table's column, in whatever unit its latencies read best.
	meanColumn := regexp.MustCompile(`mean (ms|µs|ns)`)
	if meanColumn.MatchString(stdout) {
		t.Errorf("output has the full table's mean column:\n%s", stdout)
	}
	points, err := results.ReadFile(filepath.Join(out, "results.json"))
	if err != nil || len(points) != 3 || points[0].StudyName() != "cache" || points[0].CPUSet == "" || len(points[1].Machines()) != 16 {
		t.Fatalf("results: %v %+v", err, points)
	}
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	for _, never := range []string{"limits it", "What limits", "shard it", "hold it for less", "Lattes per second"} {
		if strings.Contains(string(page), never) {
			t.Errorf("the page says %q of the user's code", never)
		}
	}
	if err != nil || !strings.Contains(string(page), "mutex cache held") || !strings.Contains(string(page), "The variants side by side") {
		t.Errorf("page: %v; want the mutex's meter described and the variants side by side", err)
	}

	file := filepath.Join(dir, "run.json")
	if code, _, stderr := inStudy(context.Background(), prog, "run", "--variants", "syncmap-read", "--cpus", "1", "--dur", "30ms", "--warmup", "0s", "--count", "2", "--noisy", "ok", "--out", file); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	if code, stdout, stderr := inStudy(context.Background(), prog, "compare", "--all", file, file); code != exitOK || !strings.Contains(stdout, "syncmap-read") {
		t.Errorf("compare: exit %d:\n%s%s", code, stdout, stderr)
	}
	if code, _, stderr := inStudy(context.Background(), prog, "fit", file); code != exitUsage || !strings.Contains(stderr, "a fit needs at least 3") {
		t.Errorf("fit of one CPU count: exit %d: %s", code, stderr)
	}
	// --format table: every point in full, each repetition a row; the
	// report's folder is the study's by default.
	t.Chdir(dir)
	if code, stdout, stderr := inStudy(context.Background(), prog, "report", file, "--format", "table"); code != exitOK ||
		!meanColumn.MatchString(oneLine(stdout)) || strings.Count(stdout, "syncmap-read ") < 2 || !strings.Contains(stdout, "cache-report") {
		t.Errorf("report --format table: exit %d:\n%s%s", code, stdout, stderr)
	}
}

// Ctrl-C keeps what was measured: the report of the points so far, exit
// 130, a last line saying so.
func TestStudyInterrupted(t *testing.T) {
	t.Parallel()
	prog := buildCache(t)
	out := filepath.Join(t.TempDir(), "report")
	interruptAtFirst(t, "point", "what was measured", func(ctx context.Context, stdout, stderr *syncBuffer) int {
		return inStudyTo(ctx, prog, stdout, stderr, "--variants", "mutex-read,mutex-write,syncmap-read", "--cpus", "1", "--dur", "400ms", "--noisy", "ok", "--out", out)
	})
	if points, err := results.ReadFile(filepath.Join(out, "results.json")); err != nil || len(points) == 0 || len(points) == 3 {
		t.Errorf("the report of a run cut short holds %d points (%v); want those measured", len(points), err)
	}
}

// Bad flags are one line naming the flag and the study, exit 2, nothing
// measured or written.
func TestStudyBadInput(t *testing.T) {
	prog := buildCache(t)
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--variants", "nope"}, `cache: --variants: "nope": not a variant; accepted: mutex-read, mutex-write`},
		{[]string{"--cpus", "999"}, "cache: --cpus"},
		{[]string{"--dur", "0s"}, "cache: --dur 0s"},
		{[]string{"--dur", "soon"}, "want a duration"},
		{[]string{"--rate", "10", "--interval", "1ms"}, "--rate and --interval"},
		{[]string{"--maxq", "3"}, "--maxq: only applies to an open loop"},
		{[]string{"--count", "0"}, "--count 0"},
		{[]string{"--par", "-1"}, "--par -1: want 0 (one per CPU) or a positive number of workers"},
		{[]string{"run", "--rate", "0"}, "--rate 0: want a positive number of calls per second, such as 10000"},
		{[]string{"run", "--interval", "0s"}, "--interval 0s: want a positive duration such as 100us"},
		{[]string{"run", "--rate", "10", "--maxq", "-1"}, "--maxq -1: want 0 or more waiting calls"},
		{[]string{"--noisy", "no"}, `--noisy "no"`},
		{[]string{"--format", "wide"}, `--format "wide": want compact or table`},
		{[]string{"bogus"}, `takes no arguments, got "bogus"`},
		{[]string{"run", "--format", "xml"}, `--format: unknown format "xml"`},
		{[]string{"run", "--out", dir}, "is a directory"},
		{[]string{"run", "--out", filepath.Join(dir, "none", "x.json")}, "cannot write"},
		{[]string{"report", "x.json", "--format", "wide"}, `--format "wide": want compact or table`},
		{[]string{"fit"}, "at least one results file"},
		{[]string{"compare", "a"}, "two results files"},
		{[]string{"list", "x"}, "takes no arguments"},
		{[]string{"why"}, "cache: --variant: give the variant to explain"},
		{[]string{"why", "--variant", "nope"}, `--variant: "nope": not a variant`},
		{[]string{"why", "--variant", "mutex-write", "--cpus", "1,2"}, `--cpus "1,2": want one CPU count`},
		{[]string{"why", "--variant", "mutex-write", "--stretch", "2"}, "--stretch 2"},
		{[]string{"why", "--variant", "mutex-write", "--count", "5", "--max-count", "4"}, "--max-count 4"},
		{[]string{"predict", "--cpus", "0"}, "--cpus"},
		{[]string{"predict", "--cpus", "1-500"}, "--cpus"},
		{[]string{"predict", "--format", "xml"}, `--format "xml": want table or json`},
		{[]string{"predict", "--variants", "nope"}, `--variants: "nope": not a variant`},
		{[]string{"predict", "--from", "x.json", "--dur", "1s"}, "--dur: applies when measuring"},
		{[]string{"predict", "--dur", "0s"}, "--dur 0s"},
		{[]string{"predict", "--from", "/nonexistent/x.json"}, "--from"},
	} {
		args := c.args
		if args[0] != "run" && strings.HasPrefix(args[0], "--") {
			args = append(args, "--out", filepath.Join(dir, "never")) // the main job's report
		}
		code, stdout, stderr := inStudy(context.Background(), prog, args...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "cache: ") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", c.args, code, stdout, stderr, c.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("bad input left %d files", len(entries))
	}
}

// predict --from reads a results file of the study and writes, by
// default, what the prediction is for and a table of speed-ups by what
// each variant was read as; with --format json a point per CPU count,
// its band and the shape it was read as.
func TestStudyPredict(t *testing.T) {
	prog := buildCache(t)
	const ops = 10e6
	lock := func(n float64, hold time.Duration) results.Machine {
		return results.Machine{Name: "cache", Kind: "mutex", Uses: int64(n), BusyFrac: n * hold.Seconds()}
	}
	point := func(variant string, cpus int, thr float64, machines ...results.Machine) results.Point {
		return results.Point{Kind: results.KindStudy, Source: results.SourceMeasured, Spec: results.Spec{Mode: variant, CPUs: cpus, Load: results.Load{Par: cpus, Dur: time.Second}}, Study: &results.Study{Name: "cache", Meters: machines}, Ops: int64(thr),
			Throughput: thr, Unit: "ops/s", Metrics: map[results.Metric]float64{results.CPUUsed: float64(cpus)}}
	}
	disturbed := func(p results.Point) results.Point {
		p.Disturbed = true
		return p
	}
	file := keptFile(t, []results.Point{
		point("mutex-write", 1, ops, lock(ops, 40*time.Nanosecond)), point("mutex-write", 2, 0.8*ops, lock(0.8*ops, 40*time.Nanosecond)),
		point("mutex-write", 2, 0.82*ops, lock(0.82*ops, 40*time.Nanosecond)), disturbed(point("mutex-write", 2, 2*ops, lock(2*ops, 40*time.Nanosecond))),
		point("syncmap-write", 1, ops/2), disturbed(point("syncmap-write", 2, 0.98*ops)),
		disturbed(point("mutex-read", 1, ops, lock(ops, 40*time.Nanosecond))),
	})
	// The answer first, for the machine it is for; each variant under
	// what it was read as; the disturbed runs it left out; a variant
	// whose every run on a count was disturbed, and one measured on one
	// CPU alone, not predicted, and why.
	code, out, errs := inStudy(context.Background(), prog, "predict", "--from", file, "--cpus", "1-4", "--variants", "mutex-write,syncmap-write,mutex-read")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	flat := strings.Join(strings.Fields(out), " ") // its sentences wrap
	if !strings.HasPrefix(flat, "At 4 CPUs, mutex-write makes ") || !strings.Contains(flat, " ops/s (") {
		t.Errorf("the answer does not say first what makes the most, in its unit:\n%s", out)
	}
	for _, want := range []string{"Past this machine's", "one lock (", "mutex-write", "1 of the 4 runs measured were disturbed (other processes took CPU while they ran) and left out",
		"Not predicted: syncmap-write: on 2 CPUs, " + text.EveryRunDisturbed + " (--noisy ok predicts from them).", "Not predicted: mutex-read: on 1 CPU, " + text.EveryRunDisturbed + " (--noisy ok predicts from them)."} {
		if !strings.Contains(flat, want) {
			t.Errorf("answer lacks %q:\n%s", want, out)
		}
	}
	// Nothing predicted: no line about what it would be for.
	if code, out, errs := inStudy(context.Background(), prog, "predict", "--from", file, "--cpus", "1-4", "--variants", "mutex-read"); code != exitOK || strings.Contains(out, "Past this machine's") || !strings.HasPrefix(out, "Not predicted: mutex-read") {
		t.Errorf("exit %d, nothing predicted:\n%s%s", code, out, errs)
	}
	code, out, errs = inStudy(context.Background(), prog, "predict", "--from", file, "--cpus", "1-4", "--variants", "mutex-write", "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	points, err := results.ReadJSON(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range points {
		if p.Kind != results.KindStudy || p.Source != results.SourceModel || p.Mode != "mutex-write" || p.CPUs != i+1 || p.Band == nil || p.Band.Shape != "one lock" ||
			!(p.Band.Throughput[0] <= p.Throughput && p.Throughput <= p.Band.Throughput[1]) {
			t.Errorf("point %d: %+v, band %+v", i+1, p, p.Band)
		}
	}
	// On 2 CPUs, what the undisturbed runs measured, their spread the band.
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*b }
	if len(points) != 4 || !near(points[1].Throughput, 0.81*ops) || !near(points[1].Band.Throughput[0], 0.8*ops) || !near(points[1].Band.Throughput[1], 0.82*ops) {
		t.Errorf("%d JSON points, want 4, the second what 2 CPUs measured undisturbed (%v, band [%v, %v]): %+v", len(points), 0.81*ops, 0.8*ops, 0.82*ops, points)
	}
	if code, _, errs := inStudy(context.Background(), prog, "predict", "--from", file, "--variants", "mutex-write,sharded-read"); code != exitUsage || !strings.Contains(errs, "no measured point of sharded-read") {
		t.Errorf("predict of variants the file lacks: exit %d, %q", code, errs)
	}
}
