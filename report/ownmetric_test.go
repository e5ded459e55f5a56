package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// TestOwnMetricEverywhere: a metric that only its producer names — a
// lab's, set once on its point, and a Go benchmark's unit on its line —
// needs no code elsewhere, as a benchfmt value needs none: JSON, CSV, the
// terminal's table and the page show it, and JSON reads it back.
func TestOwnMetricEverywhere(t *testing.T) {
	t.Setenv("COLUMNS", "200") // wide enough for every column
	lab := labPoint("a", 1, 1000, 0.05, 0.5)
	lab.Set("frobs_per_s", 12.5)
	benches, err := results.ReadBench(strings.NewReader("pkg: example.com/kv\nBenchmarkGet-2 1000 55 ns/op 7.25 widgets/op\n"), "kv.txt")
	if err != nil {
		t.Fatal(err)
	}
	points := append([]results.Point{lab}, benches...)

	var js, cs, table bytes.Buffer
	if err := results.WriteJSON(&js, points); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"metrics":{"frobs_per_s":12.5}`, `{"value":7.25,"unit":"widgets/op"}`} {
		if !strings.Contains(js.String(), want) {
			t.Errorf("JSON lacks %s:\n%s", want, js.String())
		}
	}
	back, err := results.ReadJSON(&js)
	if err != nil || len(back) != 2 || back[0].Metrics["frobs_per_s"] != 12.5 || back[1].Metrics["widgets/op"] != 7.25 {
		t.Errorf("JSON read back: %v, %+v", err, back)
	}
	if err := results.WriteCSV(&cs, points); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"frobs_per_s=12.5", "widgets/op=7.25"} {
		if !strings.Contains(cs.String(), want) {
			t.Errorf("CSV lacks %s:\n%s", want, cs.String())
		}
	}
	if err := text.WriteTable(&table, points); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"frobs_per_s", "12.5", "widgets/op"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("the terminal's table lacks %s:\n%s", want, table.String())
		}
	}
	r, err := build(t, points)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range r.Files {
		if f.Name != Index {
			continue
		}
		for _, want := range []string{"<th>frobs per s</th>", ">12.5<", "widgets/op"} {
			if !strings.Contains(string(f.Data), want) {
				t.Errorf("the page lacks %s", want)
			}
		}
	}
}
