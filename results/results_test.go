package results

import (
	"bytes"
	"encoding/csv"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

func samplePoints(t *testing.T) []Point {
	h := hdrhistogram.New(1, int64(time.Hour), 3)
	for i := 1; i <= 1000; i++ {
		h.RecordValue(int64(4*time.Millisecond) + int64(i)*1000)
	}
	enc, err := EncodeHistogram(h)
	if err != nil {
		t.Fatal(err)
	}
	svc := Summarize(h)
	return []Point{
		{Source: "a", Spec: Spec{Mode: "finelocking", CPUs: 2, Load: Load{Par: 2, Dur: time.Second, Warmup: 200 * time.Millisecond}}, CPUSet: "0-1", Ops: 1000,
			Throughput: 1000, Unit: "lattes/s", Metrics: map[Metric]float64{CPUUsed: 1.9, Util: 0.95}, Latency: Summarize(h),
			Shop: &Shop{Machines: []Machine{{Name: "grinder", Uses: 1000, BusyFrac: 0.5, MeanWaitMs: 0.01}},
				Steps: Steps{Grind: time.Millisecond, Press: time.Millisecond, Steam: time.Millisecond, Combine: time.Millisecond, Clock: "wall"}},
			Host:  Host{Name: "a", CPUModel: "x", Cores: 2, GoVersion: "go1.26", OS: "linux", Arch: "amd64"},
			Start: time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC), Hist: enc},
		{Source: "b", Spec: Spec{Mode: "locking", CPUs: 1, Load: Load{Par: 1, Rate: 200, MaxQ: 10, Dur: time.Second}}, Ops: 200, Metrics: map[Metric]float64{Drops: 3},
			Throughput: 200, Unit: "lattes/s", Latency: Summarize(h), Service: &svc, Shop: &Shop{Machines: []Machine{}}},
	}
}

func TestJSONRoundTrip(t *testing.T) {
	points := samplePoints(t)
	var buf bytes.Buffer
	if err := WriteJSON(&buf, points); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), "\n"); n != 1+len(points) {
		t.Fatalf("%d lines for %d points", n, len(points))
	}
	got, err := ReadJSON(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, points) {
		t.Errorf("round trip changed the points:\n got %+v\nwant %+v", got, points)
	}
	h, err := got[0].Histogram()
	if err != nil {
		t.Fatal(err)
	}
	if h.TotalCount() != 1000 || Summarize(h) != points[0].Latency {
		t.Errorf("histogram did not survive: %d values, %+v", h.TotalCount(), Summarize(h))
	}
	if _, err := got[1].Histogram(); err == nil {
		t.Error("a point without a histogram decoded one")
	}
}

func TestReadJSONNamesTheBadLine(t *testing.T) {
	var good bytes.Buffer
	if err := WriteJSON(&good, samplePoints(t)[:1]); err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		good.String() + "not json\n":                                "line 3: not a brewput point",
		"{\"cpus\":1}\n":                                            "line 1: not a brewput point: missing mode",
		"{\"mode\":\"noop\",\"cpus\":1}\n":                          `line 1: not a brewput point: no "par"`,
		good.String() + good.String()[:len(good.String())/2] + "\n": "line 4: not a brewput point",
	} {
		if _, err := ReadJSON(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ReadJSON(%q) error = %v, want %q", in, err, want)
		}
	}
}

func TestCSVHasOneColumnPerField(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteCSV(&buf, samplePoints(t)); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll() // fails on ragged rows
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 {
		t.Fatalf("%d rows, want header + 2", len(rows))
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	for name, want := range map[string]string{"mode": "finelocking", "latency_ms.p50": "4.501503", "machines": "grinder:1000:0.5:0.01", "service_ms.p50": "", "util": "0.95"} {
		if got := rows[1][col[name]]; got != want {
			t.Errorf("row 1 %s = %q, want %q", name, got, want)
		}
	}
	if rows[2][col["service_ms.p50"]] == "" || rows[2][col["drops"]] != "3" {
		t.Errorf("open-loop row lacks service time or drops: %v", rows[2])
	}
}

func TestParseFormat(t *testing.T) {
	for _, name := range Formats() {
		f, err := ParseFormat(name)
		if err != nil || f.String() != name {
			t.Errorf("ParseFormat(%q) = %v, %v", name, f, err)
		}
	}
	if _, err := ParseFormat("xml"); err == nil || !strings.Contains(err.Error(), "accepted: table, csv, json") {
		t.Errorf("ParseFormat(xml) error = %v", err)
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{{nil, 0}, {[]float64{7}, 7}, {[]float64{1, 10, 3, 2}, 2.5}, {[]float64{5, 1, 3}, 3}} {
		if got := Median(c.in); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

// TestKindsRoundTrip: a point of every kind says its kind first and
// nests its part under the kind's name, and comes back as it was from
// JSON; CSV has its part's columns.
func TestKindsRoundTrip(t *testing.T) {
	points, err := ReadFile(filepath.Join("testdata", "samples", "kinds.json"))
	if err != nil {
		t.Fatal(err)
	}
	var js bytes.Buffer
	if err := WriteJSON(&js, points); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(js.String()), "\n")[1:]
	for i, p := range points {
		if prefix := `{"kind":"` + p.Kind.String() + `",`; !strings.HasPrefix(lines[i], prefix) || !strings.Contains(lines[i], `"`+p.Kind.String()+`":{`) {
			t.Errorf("point %d: %.120s…; want it to start %s and hold its part under %q", i, lines[i], prefix, p.Kind)
		}
	}
	if got, err := ReadJSON(&js); err != nil || !reflect.DeepEqual(got, points) {
		t.Errorf("JSON: %v\n got %+v\nwant %+v", err, got, points)
	}
	// Each kind's part has its columns in CSV.
	part := map[Kind]string{KindShop: "steps.grind_ms", KindLab: "lab", KindStudy: "study", KindBench: "bench.name"}
	for i, row := range csvCells(t, points...) {
		if p := points[i]; row["kind"] != p.Kind.String() || row["mode"] != p.Mode || row[part[p.Kind]] == "" {
			t.Errorf("CSV, a %s point: kind %q, mode %q, %s %q", p.Kind, row["kind"], row["mode"], part[p.Kind], row[part[p.Kind]])
		}
	}
}

// TestMarshalNulls: a float that is not finite is null, or left out
// where omitempty (only then: 0 is a number); every other field is as
// json.Marshal writes it, in its order, with HTML characters as they are.
func TestMarshalNulls(t *testing.T) {
	type Inner struct {
		N []int `json:"n"`
	}
	type v struct {
		Name  string  `json:"name"`
		Lo    float64 `json:"lo"`
		Hi    float64 `json:"hi"`
		Zero  float64 `json:"zero,omitempty"`
		Gone  float64 `json:"gone,omitempty"`
		Skip  bool    `json:"-"`
		Ratio float64 `json:"ratio"`
		Inner
	}
	got, err := MarshalNulls(v{Name: "a<b", Lo: math.Inf(-1), Hi: 2.5, Gone: math.NaN(), Skip: true, Ratio: math.NaN(), Inner: Inner{N: []int{1}}})
	want := `{"name":"a<b","lo":null,"hi":2.5,"zero":0,"ratio":null,"n":[1]}`
	if err != nil || string(got) != want {
		t.Errorf("MarshalNulls = %s, %v; want %s", got, err, want)
	}
}
