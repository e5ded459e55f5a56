package results

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestCSVRoundTrip(t *testing.T) {
	points := samplePoints(t)
	points[0].Rep = 3
	points[0].Shop.Machines = append(points[0].Shop.Machines, Machine{Name: "odd:name", Uses: 7, BusyFrac: 0.125, MeanWaitMs: 1e-7})
	var buf bytes.Buffer
	if err := WriteCSV(&buf, points); err != nil {
		t.Fatal(err)
	}
	got, err := ReadCSV(&buf)
	if err != nil {
		t.Fatal(err)
	}
	for i := range points {
		points[i].Hist = "" // CSV has no histogram
	}
	if !reflect.DeepEqual(got, points) {
		t.Errorf("round trip changed the points:\n got %+v\nwant %+v", got, points)
	}
	if got[0].Service != nil || got[1].Service == nil {
		t.Errorf("service: closed loop %v, open loop %v", got[0].Service, got[1].Service)
	}
}

func TestCSVHasRepAfterWarmup(t *testing.T) {
	h := csvHeader()
	for i, name := range h {
		if name == "warmup_s" && (i+1 >= len(h) || h[i+1] != "rep") {
			t.Errorf("rep does not follow warmup_s: %v", h)
		}
	}
}

func TestReadCSVNamesTheLineAndColumn(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteCSV(&buf, samplePoints(t)); err != nil {
		t.Fatal(err)
	}
	good := buf.String()
	lines := strings.SplitAfter(good, "\n")
	// inRow3 edits line 3, the open-loop point "b,locking,1,,1,200,…".
	inRow3 := func(old, new string) string {
		return lines[0] + lines[1] + strings.Replace(lines[2], old, new, 1)
	}
	for name, c := range map[string]struct{ in, want string }{
		"cpus":         {inRow3(",locking,1,", ",locking,x,"), `line 3, column "cpus": "x" is not a number`},
		"whole":        {inRow3(",locking,1,", ",locking,1.5,"), `line 3, column "cpus": "1.5" is not a whole number`},
		"start":        {strings.Replace(good, "2026-11-21T20:00:00Z", "yesterday", 1), `line 2, column "start": "yesterday" is not an RFC 3339 time`},
		"machines":     {strings.Replace(good, "grinder:1000:0.5:0.01", "grinder:lots", 1), `line 2, column "machines": "grinder:lots" is not name:uses:busy_frac:mean_wait_ms`},
		"latency":      {inRow3(",lattes/s,0,0,", ",lattes/s,0,0,oops"), `line 3, column "latency_ms.min": "oops`},
		"ragged":       {good + "a,b\n", "line 4"},
		"header":       {strings.Replace(good, "warmup_s,rep,", "warmup_s,", 1), `line 1: not brewput's CSV header: column 11 is "harness", want "rep"`},
		"no header":    {"", "line 1: no header"},
		"no mode":      {lines[0] + strings.Replace(lines[1], ",finelocking,", ",,", 1), "line 2: not a brewput point: missing mode or cpus"},
		"extra column": {strings.Replace(good, "source,mode,", "source,more,mode,", 1), `line 1: not brewput's CSV header: column 3 is "more", want "mode"`},
		"NaN":          {inRow3(",lattes/s,0,0,", ",lattes/s,NaN,0,"), `line 3, column "cpu_used": "NaN" is not a number`},
	} {
		_, err := ReadCSV(strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", name, err, c.want)
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
	WriteBench(&bench, points)

	// Names that mislead: the content decides.
	fromJSON, err := ReadFile(writeFile(t, "points.csv", "\n  \n"+js.String()))
	if err != nil || !reflect.DeepEqual(fromJSON, points) {
		t.Errorf("JSON Lines: %v, %d points", err, len(fromJSON))
	}
	fromCSV, err := ReadFile(writeFile(t, "points.json", cs.String()))
	if err != nil || len(fromCSV) != 2 || fromCSV[1].Drops != 3 {
		t.Errorf("CSV: %v, %+v", err, fromCSV)
	}
	fromBench, err := ReadFile(writeFile(t, "points.json", bench.String()))
	if err != nil || len(fromBench) != 2 || fromBench[1].Mode != points[1].Mode || fromBench[1].Throughput != points[1].Throughput {
		t.Errorf("bench: %v, %+v", err, fromBench)
	}
	// The open-loop point has no histogram: read from CSV it is the JSON
	// file's exactly, and counted once.
	both, err := ReadFiles(writeFile(t, "a.jsonl", js.String()), writeFile(t, "b.csv", cs.String()))
	if err != nil || len(both) != 3 || both[0].Hist == "" || both[2].Hist != "" {
		t.Errorf("ReadFiles: %v, %d points", err, len(both))
	}

	for content, want := range map[string]string{
		"goos: linux\nPASS\nok  \tx\t0.1s\n":                             "x.txt: Go benchmark output without a single benchmark result (want JSON Lines from --format json, CSV from --format csv, or Go benchmark output",
		"  mode         cpus  lattes/s\n  finelocking     2    1000.0\n": "x.txt: not a brewput results file (want JSON Lines from --format json, CSV from --format csv, or Go benchmark output from --format bench or go test -bench)",
		"BenchmarkX 10 five ns/op\n":                                     "x.txt: line 1: parsing measurement",
		strings.Replace(cs.String(), "rep,", "", 1):                      `x.txt: CSV whose header is not brewput's: column 11 is "harness", want "rep" (want JSON Lines`,
		"":      "x.txt: holds no points",
		" \n\n": "x.txt: holds no points",
		strings.Split(cs.String(), "\n")[0] + "\n": "x.txt: holds no points",
		js.String() + "{}\n":                       "x.txt: line 4: not a brewput point",
		"{\"mode\":\"x\"}\n":                       "x.txt: line 1: not a brewput point: missing mode or cpus",
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
