package report

import (
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/brewput/brewput/internal/base/race"
)

// TestAddMetric follows docs/development.md's "How to add a metric": its
// declaration and its registry entry, put where the recipe says, and
// nothing else, in a build of brewput through an overlay; there a point
// given the new metric shows it in JSON and CSV (and reads back), in the
// terminal's table and in the page's, and a point without it (an older
// file's) reads and shows "-".
func TestAddMetric(t *testing.T) {
	if testing.Short() {
		t.Skip("builds brewput with the recipe's entry")
	}
	// End to end, as cmd/brewput/internal/driver's recipe tests (its endToEnd): in .ci/run's
	// plain run, or named by -run; not under the race detector, which the
	// build it tests is not made with.
	if race.Enabled {
		t.Skip("end to end, in a build without the race detector: .ci/run's plain run runs it")
	}
	if run := flag.Lookup("test.run"); os.Getenv("BREWPUT_E2E") != "1" && (run == nil || run.Value.String() == "") {
		t.Skip("end to end, in a build of its own: .ci/run runs it (BREWPUT_E2E=1), as does go test -run naming it")
	}
	t.Parallel()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(root, "docs", "development.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, recipe, ok := strings.Cut(string(doc), "\n## How to add a metric\n")
	recipe, _, _ = strings.Cut(recipe, "\n## ")
	blocks := regexp.MustCompile("(?s)```go\n(.*?)\n```").FindAllStringSubmatch(recipe, -1)
	if !ok || len(blocks) != 2 || !strings.Contains(recipe, "results/column.go") || !strings.Contains(recipe, "`Columns`") {
		t.Fatal("docs/development.md has no recipe \"How to add a metric\" naming results/column.go's Columns, with its declaration and its entry in two go blocks")
	}
	decl, entry := strings.TrimSpace(blocks[0][1]), strings.TrimSpace(blocks[1][1])
	name := regexp.MustCompile(`^const (\w+) Metric = "\w+"$`).FindStringSubmatch(decl)
	if name == nil {
		t.Fatalf("the recipe's declaration %q is not one constant of type Metric", decl)
	}
	// The entry goes last in the list Columns returns, the declaration at
	// the file's end.
	src, err := os.ReadFile(filepath.Join(root, "results", "column.go"))
	if err != nil {
		t.Fatal(err)
	}
	_, afterFunc, _ := strings.Cut(string(src), "\nfunc Columns() []Column {")
	end := strings.Index(afterFunc, "\n\t}\n}\n")
	if end < 0 {
		t.Fatal("results/column.go: no list ending Columns")
	}
	at := len(src) - len(afterFunc) + end + 1
	added := string(src[:at]) + "\t\t" + entry + "\n" + string(src[at:]) + "\n" + decl + "\n"

	dir := t.TempDir()
	files := map[string]string{
		filepath.Join(root, "results", "column.go"):               filepath.Join(dir, "column.go"),
		filepath.Join(root, "report", "addedmetric", "x_test.go"): filepath.Join(dir, "x_test.go"),
	}
	if err := os.WriteFile(files[filepath.Join(root, "results", "column.go")], []byte(added), 0o644); err != nil {
		t.Fatal(err)
	}
	test := strings.ReplaceAll(addedMetricTest, "DECLARED", name[1])
	if err := os.WriteFile(files[filepath.Join(root, "report", "addedmetric", "x_test.go")], []byte(test), 0o644); err != nil {
		t.Fatal(err)
	}
	overlay, _ := json.Marshal(map[string]any{"Replace": files})
	if err := os.WriteFile(filepath.Join(dir, "overlay.json"), overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	// Built apart and run from dir: the overlay's package has no folder.
	bin := filepath.Join(dir, "addedmetric.test")
	build := exec.Command("go", "test", "-c", "-vet=off", "-overlay", filepath.Join(dir, "overlay.json"), "-o", bin, "./report/addedmetric")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("brewput with the recipe's entry does not build: %v\n%s", err, out)
	}
	run := exec.Command(bin, "-test.v")
	run.Dir = dir
	if out, err := run.CombinedOutput(); err != nil || !strings.Contains(string(out), "--- PASS: TestAddedMetric") {
		t.Errorf("with the recipe's entry: %v\n%s", err, out)
	}
}

// addedMetricTest is the test run in the build with the recipe's
// declaration, DECLARED, and its entry, the last of results.Columns: a
// point given it, beside one of a file from before it, through every
// format and table.
const addedMetricTest = `package addedmetric_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/report"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

func TestAddedMetric(t *testing.T) {
	t.Setenv("COLUMNS", "200") // wide enough for every column
	cols := results.Columns()
	c := cols[len(cols)-1]
	if c.Key != results.DECLARED || c.Head == "" {
		t.Fatalf("the last column, %q, is not the recipe's %q, one a table shows", c.Key, results.DECLARED)
	}
	point := func(cpus int) results.Point {
		return results.Point{Source: results.SourceMeasured, Spec: results.Spec{Mode: "finelocking", CPUs: cpus, Load: results.Load{Par: cpus, Dur: time.Second}},
			Ops: 500, Throughput: 500, Unit: "lattes/s", Metrics: map[results.Metric]float64{results.CPUUsed: 0.5, results.Util: 0.5}, Latency: results.Latency{Min: 4, P05: 4, P25: 4, P50: 4, P75: 4, P90: 4, P95: 4, P99: 4, Max: 4, Mean: 4},
			Shop: &results.Shop{Machines: []results.Machine{}, Steps: results.DefaultSteps()}, Host: results.Host{Name: "box"},
			Start: time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)}
	}
	measured, older := point(1), point(2)
	measured.Set(results.DECLARED, 4321)
	points := []results.Point{measured, older}

	var js, cs, table bytes.Buffer
	if err := results.WriteJSON(&js, points); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), "\"" + string(c.Key) + "\":4321,\"latency_ms\"") {
		t.Errorf("JSON lacks %s before the latencies:\n%s", c.Key, js.String())
	}
	if err := results.WriteCSV(&cs, points); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(cs.String(), "\n"); !strings.HasSuffix(lines[0], ","+string(c.Key)) || !strings.HasSuffix(lines[1], ",4321") || !strings.HasSuffix(lines[2], ",") {
		t.Errorf("CSV lacks %s as its last column:\n%s", c.Key, cs.String())
	}
	if back, err := results.ReadJSON(&js); err != nil || len(back) != 2 || back[0].Metrics[c.Key] != 4321 || hasKey(back[1].Metrics, c.Key) {
		t.Errorf("JSON read back: %v, %+v", err, back)
	}
	if err := text.WriteTable(&table, points); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(table.String(), "\n"); !strings.Contains(lines[0], c.HeadText()) || !strings.Contains(lines[1], c.Cell(measured)) || !strings.Contains(lines[2], " - ") {
		t.Errorf("the terminal's table lacks %s:\n%s", c.HeadText(), table.String())
	}
	r, err := report.Build(points, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range r.Files {
		if f.Name == report.Index && (!strings.Contains(string(f.Data), "<th>"+c.HeadText()+"</th>") || !strings.Contains(string(f.Data), ">"+c.Cell(measured)+"<")) {
			t.Errorf("the page's table of points lacks %s", c.HeadText())
		}
	}
}

func hasKey(m map[results.Metric]float64, k results.Metric) bool { _, ok := m[k]; return ok }
`
