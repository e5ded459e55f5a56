package results

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestMigrateV2: testdata/v2 was written by the brewput of schema 2
// (brewput model --modes finelocking,multi-2 --cpus 1,8 --sched fifo, as
// JSON and as CSV), which named what sets a ceiling bounds.limit. Each
// reads with it as SetBy, the same from both, with no note of an unknown
// field; written again, it says set_by and reads back the same. A schema
// 1 file's bounds read the same way.
func TestMigrateV2(t *testing.T) {
	want := []string{"cpus", "grinder", "cpus", "cpus"}
	var got [2][]Point
	for i, name := range []string{"model.json", "model.csv"} {
		f, err := Open(filepath.Join("testdata", "v2", name))
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Notes) > 0 {
			t.Errorf("%s: notes %q", name, f.Notes)
		}
		var setBy []string
		for _, p := range f.Points {
			if p.Bounds == nil {
				t.Fatalf("%s: %s on %d CPUs has no bounds", name, p.Mode, p.CPUs)
			}
			setBy = append(setBy, p.Bounds.SetBy)
		}
		if !reflect.DeepEqual(setBy, want) {
			t.Errorf("%s: ceilings set by %q, want %q", name, setBy, want)
		}
		got[i] = f.Points
	}
	var js, again bytes.Buffer
	if err := WriteJSON(&js, got[0]); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(js.String(), `"limit":`) || strings.Count(js.String(), `"set_by":`) != len(want) {
		t.Errorf("written again, a point's bounds do not say set_by:\n%.600s", js.String())
	}
	back, err := ReadJSON(&js)
	if err != nil || !reflect.DeepEqual(back, got[0]) {
		t.Errorf("written again, the points read back otherwise (%v)", err)
	}
	if err := WriteCSV(&again, got[1]); err != nil {
		t.Fatal(err)
	}
	if header, _, _ := strings.Cut(again.String(), "\n"); strings.Contains(header, "bounds.limit") || !strings.Contains(header, "bounds.set_by") {
		t.Errorf("the CSV's header, written again: %s", header)
	}
	// A point decoded on its own, as the playground's engine's are.
	line := strings.Split(mustRead(t, filepath.Join("testdata", "v2", "model.json")), "\n")[2]
	var p Point
	if err := p.UnmarshalJSON([]byte(line)); err != nil || p.Bounds == nil || p.Bounds.SetBy != "grinder" {
		t.Errorf("a schema 2 point decoded alone: bounds %+v (%v); want set by the grinder", p.Bounds, err)
	}
	v1, err := ReadFile(filepath.Join("testdata", "v1", "model.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range v1 {
		if p.Bounds == nil || p.Bounds.SetBy == "" {
			t.Errorf("schema 1's %s on %d CPUs: bounds %+v; want what sets its ceiling", p.Mode, p.CPUs, p.Bounds)
		}
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
