package mainjob

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/predict"
	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/coffee/shopsweep"
	"github.com/brewput/brewput/experiment"
	"github.com/brewput/brewput/internal/base/exitcode"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/report"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if finished.root != "" {
		os.RemoveAll(finished.root)
	}
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintf(os.Stderr, "goleak: %v\n", err)
			code = 1
		}
	}
	os.Exit(code)
}

// job is a main job of finelocking on 1 and 2 CPUs whose "measurements"
// are the fifo model's points passed off as measured, so that the test
// needs no child process; stop, if positive, interrupts it after that
// many points.
func job(t *testing.T, dir string, stop int) (Job, *bytes.Buffer) {
	t.Helper()
	st := &shopsweep.Batch{Count: 1, Specs: shopsweep.Plan([]coffee.Mode{coffee.MustParseMode("finelocking")}, []int{1, 2},
		shopsweep.Spec{Load: sweep.Load{Load: results.Load{Dur: 200 * time.Millisecond, Warmup: 20 * time.Millisecond}}, Steps: coffee.DefaultSteps()})}
	fifo, err := predict.Resolve(context.Background(), predict.Options{Sched: "fifo", Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	measure := func(ctx context.Context, st *shopsweep.Batch, have []results.Point, add func(*results.Point) error) ([]results.Point, error) {
		var got []results.Point
		var cfgs []model.Config
		for _, s := range st.Specs[len(have):] {
			cfgs = append(cfgs, fifo.Config(s, nil))
		}
		points, err := model.Simulate(ctx, cfgs, nil)
		for _, p := range points {
			if stop > 0 && len(have)+len(got) == stop {
				return got, context.Canceled
			}
			p.Source, p.Bottleneck = results.SourceMeasured, nil
			if err := add(&p); err != nil {
				return got, err
			}
			got = append(got, p)
		}
		return got, err
	}
	var stdout bytes.Buffer
	return Job{Study: st, Plan: st.Plan("brewput"), Dir: dir, Measure: measure, Stdout: &stdout, Stderr: &bytes.Buffer{}}, &stdout
}

// finished is job's job, not stopped, run to its end once for this test
// process: TestResumeRefuses, TestRerender and TestRerenderAnalysesOnce
// each ran the same, and read what it wrote.
var finished struct {
	once   sync.Once
	root   string // removed by TestMain
	stdout string
	err    error
}

// finishedJob is the folder the finished job wrote, which its callers
// read and do not change, and what it printed; it fails t where the job
// did not finish.
func finishedJob(t *testing.T) (dir, stdout string) {
	t.Helper()
	f := &finished
	f.once.Do(func() {
		if f.root, f.err = os.MkdirTemp("", "brewput-test-mainjob-"); f.err != nil {
			return
		}
		// Kept where job fails the test that ran it first.
		f.err = errors.New("the job did not run: see the first test that ran it")
		j, out := job(t, filepath.Join(f.root, "report"), 0)
		f.err = j.Run(context.Background())
		f.stdout = out.String()
	})
	if f.err != nil {
		t.Fatal(f.err)
	}
	return filepath.Join(f.root, "report"), f.stdout
}

// A job cut short writes the report of what it measured, its journal
// keeps the plan, and Resume reads back the study and the points
// measured; resumed, the job measures only the rest.
func TestCutShortAndResume(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "report")
	j, stdout := job(t, dir, 1)
	err := j.Run(context.Background())
	if !errors.As(err, new(exitcode.Interruption)) || !strings.Contains(err.Error(), "1 of 2 points") {
		t.Fatalf("Run of a job stopped after 1 point = %v, want an interruption after 1 of 2 points", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "index.html")); err != nil {
		t.Errorf("no page for the point measured: %v", err)
	}
	if !strings.Contains(stdout.String(), "finelocking") {
		t.Errorf("stdout of a job cut short:\n%s\nwant the table of its point", stdout)
	}
	st, have, plan, err := Resume(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Specs) != 2 || len(have) != 1 || have[0].CPUs != 1 || have[0].Bottleneck == nil || plan.Points != 2 {
		t.Fatalf("Resume = %d specs, %d points (%+v), plan %+v; want 2 specs, the 1-CPU point with its profile, a plan of 2", len(st.Specs), len(have), have, plan)
	}
	j, _ = job(t, dir, 0)
	j.Study, j.Have, j.Plan, j.Resume = st, have, plan, filepath.Join(dir, "results.json")
	if err := j.Run(context.Background()); err != nil {
		t.Fatalf("resumed job: %v", err)
	}
	f, err := results.Open(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Points) != 2 || f.Plan != nil {
		t.Errorf("results.json after the resumed job: %d points, plan %v; want both points and no plan (finished)", len(f.Points), f.Plan)
	}
}

// Resume refuses a results file that is no journal of a run cut short.
func TestResumeRefuses(t *testing.T) {
	dir, _ := finishedJob(t)
	if _, _, _, err := Resume(filepath.Join(dir, "results.json")); err == nil || !strings.Contains(err.Error(), "nothing to resume") {
		t.Errorf("Resume of a finished job's results = %v, want nothing to resume", err)
	}
}

// A job's results render again, as brewput report renders them, with the
// same table and page, from the analysis the job saved: nothing is
// analysed (simulated, fitted) again.
func TestRerender(t *testing.T) {
	dir, stdout := finishedJob(t)
	in, err := report.ReadFiles([]string{filepath.Join(dir, "results.json")})
	if err != nil {
		t.Fatal(err)
	}
	again := filepath.Join(t.TempDir(), "again")
	var out, log bytes.Buffer
	if in.Analysis == nil || !in.Analysis.For(in.Points) {
		t.Fatalf("the job's analysis.json was not read back as its points' analysis: %+v", in.Analysis)
	}
	refuse := func([]results.Point, experiment.Options) (*analysis.Analysis, error) {
		t.Error("brewput report of a saved run analysed its points again")
		return nil, errors.New("analysed again")
	}
	if err := Rerender(&out, &log, again, in, nil, false, "", refuse); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"index.html", analysis.File} {
		first, err1 := os.ReadFile(filepath.Join(dir, name))
		second, err2 := os.ReadFile(filepath.Join(again, name))
		if err1 != nil || err2 != nil || !bytes.Equal(first, second) {
			t.Errorf("%s rendered again differs from the job's (%v, %v)", name, err1, err2)
		}
	}
	if _, err := os.Stat(filepath.Join(again, "index.html")); err != nil {
		t.Errorf("no page: %v", err)
	}
	if got, want := strings.ReplaceAll(out.String(), again, "DIR"), strings.ReplaceAll(stdout, dir, "DIR"); got != want {
		t.Errorf("rendered again:\n%s\nthe job printed:\n%s", got, want)
	}
}

// Points read back without their analysis (here, the job's analysis.json
// removed) are analysed once, and the report saves that analysis, which a
// second rendering then reads instead of analysing again.
func TestRerenderAnalysesOnce(t *testing.T) {
	// The job's folder copied, less its analysis.json.
	finishedDir, _ := finishedJob(t)
	dir := filepath.Join(t.TempDir(), "report")
	if err := os.CopyFS(dir, os.DirFS(finishedDir)); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, analysis.File)); err != nil {
		t.Fatal(err)
	}
	calls := 0
	count := func(points []results.Point, opt experiment.Options) (*analysis.Analysis, error) {
		calls++
		return experiment.Analyze(points, opt)
	}
	in, err := report.ReadFiles([]string{filepath.Join(dir, "results.json")})
	if err != nil {
		t.Fatal(err)
	}
	again := filepath.Join(t.TempDir(), "again")
	if err := Rerender(io.Discard, io.Discard, again, in, nil, false, "", count); err != nil {
		t.Fatal(err)
	}
	in, err = report.ReadFiles([]string{filepath.Join(again, "results.json")})
	if err != nil {
		t.Fatal(err)
	}
	if err := Rerender(io.Discard, io.Discard, filepath.Join(t.TempDir(), "third"), in, nil, false, "", count); err != nil {
		t.Fatal(err)
	}
	if calls != 1 {
		t.Errorf("analysed %d times; want once, the second rendering reading the saved analysis", calls)
	}
}

// TestPlaygroundFor: the page links to a playground given, or to one
// beside the report's folder, and to none where there is none.
func TestPlaygroundFor(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "brewput-report")
	if got := PlaygroundFor("", dir); got != "" {
		t.Errorf("no playground beside %s: link %q; want none", dir, got)
	}
	if got := PlaygroundFor("https://example.com/play/", dir); got != "https://example.com/play/" {
		t.Errorf("given https://example.com/play/: link %q", got)
	}
	if err := os.MkdirAll(filepath.Join(tmp, PlaygroundDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := PlaygroundFor("", dir); got != "" {
		t.Errorf("a playground folder without its page: link %q; want none", got)
	}
	if err := os.WriteFile(filepath.Join(tmp, PlaygroundDir, "index.html"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, want := PlaygroundFor("", dir), "../"+PlaygroundDir+"/index.html"; got != want {
		t.Errorf("a playground beside %s: link %q; want %q", dir, got, want)
	}
}
