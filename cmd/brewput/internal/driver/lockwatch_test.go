package driver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// TestBenchLocks: bench --locks on the order book, which imports nothing
// of brewput, gives each point the lock sites its run took, named by
// function and file:line: the one lock of Locked.Place, the 64 shards of
// Sharded.Place as one group. Counts and times are not checked.
func TestBenchLocks(t *testing.T) {
	before := listFiles(t, "../../../../examples/book")
	defer func() {
		if after := listFiles(t, "../../../../examples/book"); !slices.Equal(before, after) {
			t.Errorf("the package's folder changed: %v, then %v", before, after)
		}
	}()
	out := filepath.Join(t.TempDir(), "report")
	code, _, stderr := brewput(context.Background(), t, noChild(), "bench", "../../../../examples/book", "-bench", "Book", "-cpu", "1",
		"-benchtime", "100000x", "--locks", "--out", out)
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	points, err := results.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(points) != 2 {
		t.Fatalf("%d points, want 2", len(points))
	}
	// The report's page holds the terminal's table of locks.
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`id="locks"`, "The locks they took", "(*Sharded).Place at book.go:", "Book/design=sharded on 1 CPU:"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the report's page lacks %q", want)
		}
	}
	for _, p := range points {
		groups := map[string]int{}
		for _, m := range p.Machines() {
			groups[results.MeterGroup(m.Name)]++
		}
		want, members := "(*Locked).Place at book.go:", 1
		if strings.Contains(p.Mode, "sharded") {
			want, members = "(*Sharded).Place at book.go:", 64
		}
		found := false
		for g, n := range groups {
			if strings.HasPrefix(g, want) {
				found = true
				if n < members*7/8 || n > members*9/8 {
					t.Errorf("%s: group %q of %d locks, want about %d", p.Mode, g, n, members)
				}
			}
		}
		// The standard library's own locks (sync.Pool's) may show too.
		if !found || !p.Bench.Watched {
			t.Errorf("%s: lock groups %v (watched %v), want %s…", p.Mode, groups, p.Bench.Watched, want)
		}
	}
}

// TestWhyBench: why on a package's benchmark stretches the book's lock
// site, and runs the matched control (as much time before every lock), in
// rounds, and answers with the site's name; its verdict, a matter of
// timing, is not checked.
func TestWhyBench(t *testing.T) {
	t.Parallel()
	kept := filepath.Join(t.TempDir(), "why.json")
	code, stdout, stderr := brewput(context.Background(), t, noChild(), "why", "../../../../examples/book", "-bench", "Book/design=onelock",
		"--cpus", "1", "--count", "2", "--max-count", "2", "-benchtime", "100000x", "--noisy", "ok", "--format", "json", "--out", kept)
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	// What was measured answers again, as it answered: the same answer,
	// from the runs the file keeps; and bench's report reads its runs as
	// they are.
	from, again, said := brewput(context.Background(), t, noChild(), "why", "--from", kept, "--format", "json")
	if from != exitOK || answerOf(t, again) != answerOf(t, stdout) {
		t.Errorf("why --from: exit %d, answer\n%s\nwant\n%s\n%s", from, answerOf(t, again), answerOf(t, stdout), said)
	}
	from, report, said := brewput(context.Background(), t, noChild(), "bench", "--from", kept, "--out", t.TempDir())
	if from != exitOK || !strings.Contains(report, "Book/design=onelock") {
		t.Errorf("bench --from: exit %d\n%s\n%s", from, report, said)
	}
	from, _, said = brewput(context.Background(), t, noChild(), "why", "--from", kept, "--count", "3")
	if from != exitUsage || !strings.Contains(said, "--count: applies when measuring") {
		t.Errorf("why --from --count 3: exit %d\n%s", from, said)
	}
	var s struct {
		Variant     string
		Extra       float64 `json:"extra_per_op_ns"`
		Experiments []struct {
			Name      string
			Extra     float64 `json:"extra_ns"`
			UsesPerOp float64 `json:"uses_per_op"`
		}
		Control struct {
			Per   string
			Extra float64 `json:"extra_ns"`
		}
		Answer string
	}
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("%v:\n%s", err, stdout)
	}
	if s.Variant != "Book/design=onelock" || len(s.Experiments) != 1 || !strings.HasPrefix(s.Experiments[0].Name, "the (*Locked).Place at book.go:") {
		t.Errorf("why's experiments: %+v\n%s", s, stderr)
	}
	// The book takes one lock an operation, which the watcher counts by
	// sampling one lock in 256 at random (a few percent off from run to
	// run, far less than half). The site's stretch a use is the extra per
	// operation over its uses an operation; the control's, spread over
	// every lock the process took, is no more than the site's.
	for _, e := range s.Experiments {
		if !(e.UsesPerOp > 0.5 && e.UsesPerOp < 2) {
			t.Errorf("%s: %.3f uses an operation, want about 1", e.Name, e.UsesPerOp)
			continue
		}
		// Fractions of a nanosecond are kept, not rounded off.
		if want := s.Extra / e.UsesPerOp; math.Abs(e.Extra-want) > 1e-6*want {
			t.Errorf("%s stretched by %g ns a use, want the %g ns an operation over %.3f uses an operation", e.Name, e.Extra, s.Extra, e.UsesPerOp)
		}
		if s.Control.Per != "a lock taken" || s.Control.Extra <= 0 || s.Control.Extra > e.Extra*(1+1e-6) {
			t.Errorf("the control: %g ns %s; want a lock taken, at most the site's %g ns a use", s.Control.Extra, s.Control.Per, e.Extra)
		}
	}
	if !strings.Contains(stderr, "round 2") || !strings.Contains(stderr, "a round takes about") || !strings.Contains(stderr, "control, ") {
		t.Errorf("no progress by rounds, with the control:\n%s", stderr)
	}

	// Past --within, no round starts: the answer is what was measured,
	// undecided first, and says what would decide it.
	// On 2 CPUs, a fixed count of iterations gets the note on
	// b.RunParallel's grain.
	code, stdout, stderr = brewput(context.Background(), t, noChild(), "why", "../../../../examples/book", "-bench", "Book/design=onelock",
		"--cpus", "2", "--within", "1ms", "-benchtime", "1000x", "--noisy", "ok")
	flat := strings.Join(strings.Fields(stdout), " ")
	if code != exitOK || !strings.Contains(stdout, "\n\nUndecided after 0 rounds") || !strings.Contains(flat, "What would decide it") ||
		!strings.Contains(flat, "It stopped at its limit of 1ms after 0 rounds") {
		t.Errorf("--within 1ms: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(strings.Join(strings.Fields(stderr), " "), "-benchtime 1000x: a benchmark that uses b.RunParallel") {
		t.Errorf("-benchtime 1000x on 2 CPUs: no note on RunParallel's grain:\n%s", stderr)
	}
}

// answerOf is the answer of why's JSON.
func answerOf(t *testing.T, js string) string {
	t.Helper()
	var a struct{ Answer string }
	if err := json.Unmarshal([]byte(js), &a); err != nil {
		t.Fatalf("%v:\n%s", err, js)
	}
	return a.Answer
}

// TestWhyManyBenchmarks: why explains one benchmark. A pattern that
// matches two sub-benchmarks is refused, exit 2, before its first full
// run (their names exist only once the benchmark runs); one that matches
// two top-level benchmarks, or none, before the build, read from the
// test files.
func TestWhyManyBenchmarks(t *testing.T) {
	t.Parallel()
	code, _, stderr := brewput(context.Background(), t, noChild(), "why", "../../../../examples/book", "-bench", "Book",
		"--cpus", "1", "-benchtime", "100000x")
	if code != exitUsage || !strings.Contains(stderr, "matches 2 benchmarks (BenchmarkBook/design=onelock, BenchmarkBook/design=sharded); name one") ||
		strings.Contains(stderr, "round 1") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	for _, c := range []struct{ bench, want string }{
		{"Book|Cache/design=mutex", `-bench "Book|Cache/design=mutex": matches 2 benchmarks (BenchmarkBook, BenchmarkCache); name one`},
		{"Nothing", `-bench "Nothing": no benchmark matches "Nothing" in github.com/brewput/brewput/examples/book, github.com/brewput/brewput/examples/cache`},
	} {
		code, stdout, stderr := brewput(context.Background(), t, noChild(), "why", "../../../../examples/book", "../../../../examples/cache", "-bench", c.bench, "--cpus", "1")
		if flat := strings.Join(strings.Fields(stderr), " "); code != exitUsage || flat != "brewput: "+c.want || stdout != "" {
			t.Errorf("-bench %q: exit %d, stdout %q, stderr:\n%s", c.bench, code, stdout, stderr)
		}
	}
}

// TestPredictBench: predict on a package's benchmarks measures them
// watched and writes a point a benchmark and CPU count, each named as go
// test names it, with its band; and predicts nothing of a benchmark that
// took no lock. (Measured on one CPU alone, where one goroutine takes
// every lock, it would predict none: see TestOneGoroutineOnlyNotPredicted.)
func TestPredictBench(t *testing.T) {
	t.Parallel()
	// --noisy ok: a busy machine's runs are kept, as the points are
	// checked, not their figures.
	kept := filepath.Join(t.TempDir(), "measured.json")
	code, stdout, stderr := brewput(context.Background(), t, noChild(), "predict", "../../../../examples/book", "-bench", "Book",
		"--cpus", "1-4", "--measure", "1,2", "--count", "1", "-benchtime", "20000x", "--noisy", "ok", "--format", "json", "--out", kept)
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	// What was measured predicts again as it predicted.
	from, again, said := brewput(context.Background(), t, noChild(), "predict", "--from", kept, "--cpus", "1-4", "--noisy", "ok", "--format", "json")
	if from != exitOK || again != stdout {
		t.Errorf("predict --from its --out: exit %d\n%s\nwant\n%s\n%s", from, again, stdout, said)
	}
	f, err := results.Read([]byte(stdout))
	if err != nil {
		t.Fatal(err)
	}
	points := f.Points
	if len(points) != 8 {
		t.Fatalf("%d points, want 2 benchmarks × 4 CPU counts:\n%s", len(points), stdout)
	}
	for _, p := range points {
		if p.Kind != results.KindBench || p.Source != results.SourceModel || !strings.HasPrefix(p.Bench.Name, "BenchmarkBook/design=") ||
			p.Bench.Pkg != "github.com/brewput/brewput/examples/book" || p.Band == nil || !(p.Throughput > 0) {
			t.Errorf("cpus=%d: %+v, bench %+v", p.CPUs, p.Spec, p.Bench)
		}
	}
}

// TestPredictDisturbed: predict stands on the undisturbed runs alone and
// declines, in bench's words, a benchmark whose every run on a CPU count
// was disturbed; with --noisy ok it predicts from them and says so.
func TestPredictDisturbed(t *testing.T) {
	rep := 0
	point := func(name string, cpus int, thr float64, disturbed bool) results.Point {
		rep++
		return results.Point{Kind: results.KindBench, Source: results.SourceMeasured, Spec: results.Spec{Mode: name, CPUs: cpus, Load: results.Load{Par: cpus, Dur: time.Second}}, Rep: rep,
			Ops: int64(thr), Throughput: thr, Unit: "ops/s", Trust: results.Trust{Disturbed: disturbed},
			Bench: &results.Benchmark{Name: "Benchmark" + name, Pkg: "example.com/x", Watched: true}}
	}
	file := keptFile(t, []results.Point{
		point("Quiet", 1, 1e6, false), point("Quiet", 1, 1e6, false), point("Quiet", 1, 9e6, true),
		point("Quiet", 2, 2e6, false), point("Quiet", 2, 2e6, false),
		point("Busy", 1, 1e6, true), point("Busy", 1, 1e6, true), point("Busy", 2, 2e6, false), point("Busy", 2, 2e6, false),
	})
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	code, stdout, stderr := brewput(context.Background(), t, noChild(), "predict", "--from", file, "--cpus", "1,2,4")
	for _, want := range []string{"Not predicted: Busy: on 1 CPU, " + text.EveryRunDisturbed + " (--noisy ok predicts from them).",
		"1 of the 5 runs measured were disturbed (other processes took CPU while they ran) and left out: it stands on the rest."} {
		if code != exitOK || !strings.Contains(flat(stdout), want) {
			t.Errorf("exit %d; answer lacks %q:\n%s%s", code, want, stdout, stderr)
		}
	}
	if !strings.Contains(stdout, "Quiet") {
		t.Errorf("the undisturbed benchmark not predicted:\n%s", stdout)
	}
	code, stdout, stderr = brewput(context.Background(), t, noChild(), "predict", "--from", file, "--cpus", "1,2,4", "--noisy", "ok")
	if want := "3 of the 9 runs measured were disturbed (other processes took CPU while they ran) and kept (--noisy ok): it stands on them."; code != exitOK ||
		!strings.Contains(flat(stdout), want) || strings.Contains(stdout, "Not predicted") {
		t.Errorf("--noisy ok: exit %d; want both predicted and %q:\n%s%s", code, want, stdout, stderr)
	}
}

// TestPredictUnexplainedLoss: a benchmark whose 2 CPUs made more than one
// but short of two, with no lock or allocation seen, is declined in one
// line that says what was measured; one that made two is predicted.
func TestPredictUnexplainedLoss(t *testing.T) {
	var points []results.Point
	for i, thr := range []float64{1e6, 1e6, 1.4e6, 1.4e6, 1e6, 1e6, 2e6, 2e6} {
		name, cpus := "Lossy", 1+i/2%2
		if i >= 4 {
			name = "Free"
		}
		points = append(points, results.Point{Kind: results.KindBench, Source: results.SourceMeasured,
			Spec: results.Spec{Mode: name, CPUs: cpus, Load: results.Load{Par: cpus, Dur: time.Second}}, Rep: i + 1,
			Ops: int64(thr), Throughput: thr, Unit: "ops/s", Bench: &results.Benchmark{Name: "Benchmark" + name, Pkg: "example.com/x", Watched: true}})
	}
	file := keptFile(t, points)
	code, stdout, stderr := brewput(context.Background(), t, noChild(), "predict", "--from", file, "--cpus", "1,2,4")
	want := "Not predicted: Lossy: no lock or allocation seen explains why 2 CPUs made ×1.4 of one's work"
	if got := strings.Join(strings.Fields(stdout), " "); code != exitOK || !strings.Contains(got, want) || !strings.Contains(got, "Free") {
		t.Errorf("exit %d; want Free predicted and %q:\n%s%s", code, want, stdout, stderr)
	}
}

// TestPredictSharedChannel: a pool on a buffered channel its workers
// share, whose 2 CPUs happened to make ×1.9 of one's work, is read as one
// lock, the channel's, not as nothing shared, and predicted under ×4 on
// 16 CPUs (a 16-core machine made ×1.07 of such a pool); a channel each
// is nothing shared.
func TestPredictSharedChannel(t *testing.T) {
	var points []results.Point
	for i, c := range []struct {
		name  string
		cpus  int
		thr   float64
		share float64 // takers of the channel
	}{{"Shared", 1, 5e6, 1}, {"Shared", 1, 5e6, 1}, {"Shared", 2, 9.5e6, 2}, {"Shared", 2, 9.5e6, 2},
		{"Own", 1, 5e6, 1}, {"Own", 1, 5e6, 1}, {"Own", 2, 9.9e6, 1}, {"Own", 2, 9.9e6, 1}} {
		pool := results.Machine{Name: "(*Pool).Get at pool.go:31 + (*Pool).Put at pool.go:40", Kind: "chan receive",
			Uses: int64(2 * c.thr), Goroutines: c.cpus, Takers: c.share}
		points = append(points, results.Point{Kind: results.KindBench, Source: results.SourceMeasured,
			Spec: results.Spec{Mode: c.name, CPUs: c.cpus, Load: results.Load{Par: c.cpus, Dur: time.Second}}, Rep: i%2 + 1,
			Ops: int64(c.thr), Throughput: c.thr, Unit: "ops/s",
			Bench: &results.Benchmark{Name: "Benchmark" + c.name, Pkg: "example.com/x", Watched: true, Locks: []results.Machine{pool}}})
	}
	file := keptFile(t, points)
	code, stdout, stderr := brewput(context.Background(), t, noChild(), "predict", "--from", file, "--cpus", "1,2,16", "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	got, err := results.Read([]byte(stdout))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range got.Points {
		if p.CPUs != 16 {
			continue
		}
		x := p.Throughput / 5e6
		switch {
		case p.Mode == "Shared" && (p.Band.Shape != "one lock" || x >= 4):
			t.Errorf("a shared channel on 16 CPUs: ×%.2f, read as %q; want one lock, under ×4", x, p.Band.Shape)
		case p.Mode == "Own" && p.Band.Shape != "nothing shared":
			t.Errorf("a channel each on 16 CPUs: read as %q, want nothing shared", p.Band.Shape)
		}
	}
}

// TestLocksBadInput: what cannot be watched or predicted is refused in a
// line, exit 2, before anything runs.
func TestLocksBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "../../../../examples/book", "--locks", "--", "-overlay", "x.json"}, "overlay: watching the locks builds with an overlay of its own"},
		{[]string{"predict", "-bench", "Book"}, "predict: give one package"},
		{[]string{"predict", "../../../../examples/book"}, "-bench: give the benchmarks to predict"},
		{[]string{"predict", "../../../../examples/book", "-bench", "("}, "not a regular expression"},
		{[]string{"predict", "--from", "x.json", "../../../../examples/book"}, "--from x.json: reads what was measured"},
		{[]string{"predict", "../../../../examples/book", "-bench", "Book", "--calibration", "/nonexistent/cal.json"}, "--calibration /nonexistent/cal.json: no such file"},
		{[]string{"predict", "../../../../examples/book", "-bench", "Book", "--calibration", "../../../../model/calibrate/reference.json"}, "holds no contention curves"},
		{[]string{"why", "../../../../examples/book", "-bench", "Book", "--mode", "locking"}, "--mode locking takes no arguments"},
		{[]string{"why", "../../../../examples/book"}, "-bench: give the benchmark to explain"},
		{[]string{"why", "../../../../examples/book", "-bench", "Book", "--cpus", "1,2"}, `--cpus "1,2": want one CPU count`},
		{[]string{"why", "../../../../examples/book", "-bench", "Book", "--dur", "1s"}, "--dur: a benchmark runs as its code says"},
		{[]string{"why", "../../../../examples/book", "-bench", "Book", "--within", "-1s"}, "--within -1s: want a positive duration"},
	} {
		code, stdout, stderr := brewput(context.Background(), t, noChild(), c.args...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code != exitUsage || stdout != "" || len(lines) != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and one line with %q", c.args, code, stdout, stderr, exitUsage, c.want)
		}
	}
}

// listFiles is every file under dir, with its size and time.
func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		out = append(out, fmt.Sprintf("%s %d %v", path, info.Size(), info.ModTime()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPredictAnswer: the answer's first line ranks the benchmarks on the
// most CPUs asked, in their unit, past the reference curves' 16 CPUs too;
// --format json writes the same ranking as a record beside the points;
// and for a target whose curves reach fewer CPUs than asked, the counts
// past them get a line, for all the benchmarks at once, saying why and
// what would answer it, exit 0.
func TestPredictAnswer(t *testing.T) {
	var points []results.Point
	for i, thr := range []float64{1e6, 1e6, 2e6, 2e6, 3e6, 3e6, 6e6, 6e6} {
		name, cpus := "Store/design=slow", 1+i/2%2
		if i >= 4 {
			name = "Store/design=fast"
		}
		points = append(points, results.Point{Kind: results.KindBench, Source: results.SourceMeasured,
			Spec: results.Spec{Mode: name, CPUs: cpus, Load: results.Load{Par: cpus, Dur: time.Second}}, Rep: i + 1,
			Ops: int64(thr), Throughput: thr, Unit: "ops/s", Bench: &results.Benchmark{Name: "Benchmark" + name, Pkg: "example.com/x", Watched: true}})
	}
	file := keptFile(t, points)
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	code, stdout, stderr := brewput(context.Background(), t, noChild(), "predict", "--from", file, "--cpus", "1,2,16,64")
	if want := "At 64 CPUs, of Store/design=*, fast makes the most: "; code != exitOK || !strings.HasPrefix(flat(stdout), want) || !strings.Contains(stdout, "ops/s") {
		t.Errorf("exit %d; want the answer first, %q:\n%s%s", code, want, stdout, stderr)
	}
	code, stdout, stderr = brewput(context.Background(), t, noChild(), "predict", "--from", file, "--cpus", "1,2,16,64", "--format", "json")
	got, err := results.Read([]byte(stdout))
	if err != nil || code != exitOK {
		t.Fatalf("exit %d, %v:\n%s", code, err, stderr)
	}
	var at64 *results.Ranking
	for i, r := range got.Rankings {
		if r.CPUs == 64 {
			at64 = &got.Rankings[i]
		}
	}
	if len(got.Points) != 8 || len(got.Rankings) != 4 || at64 == nil || at64.Ranked[0].Mode != "Store/design=fast" || !strings.HasPrefix(at64.Said, "At 64 CPUs, of Store/design=*, fast") {
		t.Errorf("%d points, rankings %+v; want 8, and a ranking on each count asked, fast first on 64, said", len(got.Points), got.Rankings)
	}
	// A calibration whose curves stop at 2 CPUs reaches 32.
	cal := filepath.Join("testdata", "calibration-2core.json")
	code, stdout, stderr = brewput(context.Background(), t, noChild(), "predict", "--from", file, "--cpus", "64", "--calibration", cal)
	want := "Not predicted: Store/design=slow and Store/design=fast: on 64 CPUs and more: the target's curves, measured on up to 2 CPUs, carry only to 32; brewput calibrate on a machine of 64 CPUs or more, given as --calibration, answers it."
	if code != exitOK || !strings.Contains(flat(stdout), want) || strings.Count(stdout, "Not predicted") != 1 {
		t.Errorf("exit %d; want one line, %q:\n%s%s", code, want, stdout, stderr)
	}
}

// keptFile writes points to a results file, as --out keeps them, for
// --from to read.
func keptFile(t *testing.T, points []results.Point) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "measured.json")
	var b bytes.Buffer
	if err := results.Write(&b, results.JSON, points); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}
