package results

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/perf/benchproc"
)

// modelPoint is a model's prediction, assessed as the model makes it:
// finelocking on cpus virtual CPUs, held to 1000 lattes/s by the espresso
// machine.
func modelPoint(cpus int) Point {
	p := Point{
		Source: SourceModel, Spec: Spec{Mode: "finelocking", CPUs: cpus, Load: Load{Par: cpus, Dur: time.Second, Warmup: 100 * time.Millisecond}, Policy: Policy{Sched: "fifo", Seed: 7}},
		Ops: 1000, Throughput: 1000, Unit: "lattes/s", CPUUsed: 4, Util: 4 / float64(cpus),
		Latency: Latency{Min: 4, P05: 4, P25: 60, P50: 64, P75: 66, P90: 70, P95: 72, P99: 80, Max: 90, Mean: 64},
		Bounds:  &Bounds{CPU: 250 * float64(cpus), Structural: 1000, ThroughputMax: 1000, LatencyMinMs: 4, Resource: "espresso", SetBy: "espresso", Little: 1},
		Shop: &Shop{Machines: []Machine{{Name: "espresso", Uses: 1000, BusyFrac: 1, MeanWaitMs: 60}},
			Steps: Steps{Grind: time.Millisecond, Press: time.Millisecond, Steam: time.Millisecond, Combine: time.Millisecond}},
		Start: time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC),
	}
	p.Assess()
	return p
}

// measuredPoint is a measurement as sweep writes it: source "measured", the
// machine in Host.
func measuredPoint(host string) Point {
	p := benchPoint("finelocking", 2, 0, 500)
	p.Source, p.Host.Name = SourceMeasured, host
	p.Shop.Machines = []Machine{}
	return p
}

func TestOrigin(t *testing.T) {
	old := measuredPoint("hostA")
	old.Source = "laptop" // a file from before the model: a --source label
	for _, c := range []struct {
		p      Point
		origin string
		model  bool
	}{
		{modelPoint(4), "model", true},
		{measuredPoint("hostA"), "hostA", false},
		{old, "laptop", false},
		{Point{Source: SourceMeasured}, "measured", false}, // host unknown
		{Point{}, "", false},
	} {
		if got := c.p.Origin(); got != c.origin || c.p.IsModel() != c.model {
			t.Errorf("source %q, host %q: origin %q, model %v; want %q, %v", c.p.Source, c.p.Host.Name, got, c.p.IsModel(), c.origin, c.model)
		}
	}
}

func TestFormatBound(t *testing.T) {
	for b, want := range map[*Bounds]string{nil: "-", {}: "none", {CPU: 500, ThroughputMax: 500, SetBy: "cpus"}: "500.0", {ThroughputMax: 8.2e6, SetBy: "cpus"}: "8.2M"} {
		if got := FormatBound(b); got != want {
			t.Errorf("FormatBound(%+v) = %q, want %q", b, got, want)
		}
	}
}

func TestModelPointsRoundTrip(t *testing.T) {
	points := []Point{measuredPoint("hostA"), modelPoint(64)}
	var js, cs bytes.Buffer
	if err := WriteJSON(&js, points); err != nil {
		t.Fatal(err)
	}
	// The model's fields are left out of a measurement's object.
	first := strings.Split(js.String(), "\n")[1]
	for _, key := range []string{`"policy"`, `"sched"`, `"seed"`, `"bounds"`} {
		if strings.Contains(first, key) {
			t.Errorf("measured point's JSON holds %s: %s", key, first)
		}
	}
	if !strings.Contains(js.String(), `"source":"model"`) || !strings.Contains(js.String(), `"bounds":{"cpu":16000,"structural":1000,"throughput_max":1000,"latency_min_ms":4,"resource":"espresso","set_by":"espresso","little":1}`) {
		t.Errorf("model point's JSON lacks its source or bounds:\n%s", js.String())
	}
	got, err := ReadJSON(&js)
	if err != nil || !reflect.DeepEqual(got, points) {
		t.Errorf("JSON round trip: %v\n got %+v\nwant %+v", err, got, points)
	}

	if err := WriteCSV(&cs, points); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(cs.Bytes())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	for name, want := range map[string][2]string{"source": {"measured", "model"}, "sched": {"", "fifo"}, "seed": {"", "7"},
		"bounds.throughput_max": {"", "1000"}, "bounds.latency_min_ms": {"", "4"}, "bounds.resource": {"", "espresso"}} {
		if got := [2]string{rows[1][col[name]], rows[2][col[name]]}; got != want {
			t.Errorf("column %s: %q, want %q", name, got, want)
		}
	}
	got, err = ReadCSV(&cs)
	if err != nil || !reflect.DeepEqual(got, points) {
		t.Errorf("CSV round trip: %v\n got %+v\nwant %+v", err, got, points)
	}
}

// TestTableMarksModelPoints: a table of measured and model points gives
// each its source, and a model point its bound; a row each where the
// terminal is wide enough, every line within 80 columns where it is not.
func TestTableMarksModelPoints(t *testing.T) {
	var buf bytes.Buffer
	t.Setenv("COLUMNS", "80")
	if err := WriteTable(&buf, []Point{measuredPoint("hostA"), modelPoint(64)}); err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(buf.String()) {
		if n := utf8.RuneCountInString(strings.TrimSuffix(line, "\n")); n > 80 || !strings.Contains(buf.String(), "model (fifo)") {
			t.Errorf("a line of %d columns, or no source: %q", n, line)
		}
	}
	buf.Reset()
	t.Setenv("COLUMNS", "120")
	if err := WriteTable(&buf, []Point{measuredPoint("hostA"), modelPoint(64)}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(buf.String(), "\n")
	if !strings.Contains(lines[0], "  ceiling  ") || !strings.HasSuffix(strings.TrimSpace(lines[0]), "source") {
		t.Errorf("header lacks the ceiling or source column:\n%s", buf.String())
	}
	if !strings.Contains(lines[1], " - ") || !strings.HasSuffix(strings.TrimSpace(lines[1]), "hostA") {
		t.Errorf("measured row has a bound or lacks its host:\n%s", buf.String())
	}
	if !strings.Contains(lines[2], " 1000.0 ") || strings.Contains(lines[2], "1000.0 espresso") || !strings.HasSuffix(strings.TrimSpace(lines[2]), "model (fifo)") {
		t.Errorf("model row lacks its ceiling (a figure, not a second resource name beside the limit) or its source:\n%s", buf.String())
	}

	// Model points alone still say they are the model's.
	buf.Reset()
	WriteTable(&buf, []Point{modelPoint(64)})
	if !strings.Contains(buf.String(), "model (fifo)") {
		t.Errorf("a table of model points does not say so:\n%s", buf.String())
	}
	// Measurements from one machine: no source, no ceiling, as before.
	buf.Reset()
	WriteTable(&buf, []Point{measuredPoint("hostA"), measuredPoint("hostA")})
	if strings.Contains(buf.String(), "source") || strings.Contains(buf.String(), "ceiling") {
		t.Errorf("measurements from one machine show source or bound:\n%s", buf.String())
	}
}

// TestBenchKeepsModelApart checks that a prediction and a measurement of one
// configuration are different benchmarks to benchstat, even told to ignore
// the source and cpu, as for files from different machines.
func TestBenchKeepsModelApart(t *testing.T) {
	m := modelPoint(2)
	m.Throughput, m.Ops, m.Util = 500, 1000, 0.75
	var buf bytes.Buffer
	if err := WriteBench(&buf, []Point{measuredPoint("hostA"), m}); err != nil {
		t.Fatal(err)
	}
	results, _ := readBench(t, "x.bench", buf.String())
	if len(results) != 2 {
		t.Fatalf("read %d results, want 2:\n%s", len(results), buf.String())
	}
	if got := results[0].GetConfig("source"); got != "hostA" {
		t.Errorf("measurement's source %q, want its host hostA", got)
	}
	if got := results[1].GetConfig("source"); got != "model" {
		t.Errorf("prediction's source %q, want model", got)
	}
	if got := results[1].Name.String(); got != "Coffee/mode=finelocking/par=2/source=model/sched=fifo-2" {
		t.Errorf("prediction's name %q", got)
	}
	var parser benchproc.ProjectionParser
	row, err := parser.Parse(".fullname", nil)
	if err != nil {
		t.Fatal(err)
	}
	if row.Project(results[0]) == row.Project(results[1]) {
		t.Errorf("benchstat would take prediction and measurement for one benchmark:\n%s", buf.String())
	}
}

// TestTableLatencyUnit: the table writes latencies in the unit the longest
// reads best in, so that a system of nanoseconds is not a column of ms
// with six decimals.
func TestTableLatencyUnit(t *testing.T) {
	t.Setenv("COLUMNS", "160")
	fast := measuredPoint("hostA")
	fast.Latency = Latency{P05: 0.00002, P50: 0.000026, P95: 0.00015, P99: 0.000204, Mean: 0.00004}
	slow := measuredPoint("hostA")
	for _, c := range []struct {
		p          Point
		head, cell string
	}{{fast, "p50 ns", "26.00"}, {slow, "p50 ms", fmt.Sprintf("%.2f", slow.Latency.P50)}} {
		var buf bytes.Buffer
		if err := WriteTable(&buf, []Point{c.p}); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(buf.String(), "\n")
		if !strings.Contains(lines[0], c.head) || !strings.Contains(lines[1], " "+c.cell+" ") {
			t.Errorf("want a column %q with %q:\n%s", c.head, c.cell, buf.String())
		}
	}
}
