package results

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestCSVHasRepAfterWarmup(t *testing.T) {
	h := csvHeader()
	for i, name := range h {
		if name == "warmup_s" && (i+1 >= len(h) || h[i+1] != "rep") {
			t.Errorf("rep does not follow warmup_s: %v", h)
		}
	}
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReadFileTellsTheFormatFromTheContent(t *testing.T) {
	points := samplePoints(t)
	var js, cs, bench bytes.Buffer
	WriteJSON(&js, points)
	WriteCSV(&cs, points)
	WriteBench(&bench, points, benchComment)

	// Names that mislead: the content decides.
	fromJSON, err := ReadFile(writeFile(t, "points.csv", "\n  \n"+js.String()))
	if err != nil || !reflect.DeepEqual(fromJSON, points) {
		t.Errorf("JSON Lines: %v, %d points", err, len(fromJSON))
	}
	fromBench, err := ReadFile(writeFile(t, "points.json", bench.String()))
	if err != nil || len(fromBench) != 2 || fromBench[1].Mode != points[1].Mode || fromBench[1].Throughput != points[1].Throughput {
		t.Errorf("bench: %v, %+v", err, fromBench)
	}

	for content, want := range map[string]string{
		"goos: linux\nPASS\nok  \tx\t0.1s\n":                             "x.txt: Go benchmark output without a single benchmark result (want JSON Lines from --format json (a report's results.json), or Go benchmark output",
		"  mode         cpus  lattes/s\n  finelocking     2    1000.0\n": "x.txt: not a brewput results file (want JSON Lines from --format json (a report's results.json), or Go benchmark output from --format bench or go test -bench)",
		"BenchmarkX 10 five ns/op\n":                                     "x.txt: line 1: parsing measurement",
		cs.String():                                                      "x.txt: brewput's CSV, written for spreadsheets and not read back (want JSON Lines",
		"":                                                               "x.txt: holds no points",
		" \n\n":                                                          "x.txt: holds no points",
		js.String() + "{}\n":                                             "x.txt: line 4: not a brewput point",
		"{\"mode\":\"x\"}\n":                                             "x.txt: line 1: not a brewput point: missing mode or cpus",
	} {
		_, err := ReadFile(writeFile(t, "x.txt", content))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ReadFile(%.40q) error = %v, want %q", content, err, want)
		}
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing.json")); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("missing file: %v", err)
	}
	if _, err := ReadFiles(writeFile(t, "a.jsonl", js.String()), writeFile(t, "empty.csv", "")); err == nil || !strings.Contains(err.Error(), "empty.csv: holds no points") {
		t.Errorf("ReadFiles with an empty file: %v", err)
	}
}
