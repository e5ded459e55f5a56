package driver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/brewput/brewput/lab/lessons"
	"github.com/brewput/brewput/report"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results/lesson"
	"github.com/brewput/brewput/results/stats"
)

// TestLessonsBadInput: every bad input to brewput lessons is a usage error
// (exit 2) on one line naming the flag, before anything is measured, with
// nothing on stdout and no file left behind.
func TestLessonsBadInput(t *testing.T) {
	files := badInputFiles(t)
	broken := filepath.Join(t.TempDir(), "broken.json")
	if err := os.WriteFile(broken, []byte(`{"claim": "talk/a", "verdict": "reproduced"}`+"\nnot json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"unknown format", []string{"lessons", "--format", "xml"}, []string{"--format", `"xml"`, "table or json"}},
		{"unknown claim", []string{"lessons", "--only", "talk/nonsense"}, []string{"--only", `"talk/nonsense"`, "talk/ideal-scales", "journal/naive-sum", "groups talk"}},
		{"unknown claim among known", []string{"lessons", "--only", "talk,nope"}, []string{"--only", `"nope"`}},
		{"unknown flag", []string{"lessons", "--bogus"}, []string{"unknown flag", "--bogus"}},
		{"quick not a bool", []string{"lessons", "--quick=maybe"}, []string{"--quick", `"maybe"`}},
		{"negative quiet wait", []string{"lessons", "--quiet-wait", "-1s"}, []string{"--quiet-wait -1s", "want 0 (no wait) to 1h0m0s"}},
		{"quiet wait past an hour", []string{"lessons", "--quiet-wait", "2h"}, []string{"--quiet-wait 2h0m0s", "want 0"}},
		{"quiet wait not a duration", []string{"lessons", "--quiet-wait", "soon"}, []string{"--quiet-wait", `"soon"`}},
		{"extra argument", []string{"lessons", "extra-arg"}, []string{"brewput lessons", `"extra-arg"`}},
		{"unwritable out", []string{"lessons", "--out", "/nonexistent-dir/l.json"}, []string{"--out /nonexistent-dir/l.json", "cannot write"}},
		{"out is a directory", []string{"lessons", "--format", "json", "--out", "{dir}"}, []string{"--out", "is a directory"}},
		{"bad only with a good out", []string{"lessons", "--only", "x", "--out", "{dir}/l.json"}, []string{"--only"}},
		{"root lessons not a bool", []string{"--lessons=maybe"}, []string{"--lessons", `"maybe"`}},
		{"report broken lessons file", []string{"report", broken, "--out", "{dir}/r"}, []string{"broken.json", "line 2"}},
		{"report lessons with garbage", []string{"report", "{garbage}", broken, "--out", "{dir}/r"}, []string{"garbage.txt"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			expectUsage(t, files, c.args, c.want)
		})
	}
}

// tinyLessons runs brewput with lessons at the tiny level (one sample a
// claim, smallest configurations): the wiring, not the claims.
func tinyLessons(ctx context.Context, stdout, stderr *syncBuffer, args ...string) int {
	return runEnv(ctx, args, &env{stdin: strings.NewReader(""), stdout: stdout, stderr: stderr, child: selfChild(), lessonsTiny: true})
}

// checkVerdicts checks that each result has one of the three verdicts and
// that it follows from its figure by the rule; which verdict it is depends
// on the machine.
func checkVerdicts(t *testing.T, rs []lesson.Result) {
	t.Helper()
	for _, r := range rs {
		switch r.Verdict {
		case lesson.Reproduced, lesson.NotReproduced, lesson.Inconclusive:
		default:
			t.Errorf("%s: verdict %q", r.Claim, r.Verdict)
		}
		want := r.Rule.Decide(r.Figure.Lo, r.Figure.Hi) // as lessons.Run decides
		if r.Disturbed || r.Error != "" || r.Figure.N == 0 || (!r.Model && r.Figure.N < stats.RunsForInterval()) {
			want = lesson.Inconclusive
		}
		if r.Verdict != want {
			t.Errorf("%s: verdict %q, but the figure %s against %s gives %q", r.Claim, r.Verdict, text.LessonFigure(r), r.RuleText(), want)
		}
		if r.Error != "" {
			t.Errorf("%s failed: %s", r.Claim, r.Error)
		}
	}
}

// TestLessonsJSONAndReport measures three claims (the shop in a child
// process, the model, a lab) into a lessons file, then renders a report
// from it beside a results file.
func TestLessonsJSONAndReport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "lessons.jsonl")
	claims := []string{"talk/overload", "talk/model-overload", "journal/grouping"}
	var stdout syncBuffer
	stderr := syncBuffer{columns: unwrapped}
	code := tinyLessons(context.Background(), &stdout, &stderr, "lessons", "--only", strings.Join(claims, ","), "--format", "json", "--out", file)
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr.String())
	}
	if stdout.String() != "" {
		t.Errorf("--out still wrote to stdout:\n%s", stdout.String())
	}
	// The verdicts come in the order reached: a claim disturbed in its
	// turn comes after the others.
	rs, err := lesson.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != len(claims) {
		t.Fatalf("%d verdicts in the file, want %d", len(rs), len(claims))
	}
	for i, r := range rs {
		if !strings.Contains(stderr.String(), fmt.Sprintf("[%d/3] %s: %s", i+1, r.Claim, r.Verdict)) {
			t.Errorf("stderr does not show verdict %d, %s:\n%s", i+1, r.Claim, stderr.String())
		}
		if !slices.Contains(claims, r.Claim) || r.Level != "tiny" || r.Host.Cores == 0 {
			t.Errorf("verdict %d: %s, level %q, host %+v", i, r.Claim, r.Level, r.Host)
		}
		if r.Claim == "talk/model-overload" && (!r.Model || r.Verdict == lesson.Inconclusive) {
			t.Errorf("the model's exact claim: %+v", r)
		}
	}
	checkVerdicts(t, rs)

	// The report reads the lessons file beside a results file, told apart
	// by their content.
	files := badInputFiles(t)
	out := filepath.Join(dir, "report")
	stdout, stderr = syncBuffer{}, syncBuffer{}
	if code := tinyLessons(context.Background(), &stdout, &stderr, "report", files["good"], file, "--out", out); code != exitOK {
		t.Fatalf("report: exit %d; stderr:\n%s", code, stderr.String())
	}
	page, err := os.ReadFile(filepath.Join(out, report.Index))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range append([]string{"What the seeds claim, and what this machine shows", "coffee-shop-simulation-talk.txt", "noop"}, claims...) {
		if !strings.Contains(string(page), want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	again, err := lesson.ReadFile(filepath.Join(out, report.LessonsFile))
	if err != nil || len(again) != len(rs) {
		t.Errorf("the report's %s: %d verdicts, %v", report.LessonsFile, len(again), err)
	}

	// A report of the lessons alone.
	stdout, stderr = syncBuffer{}, syncBuffer{}
	alone := filepath.Join(dir, "alone")
	if code := tinyLessons(context.Background(), &stdout, &stderr, "report", file, "--out", alone); code != exitOK {
		t.Fatalf("report of lessons alone: exit %d; stderr:\n%s", code, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(alone, "results.json")); err == nil {
		t.Errorf("a report of no points wrote results.json")
	}
}

// TestLessonsTable prints the model's claims as the table.
func TestLessonsTable(t *testing.T) {
	t.Parallel()
	var stdout syncBuffer
	stderr := syncBuffer{columns: unwrapped}
	code := tinyLessons(context.Background(), &stdout, &stderr, "lessons", "--only", "talk/model-finelocking-limit,talk/model-overload")
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr.String())
	}
	for _, want := range []string{"talk/model-finelocking-limit", "talk/model-overload", "reproduced", "1000 lattes/s (model, exact)",
		"coffee-shop-simulation-talk.txt", "seed's figure", "2 claims: 2 reproduced"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, stdout.String())
		}
	}
}

// TestLessonsInterrupted stops brewput lessons after its first verdict:
// the verdicts reached are in the file, it says so, and exits 130.
func TestLessonsInterrupted(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "lessons.jsonl")
	// The claims come in their order, not --only's; the overloaded shop's
	// sample takes a few hundred milliseconds, during which the run is
	// likely interrupted (a busy machine can leave a claim for a second
	// pass, and the verdicts come in another order). Beside other
	// processes a claim's samples wait for a quiet machine, which a busy
	// suite can stretch.
	_, stderr := interruptAtFirst(t, "verdict", "kept the verdicts reached", func(ctx context.Context, stdout, stderr *syncBuffer) int {
		return tinyLessons(ctx, stdout, stderr, "lessons", "--only", "talk/overload,talk/buffer-10,journal/grouping", "--format", "json", "--out", file)
	})
	// Every verdict said on stderr is in the file, as written when reached.
	rs, err := lesson.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if said := strings.Count(stderr, "/3] "); len(rs) != said {
		t.Errorf("%d verdicts reached, %d in the file; stderr:\n%s", said, len(rs), stderr)
	}
	checkVerdicts(t, rs)
}

// TestMainJobWithLessons runs the main job with --lessons (every claim, at
// the tiny level here) and checks that the report has their section and
// their file.
func TestMainJobWithLessons(t *testing.T) {
	if testing.Short() {
		t.Skip("measures every claim for a few seconds")
	}
	t.Parallel()
	out := filepath.Join(t.TempDir(), "report")
	var stdout syncBuffer
	stderr := syncBuffer{columns: unwrapped}
	code := tinyLessons(context.Background(), &stdout, &stderr, "--modes", "noop", "--cpus", "1", "--dur", "50ms", "--warmup", "0s", "--noisy", "ok", "--predict=false", "--lessons", "--out", out)
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr.String())
	}
	rs, err := lesson.ReadFile(filepath.Join(out, report.LessonsFile))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(lessons.Claims(2)); len(rs) != n {
		t.Errorf("%d verdicts in the report, want every claim's, %d", len(rs), n)
	}
	checkVerdicts(t, rs)
	page, err := os.ReadFile(filepath.Join(out, report.Index))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "What the seeds claim, and what this machine shows") || !strings.Contains(string(page), "journal/naive-sum") {
		t.Errorf("the page lacks the lessons section")
	}
}
