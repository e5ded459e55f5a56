package driver

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/lab/all"
	"github.com/brewput/brewput/lab/wordcount"
	"github.com/brewput/brewput/report"
	"github.com/brewput/brewput/results"
)

func runLab(t *testing.T, args ...string) []results.Point {
	t.Helper()
	// A disturbed point is kept at once (--noisy ok), as in the suite's
	// other runs that do not test retrying: beside the rest of the suite a
	// retry waits up to 5 s three times for a quiet machine, which made
	// these tests take minutes. Retrying is tested in lab (TestSweepRetries)
	// and measure/sweep.
	if !slices.Contains(args, "--noisy") {
		args = append(args, "--noisy", "ok")
	}
	stdout, _ := succeeds(t, noChild(), append(append([]string{"lab"}, args...), "--format", "json")...)
	points, err := results.ReadJSON(strings.NewReader(stdout))
	if err != nil || len(points) == 0 {
		t.Fatalf("brewput lab %q: %v, %d points\n%s", args, err, len(points), stdout)
	}
	for _, p := range points {
		if p.LabName() != args[0] || p.Variant() == "" || p.CPUs < 1 || p.Source != results.SourceMeasured || p.Throughput <= 0 || p.Unit == "" {
			t.Errorf("brewput lab %s: point lacks lab, variant, cpus, source, throughput or unit: %+v", args[0], p)
		}
	}
	return points
}

func TestLabList(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"lab", "list"}, {"lab"}} {
		stdout, _ := succeeds(t, noChild(), args...)
		for _, name := range []string{"workloads", "channels", "render", "wordcount"} {
			if !strings.Contains(stdout, name+" ") {
				t.Errorf("%q does not list %s:\n%s", args, name, stdout)
			}
		}
	}
	code, stdout, _ := brewput(context.Background(), t, noChild(), "lab", "render", "--help")
	if code != exitOK || !strings.Contains(stdout, "Amdahl") || !strings.Contains(stdout, "--png") {
		t.Errorf("lab render --help: exit %d\n%s", code, stdout)
	}
}

// Each lab runs from the command line, small, on 1 CPU; the lessons
// themselves are checked in the labs' packages.
func TestLabsRun(t *testing.T) {
	t.Parallel()
	t.Run("workloads", func(t *testing.T) {
		ps := runLab(t, "workloads", "--cpus", "1", "--add-size", "10000", "--sort-size", "300", "--docs", "20", "--reps", "1")
		if len(ps) != 6 {
			t.Errorf("%d points, want 6 variants", len(ps))
		}
	})
	t.Run("wordcount", func(t *testing.T) {
		ps := runLab(t, "wordcount", "--cpus", "1", "--size", "20000", "--reps", "1")
		words := ps[0].Metrics["words"]
		for _, p := range ps {
			if p.Metrics["words"] != words || words == 0 {
				t.Errorf("%s counted %v words, %s %v", p.Variant(), p.Metrics["words"], ps[0].Variant(), words)
			}
		}
	})
	t.Run("render", func(t *testing.T) {
		png := filepath.Join(t.TempDir(), "m.png")
		runLab(t, "render", "--cpus", "1", "--size", "48", "--max-iter", "16", "--reps", "1", "--png", png)
		if info, err := os.Stat(png); err != nil || info.Size() == 0 {
			t.Errorf("--png: %v", err)
		}
	})
	t.Run("channels", func(t *testing.T) {
		ps := runLab(t, "channels", "--cpus", "1", "--lines", "2000", "--size", "1", "--consumers", "1", "--batch", "1,10")
		for _, p := range ps {
			if _, ok := p.Metrics["of_bound"]; !ok {
				t.Errorf("%s has no distance to the bound", p.Variant())
			}
		}
	})
}

// A lab answers first by default: what it measured, on each CPU count
// what makes the most and the least, its chart's numbers; --format table
// prints every point with the lab's metrics, and --out writes the file
// its extension says beside the answer.
func TestLabAnswersFirst(t *testing.T) {
	t.Parallel()
	args := []string{"lab", "channels", "--cpus", "1", "--lines", "2000", "--size", "1", "--consumers", "1", "--batch", "1,10", "--noisy", "ok"}
	out := filepath.Join(t.TempDir(), "ch.json")
	stdout, _ := succeeds(t, noChild(), append(args, "--out", out)...)
	// Beside a busy test binary a point may be disturbed: the count's
	// answer is then inconclusive, ranking none of it.
	ranked := []string{"makes the most", "the least"}
	if strings.Contains(stdout, "inconclusive") {
		ranked = []string{"so which makes the most is not known"}
	}
	for _, want := range append(ranked, "lab channels, measured on ", ": 2 points on 1 CPU", "On 1 CPU, ",
		"share of the bound reached (%) against lines per batch (B)", report.LabMore) {
		// The sentences wrap where their figures' widths say.
		if !strings.Contains(strings.Join(strings.Fields(stdout), " "), want) {
			t.Errorf("the answer lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "of_bound") || strings.Contains(stdout, "e+") {
		t.Errorf("the answer shows the full table or e-notation:\n%s", stdout)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := results.ReadJSON(f)
	f.Close()
	if err != nil || len(ps) != 2 {
		t.Errorf("--out %s: %d points, %v; want the 2 points in JSON", out, len(ps), err)
	}
	stdout, _ = succeeds(t, noChild(), append(args, "--format", "table")...)
	if !strings.Contains(stdout, "of_bound") || strings.Contains(stdout, "makes the most") {
		t.Errorf("--format table is not every point in full:\n%s", stdout)
	}
}

func TestLabBadInput(t *testing.T) {
	t.Parallel()
	for _, c := range []badArgs{
		{[]string{"lab", "nope"}, `unknown lab "nope"`},
		{[]string{"lab", "workloads", "--add-size", "0"}, "--add-size 0"},
		{[]string{"lab", "workloads", "--cpus", "999"}, "--cpus"},
		{[]string{"lab", "workloads", "--format", "xml"}, "--format"},
		{[]string{"lab", "render", "--size", "-1"}, "--size -1"},
		{[]string{"lab", "render", "--png", "/nonexistent/dir/m.png"}, "--png"},
		{[]string{"lab", "channels", "--batch", "0"}, "--batch"},
		{[]string{"lab", "channels", "--consumers", "x"}, "--consumers"},
		{[]string{"lab", "wordcount", "--file", "/nonexistent/text"}, "--file"},
		{[]string{"lab", "wordcount", "extra"}, "no arguments"},
		{[]string{"--labs", "nope"}, `--labs: unknown lab "nope"`},
		{[]string{"lab", "actors", "--variants", "mutex"}, `--variants "mutex"`},
		{[]string{"lab", "actors", "--variants", "actor,actor"}, `--variants "actor": given twice`},
		{[]string{"lab", "actors", "--clients", "0"}, "--clients 0"},
		{[]string{"lab", "actors", "--clients", "x"}, "--clients"},
		{[]string{"lab", "actors", "--requests", "10"}, "--requests 10"},
		{[]string{"lab", "actors", "--remote", "--remote-requests", "1"}, "--remote-requests 1"},
		{[]string{"lab", "actors", "--mailbox", "-1"}, "--mailbox -1"},
		{[]string{"lab", "actors", "--reply-bytes", "10"}, "--reply-bytes 10"},
		{[]string{"lab", "actors", "--remote=maybe"}, "--remote"},
		{[]string{"lab", "actors", "--reps", "0"}, "--reps 0"},
		{[]string{"lab", "aggregate", "--events", "0"}, "--events 0"},
		{[]string{"lab", "aggregate", "--producers", "0"}, "--producers 0"},
		{[]string{"lab", "aggregate", "--producers", "x"}, "--producers"},
		{[]string{"lab", "aggregate", "--buffers", "-1"}, "--buffers -1"},
		{[]string{"lab", "aggregate", "--run-length", "0.5"}, "--run-length 0.5"},
		{[]string{"lab", "aggregate", "--handle-cost", "fast"}, "--handle-cost"},
		{[]string{"lab", "aggregate", "--handle-cost", "-1us"}, "--handle-cost -1µs"},
		{[]string{"lab", "aggregate", "--reps", "0"}, "--reps 0"},
		{[]string{"lab", "logs", "--kinds", "tape"}, `--kinds "tape"`},
		{[]string{"lab", "logs", "--kinds", "file,file"}, `--kinds "file"`},
		{[]string{"lab", "logs", "--writers", "0"}, "--writers 0"},
		{[]string{"lab", "logs", "--writers", "x"}, "--writers"},
		{[]string{"lab", "logs", "--appends", "0"}, "--appends 0"},
		{[]string{"lab", "logs", "--appends", "10"}, "--appends 10"},
		{[]string{"lab", "logs", "--value-bytes", "4"}, "--value-bytes 4"},
		{[]string{"lab", "logs", "--reps", "0"}, "--reps 0"},
		{[]string{"lab", "logs", "--dir", "/nonexistent/folder"}, "--dir /nonexistent/folder"},
		{[]string{"lab", "logs", "--sync=maybe"}, "--sync"},
		{[]string{"lab", "stream", "--modes", "fast"}, `--modes "fast"`},
		{[]string{"lab", "stream", "--messages", "0"}, "--messages 0"},
		{[]string{"lab", "stream", "--buffers", "-1"}, "--buffers -1"},
		{[]string{"lab", "stream", "--buffers", "x"}, "--buffers"},
		{[]string{"lab", "stream", "--payload-bytes", "100000"}, "--payload-bytes 100000"},
		{[]string{"lab", "stream", "--malformed", "-1"}, "--malformed -1"},
		{[]string{"lab", "stream", "--oversized", "6000"}, "--oversized 6000"},
		{[]string{"lab", "stream", "--restart", "--downtime", "1h"}, "--downtime 1h0m0s"},
		{[]string{"lab", "stream", "--downtime", "soon"}, "--downtime"},
		{[]string{"lab", "stream", "--restart=maybe"}, "--restart"},
		{[]string{"lab", "stream", "--reps", "0"}, "--reps 0"},
	} {
		expectUsage(t, nil, c.args, []string{c.want})
	}
}

// The main job's --labs runs the labs after the study and gives each a
// section and a chart in the report. Its wordcount counts 20 kB, not its
// default 1.2 MB, with its default runs: the section is the same, and
// reading 1.2 MB a byte at a time six times took 6 of the test's 7 s.
func TestMainJobWithLabs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	labs := func() []lab.Lab {
		var ls []lab.Lab
		for _, l := range all.Labs() {
			if l.Info().Name == "wordcount" {
				small := wordcount.NewLab()
				small.Config.Size = 20_000
				l = small
			}
			ls = append(ls, l)
		}
		return ls
	}
	args := []string{"--modes", "finelocking", "--cpus", "1", "--dur", "50ms", "--warmup", "10ms", "--noisy", "ok", "--predict=false", "--labs", "wordcount", "--out", dir}
	var stdout, stderr syncBuffer
	if code := runEnv(context.Background(), args, &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, child: selfChild(), labList: labs}); code != exitOK {
		t.Fatalf("brewput %q: exit %d; stderr:\n%s", args, code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "lab wordcount") {
		t.Errorf("the main job did not run the lab:\n%s", stderr.String())
	}
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`id="labs"`, `id="lab-wordcount"`, `id="chart-lab-wordcount"`, "bytewise", `id="mode-finelocking"`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "lab-wordcount.svg")); err != nil {
		t.Errorf("no chart file: %v", err)
	}
}

// --profile writes a lab's trace and profiles per CPU count, which go tool
// opens, and puts its waits into the points.
func TestLabProfile(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "prof")
	ps := runLab(t, "workloads", "--cpus", "1", "--add-size", "100000", "--sort-size", "300", "--docs", "50", "--reps", "1", "--profile", dir)
	for _, ext := range []string{".trace", ".cpu.pprof", ".block.pprof", ".mutex.pprof"} {
		if info, err := os.Stat(filepath.Join(dir, "workloads-1cpu"+ext)); err != nil || info.Size() == 0 {
			t.Errorf("workloads-1cpu%s: %v", ext, err)
		}
	}
	waited := false
	for _, p := range ps {
		waited = waited || len(p.Waits) > 0
	}
	if !waited {
		t.Error("no point has waits, though find's pool waits on its channel")
	}
	code, _, stderr := brewput(context.Background(), t, noChild(), "lab", "workloads", "--profile", filepath.Join(dir, "workloads-1cpu.trace"))
	if code != exitUsage || !strings.Contains(stderr, "--profile") {
		t.Errorf("--profile on a file: exit %d, %s", code, stderr)
	}
}
