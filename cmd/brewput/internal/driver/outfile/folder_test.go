package outfile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/brewput/brewput/results"
)

// A folder is made with its journal at the first point, not before; a
// resumed journal goes on where it stopped, keeping its plan.
func TestInFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "report")
	plan := results.Plan{Command: "brewput", Points: 3}
	f := InFolder(dir, plan)
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("a folder before the first point: %v", err)
	}
	if err := f.Add(point("noop")); err != nil {
		t.Fatal(err)
	}
	f.Close()
	f.Close() // again: nothing
	path := filepath.Join(dir, "results.json")
	r, _, err := Resume(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Add(point("ideal")); err != nil {
		t.Fatal(err)
	}
	r.Close()
	got, err := results.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Points) != 2 || got.Plan == nil || got.Plan.Points != 3 {
		t.Errorf("journal holds %d points, plan %+v; want 2 and the plan", len(got.Points), got.Plan)
	}
}
