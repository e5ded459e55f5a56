package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// line is p as one JSON line, with edit applied to its object.
func line(t *testing.T, p Point, edit func(map[string]any)) string {
	t.Helper()
	data, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := json.Unmarshal(data, &obj); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(obj)
	}
	data, err = json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	return string(data) + "\n"
}

// TestReadIsStrictAboutValues: a number that is null or missing is an
// error naming the line, where it once read as 0 (a "latency_ms": null
// made compare show p50 "4.004 → 0, −100 %").
func TestReadIsStrictAboutValues(t *testing.T) {
	p := samplePoints(t)[0]
	good := line(t, p, nil)
	for name, c := range map[string]struct {
		edit func(map[string]any)
		want string
	}{
		"null latency":    {func(o map[string]any) { o["latency_ms"] = nil }, "line 2: latency_ms is null"},
		"null p50":        {func(o map[string]any) { o["latency_ms"].(map[string]any)["p50"] = nil }, "line 2: latency_ms.p50 is null; want a number"},
		"missing p99":     {func(o map[string]any) { delete(o["latency_ms"].(map[string]any), "p99") }, `line 2: latency_ms has no "p99"`},
		"null throughput": {func(o map[string]any) { o["throughput"] = nil }, "line 2: throughput is null; want a number"},
		"missing util":    {func(o map[string]any) { delete(o, "util") }, `line 2: not a brewput point: no "util"`},
		"null machine": {func(o map[string]any) {
			o["shop"].(map[string]any)["machines"].([]any)[0].(map[string]any)["busy_frac"] = nil
		},
			"line 2: shop.machines[].busy_frac is null"},
		"null metric":   {func(o map[string]any) { o["lab"] = map[string]any{"metrics": map[string]any{"speedup": nil}} }, "line 2: lab.metrics.speedup is null"},
		"null step":     {func(o map[string]any) { o["shop"].(map[string]any)["steps"].(map[string]any)["combine_ms"] = nil }, "line 2: shop.steps.combine_ms is null"},
		"string number": {func(o map[string]any) { o["cpus"] = "2" }, "line 2: not a brewput point"},
	} {
		_, err := Read([]byte(good + line(t, p, c.edit)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", name, err, c.want)
		}
	}
}

// TestReadIsLenientAboutTheFuture: a field this version does not know and
// a byte-order mark are accepted, each with a note naming the line, so that
// a newer brewput's results load in this one.
func TestReadIsLenientAboutTheFuture(t *testing.T) {
	p := samplePoints(t)[0]
	data := "\xef\xbb\xbf" + line(t, p, func(o map[string]any) {
		o["joules"] = 3.5
		o["latency_ms"].(map[string]any)["p999"] = 5.1
	}) + `{"brewput":"signature","by":"a future version"}` + "\n" + line(t, p, func(o map[string]any) { o["kind"] = "trace" })
	f, err := Read([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Points) != 1 || f.Points[0].Latency != p.Latency || f.Points[0].Throughput != p.Throughput {
		t.Errorf("read %+v, want the point as written", f.Points)
	}
	notes := fmt.Sprint(f.Notes)
	for _, want := range []string{"byte-order mark", `line 1: field "joules" is not known`, `"latency_ms.p999"`, "line 2: a record of kind signature", `line 3: a point of kind "trace", unknown`} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes %q do not say %q", notes, want)
		}
	}
}

// TestDuplicatesCountOnce: the same point twice is one point, with a note
// (compare once took the two for repetitions of a configuration).
func TestDuplicatesCountOnce(t *testing.T) {
	ps := samplePoints(t)
	var buf bytes.Buffer
	if err := WriteJSON(&buf, []Point{ps[0], ps[1], ps[0], ps[0]}); err != nil {
		t.Fatal(err)
	}
	f, err := Read(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Points) != 2 {
		t.Errorf("%d points, want 2", len(f.Points))
	}
	if notes := fmt.Sprint(f.Notes); !strings.Contains(notes, "2 point(s) repeat an earlier one exactly (point 3 and 4 of the file), counted once") {
		t.Errorf("notes %q", notes)
	}
	// Across files, as brewput report a.json a.json.
	all := Merge(f, f)
	if len(all.Points) != 2 || !strings.Contains(fmt.Sprint(all.Notes), "across the files: 2 point(s)") {
		t.Errorf("merged: %d points, notes %q", len(all.Points), all.Notes)
	}
}

// TestJournal: a journal holds its plan and every point appended, on the
// disk as each Append returns; a last line cut short by a kill is left
// out with a note, cut off when the journal is resumed, and the rest read
// as a run cut short.
func TestJournal(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	plan := Plan{Command: "run", Points: 3, Study: json.RawMessage(`{"count":1}`)}
	j, err := CreateJournal(path, plan)
	if err != nil {
		t.Fatal(err)
	}
	ps := samplePoints(t)
	for _, p := range ps {
		if err := j.Append(p); err != nil {
			t.Fatal(err)
		}
		// What is appended is there at once, for any reader.
		if f, err := Open(path); err != nil || len(f.Points) == 0 || f.Plan == nil {
			t.Fatalf("after an append: %v, %+v", err, f)
		}
	}
	bad := ps[0]
	bad.Metrics = map[Metric]float64{Util: math.NaN()}
	if err := j.Append(bad); err == nil || !strings.Contains(err.Error(), "util is not a finite number") {
		t.Errorf("a NaN appended: %v", err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	// A kill in the middle of a write leaves part of a line.
	whole, _ := os.ReadFile(path)
	torn := line(t, ps[0], nil)
	if err := os.WriteFile(path, append(whole, torn[:len(torn)/3]...), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Points) != 2 || f.Plan == nil || f.Plan.Command != "run" || string(f.Plan.Study) != `{"count":1}` {
		t.Errorf("read %d points, plan %+v", len(f.Points), f.Plan)
	}
	if !strings.Contains(fmt.Sprint(f.Notes), "line 4: incomplete (a write cut short, as by a kill), left out") {
		t.Errorf("notes %q", f.Notes)
	}
	// samplePoints' sources are host names, as in old files: measured.
	if done, planned, missing := Progress(*f.Plan, f.Points); done != 2 || planned != 3 || len(missing) != 0 {
		t.Errorf("progress: %d of %d points, labs missing %v; want 2 of 3, none", done, planned, missing)
	}
	j, f, err = ResumeJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append(ps[0]); err != nil {
		t.Fatal(err)
	}
	j.Close()
	if f, err = Open(path); err != nil || len(f.Points) != 2 || len(f.Notes) != 1 {
		// the third point repeats the first exactly
		t.Errorf("resumed: %v, %d points, notes %q", err, len(f.Points), f.Notes)
	}
	data, _ := os.ReadFile(path)
	if !bytes.HasSuffix(data, []byte("\n")) || bytes.Count(data, []byte("\n")) != 4 {
		t.Errorf("the resumed journal holds the torn line still:\n%s", data)
	}
	// A finished results file is no journal to resume.
	done := filepath.Join(dir, "done.json")
	if err := os.WriteFile(done, []byte(line(t, ps[0], nil)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ResumeJournal(done); err == nil || !strings.Contains(err.Error(), "nothing to resume") {
		t.Errorf("resume a finished file: %v", err)
	}
}

// TestCheck refuses the impossible numbers that were once saved without a
// word.
func TestCheck(t *testing.T) {
	good := samplePoints(t)[0]
	if err := good.Check(); err != nil {
		t.Fatalf("a good point: %v", err)
	}
	for name, c := range map[string]struct {
		edit func(*Point)
		want string
	}{
		"util 222 %":   {func(p *Point) { p.Set(Util, 2.22) }, "finelocking cpus=2: impossible: utilization 222 % of the 2 CPU(s) given"},
		"negative p05": {func(p *Point) { p.Latency.P05 = -9.22e12 }, "latency_ms.p05 -9.22e+12 below zero"},
		"NaN rate":     {func(p *Point) { p.Rate = math.NaN() }, "rate is not a finite number"},
		"Inf metric": {func(p *Point) {
			p.Kind, p.Shop, p.Lab = KindLab, nil, &Lab{}
			p.Set("speedup", math.Inf(1))
		}, "lab.metrics.speedup is not a finite number"},
		"two parts":    {func(p *Point) { p.Lab = &Lab{Name: "x"} }, "finelocking cpus=2: a shop point with a lab part"},
		"out of order": {func(p *Point) { p.Latency.P99 = p.Latency.P50 / 2 }, "latency_ms.p99"},
	} {
		p := good
		p.Shop = &Shop{}
		c.edit(&p)
		if err := p.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
	nan := good
	nan.Throughput = math.NaN()
	if err := WriteJSON(&bytes.Buffer{}, []Point{nan}); err == nil || !strings.Contains(err.Error(), "throughput is not a finite number") {
		t.Errorf("WriteJSON of a NaN: %v", err)
	}
	if err := WriteCSV(&bytes.Buffer{}, []Point{nan}); err == nil {
		t.Errorf("WriteCSV of a NaN: no error")
	}
}
