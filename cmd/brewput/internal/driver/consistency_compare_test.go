package driver

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brewput/brewput/internal/base/race"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/comparison"
)

// TestConsistencyRecordedCompareDisturbed holds compare to what each file
// recorded of its disturbance: the two files were measured on the 2-core
// machine beside two busy loops (brewput run --modes finelocking,linearpipe-0
// --cpus 2 --count 6 --dur 300ms, the second with --grind 2ms), where a
// twice-slower grind came out "+44% better" before compare read the
// disturbance. No change may be called better or worse from them, in the
// table or the JSON, and both say why.
func TestConsistencyRecordedCompareDisturbed(t *testing.T) {
	t.Parallel()
	old := filepath.Join("testdata", "consistency", "compare-busy-old.json")
	grind := filepath.Join("testdata", "consistency", "compare-busy-grind2ms.json")

	table, _ := succeeds(t, noChild(), "compare", old, grind)
	if !strings.Contains(table, "12 disturbed") || !strings.Contains(table, "inconclusive") {
		t.Errorf("compare's table does not say the points were disturbed:\n%s", table)
	}
	for _, line := range strings.Split(table, "\n") {
		if strings.HasSuffix(line, " better") || strings.HasSuffix(line, " worse") {
			t.Errorf("compare calls a change from disturbed points: %q", line)
		}
	}

	out, _ := succeeds(t, noChild(), "compare", "--format", "json", old, grind)
	var c struct {
		Old, New struct{ Disturbed int }
		Rows     []struct {
			Key     struct{ Mode string }
			Metrics []comparison.Metric
		}
	}
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatal(err)
	}
	if c.Old.Disturbed != 12 || c.New.Disturbed != 12 {
		t.Errorf("sides' disturbed points %d and %d, want 12 and 12 as the files record", c.Old.Disturbed, c.New.Disturbed)
	}
	inconclusive := 0
	for _, r := range c.Rows {
		for _, m := range r.Metrics {
			if m.Significant || m.Change != 0 {
				t.Errorf("%s %s: significant %v, change %d from disturbed points", r.Key.Mode, m.Name, m.Significant, m.Change)
			}
			if m.Old.Disturbed == 0 || m.New.Disturbed == 0 {
				t.Errorf("%s %s: disturbed samples %d and %d, want both sides'", r.Key.Mode, m.Name, m.Old.Disturbed, m.New.Disturbed)
			}
			if m.Inconclusive != "" {
				inconclusive++
				if m.Inconclusive != "disturbed" || !strings.HasPrefix(text.MetricVerdict(m), "inconclusive: disturbed") {
					t.Errorf("%s %s: inconclusive %q, verdict %q", r.Key.Mode, m.Name, m.Inconclusive, text.MetricVerdict(m))
				}
			}
		}
	}
	// The throughputs differ far beyond the test's reach (p = 0.002): it is
	// the disturbance, not too few runs, that leaves them untold.
	if inconclusive < 2 {
		t.Errorf("%d metrics inconclusive for disturbance, want the throughputs at least", inconclusive)
	}
}

// TestConsistencyRecordedModelsProfile: the limits shown beside measured
// points are the model's causal profiles of their configurations, and every
// terminal surface says so — the answer's heading of limits and best
// changes, the full table's heading — read from the same recorded file of
// points measured on real CPUs.
func TestConsistencyRecordedModelsProfile(t *testing.T) {
	if race.Enabled {
		// Words of a recorded file's rendering, one goroutine's work:
		// TestMainJobAndReport renders a main job's points, annotated
		// with the model's profiles, and brewput report of them under
		// the detector.
		t.Skip("the rendered outputs checked without the race detector: go test ./cmd/brewput/internal/driver")
	}
	t.Parallel()
	file := filepath.Join("testdata", "consistency", "compare-busy-old.json")
	out, _ := succeeds(t, noChild(), "report", file, "--out", t.TempDir())
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"limited by (model's profile); the best change on 2 CPUs"} {
		if !strings.Contains(flat, want) {
			t.Errorf("brewput report of measured points does not say %q:\n%s", want, out)
		}
	}
	points, err := results.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := text.WriteTable(&b, points); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(oneLine(b.String()), "limited by (model's profile)") || strings.Contains(b.String(), "(best relief)") {
		t.Errorf("the table of measured points does not head their limits as the model's:\n%s", b.String())
	}
}

// TestCompareMainJobsAnswersFirst: two main jobs' files (a point a
// configuration, as the main job measures) compare in a few lines that
// answer — nothing can be told of the measured points with one run each,
// the largest changes named; the model's predictions the same — where
// every configuration's rows were over 500 lines; --all prints the rows,
// and the JSON holds the same answer.
func TestCompareMainJobsAnswersFirst(t *testing.T) {
	if race.Enabled {
		// Two recorded files compared, one goroutine's work, its
		// output's words checked: the plain run's.
		t.Skip("compare's words checked without the race detector: go test ./cmd/brewput/internal/driver")
	}
	t.Parallel()
	out, _ := succeeds(t, noChild(), "compare", readmeRun, modesRun)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) > 20 {
		t.Errorf("%d lines:\n%s", len(lines), out)
	}
	for _, want := range []string{
		"Measured, 18 configurations in both, 1 run each: too few runs for any verdict\n(--count 6 gives one). The largest changes in throughput: linearpipe-10 on\n2 CPUs +194.4%,",
		"Predicted by the model, 72 configurations in both, 1 run each: the same figures\nin both files.",
		"--all shows them.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("compare lacks %q:\n%s", want, out)
		}
	}
	all, _ := succeeds(t, noChild(), "compare", "--all", readmeRun, modesRun)
	if n := strings.Count(all, "(too few runs)"); n != 3*90 {
		t.Errorf("--all: %d rows with too few runs, want 3 tables of 90:\n%s", n, all)
	}
	js, _ := succeeds(t, noChild(), "compare", "--format", "json", readmeRun, modesRun)
	var c struct {
		Answers []struct {
			Kind           string
			Configs, Equal int
			TooFew         int `json:"too_few"`
			Largest        []struct{ Key struct{ Mode string } }
		}
	}
	if err := json.Unmarshal([]byte(js), &c); err != nil {
		t.Fatal(err)
	}
	if len(c.Answers) != 2 || c.Answers[0].Kind != "measured" || c.Answers[0].TooFew != 18 || len(c.Answers[0].Largest) != 3 ||
		c.Answers[0].Largest[0].Key.Mode != "linearpipe-10" || c.Answers[1].Kind != "model" || c.Answers[1].Equal != 72 {
		t.Errorf("JSON answers %+v", c.Answers)
	}
}
