package results

import (
	"bytes"
	"encoding/csv"
	"reflect"
	"strings"
	"testing"
	"time"

	"golang.org/x/perf/benchproc"
)

// modelPoint is a model's prediction, assessed as the model makes it:
// finelocking on cpus virtual CPUs, held to 1000 lattes/s by the espresso
// machine.
func modelPoint(cpus int) Point {
	p := Point{
		Source: SourceModel, Spec: Spec{Mode: "finelocking", CPUs: cpus, Load: Load{Par: cpus, Dur: time.Second, Warmup: 100 * time.Millisecond}, Policy: Policy{Sched: "fifo", Seed: 7}},
		Ops: 1000, Throughput: 1000, Unit: "lattes/s", Metrics: map[Metric]float64{CPUUsed: 4, Util: 4 / float64(cpus)},
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
}

// TestBenchKeepsModelApart checks that a prediction and a measurement of one
// configuration are different benchmarks to benchstat, even told to ignore
// the source and cpu, as for files from different machines.
func TestBenchKeepsModelApart(t *testing.T) {
	m := modelPoint(2)
	m.Throughput, m.Ops = 500, 1000
	m.Set(Util, 0.75)
	var buf bytes.Buffer
	if err := WriteBench(&buf, []Point{measuredPoint("hostA"), m}, benchComment); err != nil {
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
