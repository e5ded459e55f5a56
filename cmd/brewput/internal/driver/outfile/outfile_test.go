package outfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/results"
)

func point(mode string) results.Point {
	return results.Point{Source: results.SourceMeasured, Spec: results.Spec{Mode: mode, CPUs: 1, Load: results.Load{Par: 1, Dur: time.Second}}, Ops: 10, Throughput: 10, Unit: "ops/s", Shop: &results.Shop{}}
}

// TestCSVHasItsJournalBeside: a CSV file's points go to r.csv.journal as
// they come; finished, r.csv is written and the journal removed; cut
// short, r.csv holds what there is and the journal stays, to resume.
func TestCSVHasItsJournalBeside(t *testing.T) {
	for _, done := range []bool{true, false} {
		dir := t.TempDir()
		path := filepath.Join(dir, "r.csv")
		o, err := Create(path, results.CSV, results.Plan{Command: "run", Points: 2})
		if err != nil {
			t.Fatal(err)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("a file before the first point: %v", entries)
		}
		ps := []results.Point{point("noop")}
		if err := o.Add(ps[0]); err != nil {
			t.Fatal(err)
		}
		j, err := results.Open(path + results.JournalExt)
		if err != nil || j.Plan == nil || j.Plan.Out != path || j.Plan.Format != "csv" || len(j.Points) != 1 {
			t.Fatalf("the journal: %v, %+v", err, j)
		}
		if err := o.Finish(ps, done); err != nil {
			t.Fatal(err)
		}
		if data, err := os.ReadFile(path); err != nil || strings.Count(string(data), "\n") != 2 {
			t.Errorf("done %v: r.csv, want a header and a row: %v, %q", done, err, data)
		}
		_, err = os.Stat(path + results.JournalExt)
		if kept := err == nil; kept == done {
			t.Errorf("done %v: journal kept %v", done, kept)
		}
		if !done {
			o, f, err := Resume(path + results.JournalExt)
			if err != nil || o.Path != path || o.Format != results.CSV || len(f.Points) != 1 {
				t.Errorf("resume: %v, %+v, %+v", err, o, f)
			}
			o.Close()
		}
	}
}

// TestJSONCutShortKeepsThePlan: a JSON file is its own journal; cut short,
// it is written with the plan on its first line, finished without.
func TestJSONCutShortKeepsThePlan(t *testing.T) {
	for _, done := range []bool{true, false} {
		path := filepath.Join(t.TempDir(), "r.json")
		o, err := Create(path, results.JSON, results.Plan{Command: "run", Points: 2})
		if err != nil {
			t.Fatal(err)
		}
		p := point("noop")
		if err := o.Add(p); err != nil {
			t.Fatal(err)
		}
		if err := o.Finish([]results.Point{p}, done); err != nil {
			t.Fatal(err)
		}
		f, err := results.Open(path)
		if err != nil || (f.Plan == nil) != done {
			t.Errorf("done %v: %v, plan %+v", done, err, f.Plan)
		}
	}
}

// TestNothingMeasuredLeavesNothing, and an existing file stays as it was.
func TestNothingMeasuredLeavesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	o, err := Create(path, results.JSON, results.Plan{Command: "run"})
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Finish(nil, false); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "old" {
		t.Errorf("a run that measured nothing changed the file: %q", data)
	}
}

// TestCreateRefusesBadPaths before anything is measured.
func TestCreateRefusesBadPaths(t *testing.T) {
	dir := t.TempDir()
	for path, c := range map[string]struct {
		f    results.Format
		want string
	}{
		filepath.Join(dir, "r.csv"):          {results.JSON, "its extension says csv, but the format is json"},
		filepath.Join(dir, "t.json"):         {results.Table, "the format is table; name the file for its format (" + filepath.Join(dir, "t.txt")},
		filepath.Join(dir, "none", "r.json"): {results.JSON, "cannot write in"},
		dir:                                  {results.JSON, "is a directory"},
		"":                                   {results.JSON, "want a file name"},
	} {
		if _, err := Create(path, c.f, results.Plan{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Create(%q, %s): %v, want %q", path, c.f, err, c.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("probes left behind: %v", entries)
	}
}
