package report

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brewput/brewput/results/lesson"
)

// someLessons are made-up verdicts of two seeds, one of each kind.
func someLessons() []lesson.Result {
	return []lesson.Result{
		{Claim: "talk/ideal-scales", Seed: "coffee-shop-simulation-talk.txt", Text: "ideal scales", SeedFigure: "×6 on 6 CPUs",
			Measures: "2 CPUs ÷ 1", Unit: lesson.Ratio, Rule: lesson.AtLeast(1.7), CPUs: []int{1, 2},
			Figure:  lesson.Figure{Median: 1.99, Lo: 1.97, Hi: 2, N: 6, Values: []float64{2, 1.99, 1.97, 2, 1.98, 2}},
			Verdict: lesson.Reproduced, Reason: "the whole 95 % interval meets the claim's ≥ ×1.70", Level: "quick"},
		{Claim: "talk/model-overload", Seed: "coffee-shop-simulation-talk.txt", Text: "400 ms with 100 customers", SeedFigure: "388–397 ms",
			Measures: "p50", Unit: lesson.Ms, Rule: lesson.Between(360, 440), CPUs: []int{6}, Model: true, Sched: "fifo",
			Figure: lesson.Figure{Median: 400, Lo: 400, Hi: 400, N: 1}, Verdict: lesson.Reproduced, Level: "quick"},
		{Claim: "journal/actor-vs-mutex", Seed: "journal-streaming-actors-syncwrite.txt", Text: "actor ≈ mutex", SeedFigure: "no penalty",
			Measures: "actor ÷ simple", Unit: lesson.Ratio, Rule: lesson.Between(0.8, 1.25), CPUs: []int{2},
			Figure:  lesson.Figure{Median: math.NaN(), Lo: math.Inf(-1), Hi: math.Inf(1)},
			Verdict: lesson.Inconclusive, Disturbed: true, Reason: "disturbed: 0 quiet samples", Level: "quick"},
	}
}

func TestLessonsSection(t *testing.T) {
	t.Parallel()
	r, err := BuildWith(studyPoints(), Options{Lessons: someLessons(), Analysis: answered(t, studyPoints())})
	if err != nil {
		t.Fatal(err)
	}
	page := string(file(t, r, Index))
	for _, want := range []string{"What the seeds claim, and what this machine shows", "coffee-shop-simulation-talk.txt",
		"journal-streaming-actors-syncwrite.txt", "talk/ideal-scales", "×1.99 [1.97, 2.00]", "≥ ×1.70", "model (fifo)",
		"400 ms (model, exact)", "inconclusive, disturbed", "3 claims: 2 reproduced, 0 not reproduced, 1 inconclusive (1 disturbed)"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	rs, err := lesson.ReadJSON(strings.NewReader(string(file(t, r, LessonsFile))))
	if err != nil || len(rs) != 3 || rs[0].Claim != "talk/ideal-scales" || !math.IsInf(rs[2].Figure.Hi, 1) {
		t.Errorf("%s read back: %d verdicts, %v", LessonsFile, len(rs), err)
	}

	// Without points, the lessons make a page of their own, and no
	// results files.
	r, err = BuildWith(nil, Options{Lessons: someLessons()})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range r.Files {
		if strings.HasPrefix(f.Name, "results.") {
			t.Errorf("a report of no points holds %s", f.Name)
		}
	}
	if page := string(file(t, r, Index)); !strings.Contains(page, "talk/model-overload") || strings.Contains(page, `id="machine"`) {
		t.Errorf("the lessons-only page lacks its claims or shows a machine section of no points")
	}

	// Written again without lessons, the folder loses the stale verdicts.
	dir := t.TempDir()
	if err := r.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	plain, err := build(t, studyPoints())
	if err != nil {
		t.Fatal(err)
	}
	if err := plain.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, LessonsFile)); err == nil {
		t.Errorf("%s left beside a page that does not show it", LessonsFile)
	}
}
