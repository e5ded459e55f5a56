package study

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brewput/brewput/report/text"

	"go.uber.org/goleak"

	"github.com/brewput/brewput/internal/exitcode"
	"github.com/brewput/brewput/internal/sweep"
	"github.com/brewput/brewput/measure/meter"
	"github.com/brewput/brewput/results"
)

// childEnv, set in the environment, makes the test binary the study's own
// program: the child process the command line starts to measure a point
// is this binary re-executed, as a user's program would be.
const childEnv = "BREWPUT_STUDY_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		os.Exit(Run(context.Background(), testStudy(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Setenv(childEnv, "1") // for the children the tests start
	goleak.VerifyTestMain(m)
}

// testStudy has a variant whose every call holds one metered mutex for
// 200 µs, so that the mutex is held, or waited for, all the time whatever
// the machine, and one with no lock at all.
func testStudy() Study {
	mu := meter.NewMutex("table")
	return Study{
		Name: "demo", Unit: "calls", Summary: "one lock against none",
		Variants: []Variant{
			{Name: "one-lock", Summary: "every call holds one mutex",
				Op: func(context.Context) error {
					mu.Lock()
					time.Sleep(200 * time.Microsecond)
					mu.Unlock()
					return nil
				},
				Meters: func() []meter.Meter { return []meter.Meter{mu} }},
			{Name: "no-lock", Summary: "every call sleeps",
				Op: func(context.Context) error { time.Sleep(200 * time.Microsecond); return nil }},
		},
	}
}

// TestMeasure measures a variant in process: setup and teardown run once
// each, around the window, and the point is the study's with its meter as
// a machine, which its description reads.
func TestMeasure(t *testing.T) {
	s := testStudy()
	var setups, teardowns atomic.Int32
	s.Variants[0].Setup = func(context.Context) error { setups.Add(1); return nil }
	s.Variants[0].Teardown = func(context.Context) error { teardowns.Add(1); return nil }
	p, err := s.Measure(context.Background(), "one-lock", sweep.Load{CPUs: 1, Par: 4, Warmup: 20 * time.Millisecond, Dur: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if setups.Load() != 1 || teardowns.Load() != 1 {
		t.Errorf("%d setups, %d teardowns; want 1 each", setups.Load(), teardowns.Load())
	}
	if p.Study != "demo" || p.Mode != "one-lock" || p.Unit != "calls/s" || p.CPUs != 1 || p.Par != 4 || p.Ops == 0 || p.Hist == "" {
		t.Fatalf("point %+v", p)
	}
	if len(p.Machines) != 1 || p.Machines[0].Name != "table" || p.Machines[0].Kind != meter.KindMutex || p.Machines[0].Uses == 0 {
		t.Fatalf("machines %+v", p.Machines)
	}
	if p.Kind() != results.KindStudy || p.Bottleneck != nil {
		t.Errorf("kind %s, bottleneck %+v; want a study's point with no verdict", p.Kind(), p.Bottleneck)
	}
	if d := text.Describe(p); !strings.HasPrefix(d, text.NoProfile) || !strings.Contains(d, "mutex table held") || strings.Contains(d, "shard") {
		t.Errorf("description %q; want the meter's readings and no advice", d)
	}

	if _, err := s.Measure(context.Background(), "nope", sweep.Load{CPUs: 1, Dur: time.Millisecond}); err == nil || !strings.Contains(err.Error(), "one-lock, no-lock") {
		t.Errorf("unknown variant: %v", err)
	}
	s.Variants[1].Setup = func(context.Context) error { return os.ErrPermission }
	if _, err := s.Measure(context.Background(), "no-lock", sweep.Load{CPUs: 1, Dur: time.Millisecond}); err == nil || !strings.Contains(err.Error(), "no-lock: setup") {
		t.Errorf("failing setup: %v", err)
	}
}

func TestValidate(t *testing.T) {
	op := func(context.Context) error { return nil }
	for want, s := range map[string]Study{
		"study name is empty":        {Variants: []Variant{{Name: "a", Op: op}}},
		"no variants":                {Name: "x"},
		`name "a b": want no spaces`: {Name: "x", Variants: []Variant{{Name: "a b", Op: op}}},
		`name "a/b"`:                 {Name: "x", Variants: []Variant{{Name: "a/b", Op: op}}},
		`two variants are named "a"`: {Name: "x", Variants: []Variant{{Name: "a", Op: op}, {Name: "a", Op: op}}},
		"variant a has no Op":        {Name: "x", Variants: []Variant{{Name: "a"}}},
		`unit "ops/s": want a word`:  {Name: "x", Unit: "ops/s", Variants: []Variant{{Name: "a", Op: op}}},
	} {
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate(%+v) = %v, want %q", s, err, want)
		}
	}
	if err := testStudy().Validate(); err != nil {
		t.Error(err)
	}
}

// study runs the study's command line with args.
func study(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Run(context.Background(), testStudy(), args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestCommandLine runs the main job, each point in a child process (this
// test binary re-executed), and the commands that read its results.
func TestCommandLine(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "report")
	code, stdout, stderr := study(t, "--cpus", "1", "--par", "4", "--dur", "80ms", "--warmup", "20ms", "--out", out)
	if code != exitcode.OK {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	// What the variants measured side by side, then the compact table: a
	// row per variant and CPU count, its share of the most; no limit.
	for _, want := range []string{"Study demo, as measured", "On 1 CPU, measured on", "variant", "one-lock", "no-lock", "of the most",
		"most used meter", "mutex table held", "report: " + filepath.Join(out, "index.html")} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	for _, never := range []string{"limited by", "What limits", "mean ms"} {
		if strings.Contains(stdout, never) {
			t.Errorf("output says %q:\n%s", never, stdout)
		}
	}
	if !strings.Contains(stderr, "[2/2] no-lock cpus=1") {
		t.Errorf("progress:\n%s", stderr)
	}
	points, err := results.ReadFile(filepath.Join(out, "results.json"))
	if err != nil || len(points) != 2 || points[0].Study != "demo" || points[0].CPUSet == "" {
		t.Fatalf("results: %v %+v", err, points)
	}
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil || !strings.Contains(string(page), "mutex table held") || strings.Contains(string(page), "Lattes per second") ||
		strings.Contains(string(page), "What limits") || !strings.Contains(string(page), "The variants side by side") {
		t.Errorf("page: %v; want the mutex's meter described, the variants side by side, no verdict and no lattes", err)
	}

	file := filepath.Join(dir, "run.json")
	if code, _, stderr := study(t, "run", "--variants", "no-lock", "--cpus", "1", "--dur", "30ms", "--warmup", "0s", "--count", "2", "--out", file); code != exitcode.OK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	if code, stdout, stderr := study(t, "compare", file, file); code != exitcode.OK || !strings.Contains(stdout, "no-lock") {
		t.Errorf("compare: exit %d:\n%s%s", code, stdout, stderr)
	}
	if code, _, stderr := study(t, "fit", file); code != exitcode.Usage || !strings.Contains(stderr, "a fit needs at least 3") {
		t.Errorf("fit of one CPU count: exit %d: %s", code, stderr)
	}
	if code, _, stderr := study(t, "report", file, "--out", filepath.Join(dir, "again")); code != exitcode.OK {
		t.Errorf("report: exit %d: %s", code, stderr)
	}
	// --format table: every point in full, each repetition a row.
	if code, stdout, stderr := study(t, "report", file, "--format", "table", "--out", filepath.Join(dir, "again")); code != exitcode.OK ||
		!strings.Contains(stdout, "mean ms") || strings.Count(stdout, "no-lock ") < 2 {
		t.Errorf("report --format table: exit %d:\n%s%s", code, stdout, stderr)
	}
	if code, stdout, _ := study(t, "list"); code != exitcode.OK || !strings.Contains(stdout, "one-lock  every call holds one mutex") {
		t.Errorf("list: exit %d:\n%s", code, stdout)
	}
}

// TestBadInput: bad flags are one line naming the flag, exit 2, nothing
// measured or written.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--variants", "nope"}, `--variants: "nope": not a variant; accepted: one-lock, no-lock`},
		{[]string{"--cpus", "999"}, "--cpus"},
		{[]string{"--dur", "0s"}, "--dur 0s"},
		{[]string{"--dur", "soon"}, "want a duration"},
		{[]string{"--rate", "10", "--interval", "1ms"}, "--rate and --interval"},
		{[]string{"--maxq", "3"}, "--maxq: only applies to an open loop"},
		{[]string{"--count", "0"}, "--count 0"},
		{[]string{"run", "--format", "xml"}, `--format: unknown format "xml"`},
		{[]string{"--format", "wide"}, `--format "wide": want compact or table`},
		{[]string{"report", "x.json", "--format", "wide"}, `--format "wide": want compact or table`},
		{[]string{"run", "--out", dir}, "is a directory"},
		{[]string{"run", "--out", filepath.Join(dir, "none", "x.json")}, "cannot write"},
		{[]string{"fit"}, "at least one results file"},
		{[]string{"compare", "a"}, "two results files"},
		{[]string{"list", "x"}, "takes no arguments"},
	} {
		args := c.args
		if !strings.HasPrefix(args[0], "run") && strings.HasPrefix(args[0], "--") {
			args = append(args, "--out", filepath.Join(dir, "never")) // the main job's report
		}
		code, stdout, stderr := study(t, args...)
		if code != exitcode.Usage || stdout != "" || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, stdout, stderr, c.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("bad input left %d files", len(entries))
	}
}
