package report

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/brewput/brewput/results"
)

// ReadFiles merges the points of several results files, keeps the plan
// of a journal among them, and refuses a file it cannot read, naming it.
func TestReadFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	points := studyPoints()
	whole := filepath.Join(dir, "whole.json")
	f, err := os.Create(whole)
	if err != nil {
		t.Fatal(err)
	}
	if err := results.WriteJSON(f, points[:2]); err != nil {
		t.Fatal(err)
	}
	f.Close()
	cut := filepath.Join(dir, "cut.json")
	plan := results.Plan{Command: "run", Points: 9}
	j, err := results.CreateJournal(cut, plan)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append(points[2]); err != nil {
		t.Fatal(err)
	}
	j.Close()
	in, err := ReadFiles([]string{whole, cut})
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Points) != 3 || in.Plan == nil || in.Plan.Command != "run" || in.Plan.Points != 9 || len(in.Lessons) != 0 {
		t.Errorf("read %d points, plan %+v, %d verdicts; want 3 points, the journal's plan, no verdicts", len(in.Points), in.Plan, len(in.Lessons))
	}
	if in, err := ReadFiles([]string{whole}); err != nil || in.Plan != nil || len(in.Points) != 2 {
		t.Errorf("a finished file alone: %d points, plan %+v, %v; want 2 points, no plan", len(in.Points), in.Plan, err)
	}
	missing := filepath.Join(dir, "missing.json")
	if _, err := ReadFiles([]string{whole, missing}); err == nil {
		t.Errorf("ReadFiles with %s missing: no error", missing)
	}
}
