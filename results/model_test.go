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

// modelPoint is a model's prediction: finelocking on 64 virtual CPUs, held
// to 1000 lattes/s by the espresso machine.
func modelPoint(cpus int) Point {
	return Point{
		Source: SourceModel, Mode: "finelocking", CPUs: cpus, Par: cpus, DurS: 1, WarmupS: 0.1,
		Model: Model{Sched: "fifo", Seed: 7}, Ops: 1000, Throughput: 1000, Unit: "lattes/s", CPUUsed: 4, Util: 4 / float64(cpus),
		Latency: Latency{Min: 4, P05: 4, P25: 60, P50: 64, P75: 66, P90: 70, P95: 72, P99: 80, Max: 90, Mean: 64},
		Bounds:  &Bounds{CPU: 250 * float64(cpus), Structural: 1000, ThroughputMax: 1000, LatencyMinMs: 4, Resource: "espresso", Limit: "espresso", Little: 1},
		Shop: &Shop{Machines: []Machine{{Name: "espresso", Uses: 1000, BusyFrac: 1, MeanWaitMs: 60}},
			Steps: Steps{GrindMs: 1, PressMs: 1, SteamMs: 1, LatteMs: 1}},
		Start: time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC),
	}
}

// measuredPoint is a measurement as sweep writes it: source "measured", the
// machine in Host.
func measuredPoint(host string) Point {
	p := benchPoint("finelocking", 2, 0, 500)
	p.Source, p.Host.Name = SourceMeasured, host
	p.Machines = []Machine{}
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
	for b, want := range map[*Bounds]string{nil: "-", {}: "none", {CPU: 500, ThroughputMax: 500, Limit: "cpus"}: "500.0 cpus"} {
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
	// The model's fields are left out of a measurement's object, so that
	// measured files do not change.
	first, _, _ := strings.Cut(js.String(), "\n")
	for _, key := range []string{`"sched"`, `"seed"`, `"bounds"`} {
		if strings.Contains(first, key) {
			t.Errorf("measured point's JSON holds %s: %s", key, first)
		}
	}
	if !strings.Contains(js.String(), `"source":"model"`) || !strings.Contains(js.String(), `"bounds":{"cpu":16000,"structural":1000,"throughput_max":1000,"latency_min_ms":4,"resource":"espresso","limit":"espresso","little":1}`) {
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

// TestOldFilesStillRead reads files written before the model: CSV without
// its columns, JSON whose source is the host name.
func TestOldFilesStillRead(t *testing.T) {
	points := samplePoints(t)
	var cs bytes.Buffer
	if err := WriteCSV(&cs, points); err != nil {
		t.Fatal(err)
	}
	// Cut the labs' columns off every line, as brewput wrote it before
	// them, and then the model's too, as the oldest brewput did.
	cutOff := func(cut int) string {
		var old strings.Builder
		for _, line := range strings.Split(strings.TrimSuffix(cs.String(), "\n"), "\n") {
			cells := strings.Split(line, ",") // no cell here is quoted
			old.WriteString(strings.Join(cells[:len(cells)-cut], ",") + "\n")
		}
		return old.String()
	}
	n := len(steadyCSVColumns())
	inferenceEra, err := ReadFile(writeFile(t, "inference-era.csv", cutOff(n)))
	if err != nil || len(inferenceEra) != len(points) {
		t.Errorf("CSV from before the open loop's growth: %v, %+v", err, inferenceEra)
	}
	n += len(inferenceCSVColumns())
	interferenceEra, err := ReadFile(writeFile(t, "interference-era.csv", cutOff(n)))
	if err != nil || len(interferenceEra) != len(points) {
		t.Errorf("CSV from before the inference: %v, %+v", err, interferenceEra)
	}
	n += len(interferenceCSVColumns())
	codeEra, err := ReadFile(writeFile(t, "code-era.csv", cutOff(n)))
	if err != nil || len(codeEra) != len(points) {
		t.Errorf("CSV from before the interference: %v, %+v", err, codeEra)
	}
	n += len(codeCSVColumns())
	bandEra, err := ReadFile(writeFile(t, "band-era.csv", cutOff(n)))
	if err != nil || len(bandEra) != len(points) {
		t.Errorf("CSV from before the user's code: %v, %+v", err, bandEra)
	}
	labEra, err := ReadFile(writeFile(t, "lab-era.csv", cutOff(n+len(bandCSVColumns()))))
	if err != nil || len(labEra) != len(points) {
		t.Errorf("CSV from before the bands: %v, %+v", err, labEra)
	}
	modelEra, err := ReadFile(writeFile(t, "model-era.csv", cutOff(n+len(bandCSVColumns())+len(labCSVColumns()))))
	if err != nil || len(modelEra) != len(points) || modelEra[0].Bounds == nil && points[0].Bounds != nil {
		t.Errorf("CSV from before the labs: %v, %+v", err, modelEra)
	}
	var old strings.Builder
	old.WriteString(cutOff(n + len(bandCSVColumns()) + len(labCSVColumns()) + len(modelCSVColumns())))
	if !strings.HasPrefix(old.String(), "source,mode,") || !strings.Contains(old.String(), ",start\n") {
		t.Fatalf("not an old header:\n%s", old.String())
	}
	got, err := ReadFile(writeFile(t, "old.csv", old.String()))
	for i := range points {
		points[i].Hist = ""
	}
	if err != nil || !reflect.DeepEqual(got, points) {
		t.Errorf("old CSV: %v\n got %+v\nwant %+v", err, got, points)
	}

	line := `{"source":"laptop","mode":"locking","cpus":2,"par":2,"rate":0,"maxq":0,"dur_s":1,"warmup_s":0.2,"ops":250,"errors":0,"drops":0,"throughput":250,"unit":"lattes/s","cpu_used":1,"util":0.5,"latency_ms":{"min":4,"p05":4,"p25":4,"p50":8,"p75":12,"p90":12,"p95":12,"p99":12,"max":13,"mean":8},"machines":[],"steps":{"grind_ms":1,"press_ms":1,"steam_ms":1,"latte_ms":1,"jitter_ms":0,"clock":"wall"},"host":{"name":"vm","cpu_model":"x","cores":2,"go_version":"go1.26","os":"linux","arch":"amd64"},"start":"2026-11-21T20:00:00Z"}`
	js, err := ReadFile(writeFile(t, "old.json", line+"\n"))
	if err != nil || len(js) != 1 || js[0].Origin() != "laptop" || js[0].IsModel() || js[0].Bounds != nil {
		t.Errorf("old JSON: %v, %+v", err, js)
	}
	var back bytes.Buffer
	if err := WriteJSON(&back, js); err != nil || strings.TrimSpace(back.String()) != line {
		t.Errorf("old JSON does not write back the same (%v):\n got %s\nwant %s", err, back.String(), line)
	}
}

func TestTableMarksModelPoints(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteTable(&buf, []Point{measuredPoint("hostA"), modelPoint(64)}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(buf.String(), "\n")
	if !strings.Contains(lines[0], "  bound  ") || !strings.HasSuffix(strings.TrimSpace(lines[0]), "source") {
		t.Errorf("header lacks the bound or source column:\n%s", buf.String())
	}
	if !strings.Contains(lines[1], " - ") || !strings.HasSuffix(strings.TrimSpace(lines[1]), "hostA") {
		t.Errorf("measured row has a bound or lacks its host:\n%s", buf.String())
	}
	if !strings.Contains(lines[2], "1000.0 espresso") || !strings.HasSuffix(strings.TrimSpace(lines[2]), "model (fifo)") {
		t.Errorf("model row lacks its bound or source:\n%s", buf.String())
	}

	// Model points alone still say they are the model's.
	buf.Reset()
	WriteTable(&buf, []Point{modelPoint(64)})
	if !strings.Contains(buf.String(), "model (fifo)") {
		t.Errorf("a table of model points does not say so:\n%s", buf.String())
	}
	// Measurements from one machine: no source, no bound, as before.
	buf.Reset()
	WriteTable(&buf, []Point{measuredPoint("hostA"), measuredPoint("hostA")})
	if strings.Contains(buf.String(), "source") || strings.Contains(buf.String(), "bound") {
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
