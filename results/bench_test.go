package results

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchproc"
)

// benchPoint is a closed-loop point with round numbers, so that the values
// read back from a bench line can be checked exactly.
func benchPoint(mode string, cpus, rep int, throughput float64) Point {
	return Point{
		Source: "hostA", Spec: Spec{Mode: mode, CPUs: cpus, Load: Load{Par: cpus, Dur: 2 * time.Second}}, Rep: rep,
		Ops: int64(2 * throughput), Throughput: throughput, Unit: "lattes/s", Metrics: map[Metric]float64{Util: 0.75},
		Latency: Latency{P50: 4.5, P95: 5.25, P99: 6.125, Mean: 4.75},
		Shop:    &Shop{Steps: Steps{Grind: time.Millisecond, Press: time.Millisecond, Steam: time.Millisecond, Combine: time.Millisecond, Clock: "wall"}},
		Host:    Host{Name: "hostA", CPUModel: "Test CPU @ 3.00GHz", OS: "linux", Arch: "amd64"},
	}
}

// readBench reads bench output back with the reader benchstat uses.
func readBench(t *testing.T, name, text string) (results []*benchfmt.Result, units []*benchfmt.UnitMetadata) {
	t.Helper()
	var r benchfmt.Reader
	// benchfmt.Files sets .file so; benchstat compares across it.
	r.Reset(strings.NewReader(text), name, ".file", name)
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.Result:
			results = append(results, rec.Clone())
		case *benchfmt.UnitMetadata:
			units = append(units, rec)
		case *benchfmt.SyntaxError:
			t.Errorf("%v\n%s", rec, text)
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return results, units
}

func TestBenchReadsBackWithBenchfmt(t *testing.T) {
	open := benchPoint("locking", 1, 0, 200)
	open.Rate, open.MaxQ = 250, 1000
	steps := benchPoint("finelocking", 2, 0, 100)
	steps.Shop.Steps.Grind, steps.Shop.Steps.Clock = 2500*time.Microsecond, "cpu"
	otherHost := benchPoint("finelocking", 2, 0, 400)
	otherHost.Source, otherHost.Host.CPUModel = "hostB", "Other CPU"
	stalled := benchPoint("locking", 4, 0, 0)
	stalled.Set(Errors, 7)
	points := []Point{benchPoint("finelocking", 2, 0, 500), benchPoint("multi-2", 4, 0, 1000), open, steps, stalled, otherHost}

	var buf bytes.Buffer
	if err := WriteBench(&buf, points, benchComment); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	results, units := readBench(t, "a.bench", text)

	if !strings.Contains(text, "# BenchmarkCoffee/mode=locking/par=4-4: left out, 7 errors\n") {
		t.Errorf("the point with no operations is not left out with a comment:\n%s", text)
	}
	want := []struct {
		name, source, cpu string
		iters             int
		throughput        float64
	}{
		{"Coffee/mode=finelocking/par=2-2", "hostA", "Test CPU @ 3.00GHz", 1000, 500},
		{"Coffee/mode=multi-2/par=4-4", "hostA", "Test CPU @ 3.00GHz", 2000, 1000},
		{"Coffee/mode=locking/par=1/rate=250/maxq=1000", "hostA", "Test CPU @ 3.00GHz", 400, 200},
		{"Coffee/mode=finelocking/par=2/grind=2.5ms/clock=cpu-2", "hostA", "Test CPU @ 3.00GHz", 200, 100},
		{"Coffee/mode=finelocking/par=2-2", "hostB", "Other CPU", 800, 400},
	}
	if len(results) != len(want) {
		t.Fatalf("read %d results, want %d:\n%s", len(results), len(want), text)
	}
	for i, w := range want {
		r := results[i]
		if got := r.Name.String(); got != w.name {
			t.Errorf("result %d: name %q, want %q", i, got, w.name)
		}
		if r.Iters != w.iters {
			t.Errorf("%s: %d iterations, want %d", w.name, r.Iters, w.iters)
		}
		if got := r.GetConfig("source"); got != w.source {
			t.Errorf("%s: source %q, want %q", w.name, got, w.source)
		}
		if got := r.GetConfig("cpu"); got != w.cpu {
			t.Errorf("%s: cpu %q, want %q", w.name, got, w.cpu)
		}
		for key, want := range map[string]string{"goos": "linux", "goarch": "amd64", "pkg": "github.com/brewput/brewput/coffee"} {
			if got := r.GetConfig(key); got != want {
				t.Errorf("%s: %s %q, want %q", w.name, key, got, want)
			}
		}
		// ns/op comes back tidied to sec/op: the window over the operations.
		for unit, want := range map[string]float64{"sec/op": 1 / w.throughput, "lattes/s": w.throughput,
			"p50-ms": 4.5, "p95-ms": 5.25, "p99-ms": 6.125, "mean-ms": 4.75, "cpu-util": 0.75} {
			if got, ok := r.Value(unit); !ok || math.Abs(got-want) > 1e-9*want {
				t.Errorf("%s: %s = %v (present %v), want %v", w.name, unit, got, ok, want)
			}
		}
	}

	// A mode ending in -<digits> must not be read as the GOMAXPROCS
	// suffix, which is the CPU count, and is left out for 1 CPU as go
	// test leaves it out.
	base, parts := results[1].Name.Parts()
	if string(base) != "Coffee" || len(parts) != 3 || string(parts[0]) != "/mode=multi-2" || string(parts[1]) != "/par=4" || string(parts[2]) != "-4" {
		t.Errorf("multi-2's name splits into %q %q", base, parts)
	}
	if _, parts := results[2].Name.Parts(); string(parts[len(parts)-1]) != "/maxq=1000" {
		t.Errorf("1 CPU's name has a suffix: %q", parts)
	}

	better := map[string]string{}
	for _, u := range units {
		better[u.Unit] = u.Value
	}
	for unit, want := range map[string]string{"lattes/s": "higher", "p50-ms": "lower", "p99-ms": "lower", "mean-ms": "lower"} {
		if better[unit] != want {
			t.Errorf("unit %s better=%q, want %q", unit, better[unit], want)
		}
	}
	if strings.Count(text, "Unit lattes/s") != 1 {
		t.Errorf("unit metadata repeated:\n%s", text)
	}
	// Only what changed is repeated, after a blank line.
	if !strings.Contains(text, "\n\ncpu: Other CPU\nsource: hostB\n\nBenchmark") || strings.Count(text, "goos:") != 1 {
		t.Errorf("configuration lines not written where they change:\n%s", text)
	}
}

// TestBenchRepetitionsAreSamples checks that two files with repetitions
// group as benchstat groups them by default (tables by .config, rows by
// .fullname, columns by .file): each configuration is one row with every
// repetition a sample in each file's column.
func TestBenchRepetitionsAreSamples(t *testing.T) {
	file := func(source string, scale float64) string {
		var points []Point
		for rep := 1; rep <= 3; rep++ {
			for _, mode := range []string{"finelocking", "multi-2"} {
				for _, cpus := range []int{1, 2} {
					p := benchPoint(mode, cpus, rep, scale*float64(100*cpus+rep))
					p.Source = source
					points = append(points, p)
				}
			}
		}
		var buf bytes.Buffer
		if err := WriteBench(&buf, points, benchComment); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	var parser benchproc.ProjectionParser
	table, err := parser.Parse(".config", nil)
	if err != nil {
		t.Fatal(err)
	}
	row, _ := parser.Parse(".fullname", nil)
	col, _ := parser.Parse(".file", nil)

	tables, rows, samples := map[benchproc.Key]bool{}, map[benchproc.Key]bool{}, map[[2]benchproc.Key]int{}
	for name, text := range map[string]string{"old.bench": file("hostA", 1), "new.bench": file("hostA", 2)} {
		results, _ := readBench(t, name, text)
		for _, r := range results {
			tables[table.Project(r)] = true
			rows[row.Project(r)] = true
			samples[[2]benchproc.Key{row.Project(r), col.Project(r)}]++
		}
	}
	if len(tables) != 1 || len(rows) != 4 || len(samples) != 8 {
		t.Errorf("%d tables, %d rows, %d cells; want 1 table of 4 configurations by 2 files", len(tables), len(rows), len(samples))
	}
	for cell, n := range samples {
		if n != 3 {
			t.Errorf("%s in %s: %d samples, want 3", cell[0], cell[1], n)
		}
	}
}

func TestStepsNonDefault(t *testing.T) {
	def := Steps{Grind: time.Millisecond, Press: time.Millisecond, Steam: time.Millisecond, Combine: time.Millisecond, Clock: "wall"}
	if got := def.NonDefault(); len(got) != 0 {
		t.Errorf("default steps labelled %q", got)
	}
	def.Clock = ""
	if got := def.NonDefault(); len(got) != 0 {
		t.Errorf("default steps without a clock labelled %q", got)
	}
	other := Steps{Grind: time.Millisecond, Press: 500 * time.Microsecond, Steam: time.Millisecond, Combine: time.Millisecond, Jitter: 250 * time.Microsecond, Clock: "cpu"}
	if got := strings.Join(other.NonDefault(), " "); got != "press=0.5ms jitter=0.25ms clock=cpu" {
		t.Errorf("NonDefault() = %q", got)
	}
}

func TestBenchFormat(t *testing.T) {
	if f, ok := FormatForFile("old.bench"); !ok || f != Bench {
		t.Errorf("FormatForFile(old.bench) = %v, %v", f, ok)
	}
	if f, err := ParseFormat("bench"); err != nil || f != Bench {
		t.Errorf("ParseFormat(bench) = %v, %v", f, err)
	}
	if _, err := ParseFormat("benchstat"); err == nil || !strings.Contains(err.Error(), "accepted: table, csv, json, bench") {
		t.Errorf("ParseFormat(benchstat) error = %v", err)
	}
	// Its comments are report/text's words: text.Write writes it.
	var direct bytes.Buffer
	if err := Write(&direct, Bench, []Point{benchPoint("ideal", 1, 0, 10)}); err == nil {
		t.Errorf("Write(Bench) wrote %q without the words of its comments", direct.String())
	}
	if err := WriteBench(&direct, nil, benchComment); err != nil {
		t.Error(err)
	}
}

// TestReadGoTestOutput reads go test -bench output as go test writes it:
// the CPU count from the -N suffix (none for 1 CPU), the repetitions of
// -count numbered, every value kept in its unit, the latencies package
// bench reports read into the point, the lines that are not results
// skipped, and the file named as the source, since go test names none.
func TestReadGoTestOutput(t *testing.T) {
	points, err := ReadFile("testdata/gotest-bench.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(points) != 5 {
		t.Fatalf("%d points, want 5", len(points))
	}
	want := []struct {
		mode       string
		cpus, rep  int
		throughput float64
		p50, p99   float64
	}{
		{"Cache/mutex/read", 1, 1, 1e7, 40e-6, 200e-6},
		{"Cache/mutex/read", 1, 2, 8e6, 45e-6, 250e-6},
		{"Cache/mutex/read", 2, 1, 4e6, 90e-6, 900e-6},
		{"Cache/mutex/read", 2, 2, 5e6, 80e-6, 800e-6},
		{"Fmt", 2, 1, 2e7, 0, 0},
	}
	for i, w := range want {
		p := points[i]
		if p.Mode != w.mode || p.CPUs != w.cpus || p.Par != w.cpus || p.Rep != w.rep {
			t.Errorf("point %d: %s cpus=%d par=%d rep=%d, want %s cpus=%d rep=%d", i, p.Mode, p.CPUs, p.Par, p.Rep, w.mode, w.cpus, w.rep)
		}
		if math.Abs(p.Throughput-w.throughput) > 1e-6*w.throughput || p.Unit != "ops/s" {
			t.Errorf("point %d: %v %s, want %v ops/s", i, p.Throughput, p.Unit, w.throughput)
		}
		if math.Abs(p.Latency.P50-w.p50) > 1e-12 || math.Abs(p.Latency.P99-w.p99) > 1e-12 {
			t.Errorf("point %d: p50 %v p99 %v ms, want %v %v", i, p.Latency.P50, p.Latency.P99, w.p50, w.p99)
		}
		if p.Source != SourceMeasured || p.Origin() != "gotest-bench.txt" || p.Host.CPUModel != "Intel(R) Xeon(R) Processor @ 2.50GHz" || p.Host.OS != "linux" {
			t.Errorf("point %d: source %q origin %q host %+v", i, p.Source, p.Origin(), p.Host)
		}
		if p.Bench == nil || p.Bench.Pkg != "github.com/brewput/brewput/examples/cache" || p.Bench.Name != "Benchmark"+w.mode {
			t.Errorf("point %d: bench part %+v", i, p.Bench)
		}
	}
	fmtPoint := points[4]
	if fmtPoint.Ops != 20000000 || math.Abs(fmtPoint.Dur.Seconds()-1) > 1e-9 {
		t.Errorf("Fmt: %d ops in %v s, want 2e7 in 1 s", fmtPoint.Ops, fmtPoint.Dur.Seconds())
	}
	for unit, want := range map[string]float64{"ns/op": 50, "MB/s": 2, "B/op": 16, "allocs/op": 1} {
		if got, ok := fmtPoint.Metrics[Metric(unit)]; !ok || got != want {
			t.Errorf("Fmt %s = %v (%v), want %v", unit, got, ok, want)
		}
	}
	if got, _ := points[0].Metrics["p99.9-ns"]; got != 1000 {
		t.Errorf("p99.9-ns = %v, want 1000", got)
	}
}

// TestBenchRoundTrip writes every kind of point as bench lines and reads
// them back: a Go benchmark's line as go test wrote it, the shop's, a
// lab's and a study's configuration and measures.
func TestBenchRoundTrip(t *testing.T) {
	goBench, err := ReadFile("testdata/gotest-bench.txt")
	if err != nil {
		t.Fatal(err)
	}
	shop := benchPoint("multi-2", 1, 0, 250)
	model := benchPoint("finelocking", 4, 0, 1000)
	model.Source, model.Sched, model.Host = SourceModel, "fifo", Host{}
	open := benchPoint("locking", 2, 0, 240)
	open.Rate, open.MaxQ, open.Shop.Steps.Jitter = 250, 10, 500*time.Microsecond
	lab := Point{Kind: KindLab, Source: SourceMeasured, Lab: &Lab{Name: "render", Variant: "rows"}, Metrics: map[Metric]float64{"speedup": 1.8, Util: 0.5},
		Spec: Spec{Mode: "render/rows", CPUs: 2, Load: Load{Par: 4, Dur: time.Second}}, Ops: 10, Throughput: 10, Unit: "images/s", Host: Host{Name: "h"}}
	study := Point{Kind: KindStudy, Source: SourceMeasured, Spec: Spec{Mode: "mutex-read", CPUs: 2, Load: Load{Par: 2, Dur: 500 * time.Millisecond}}, Study: &Study{Name: "cache", Meters: []Machine{}}, Ops: 5000,
		Throughput: 10000, Unit: "lookups/s", Metrics: map[Metric]float64{Util: 1}, Latency: Latency{P50: 0.1, P95: 0.2, P99: 0.3, Mean: 0.12}, Host: Host{Name: "h"},
	}
	in := append(append([]Point{}, goBench...), shop, model, open, lab, study)
	var buf bytes.Buffer
	if err := WriteBench(&buf, in, benchComment); err != nil {
		t.Fatal(err)
	}
	out, err := ReadBench(bytes.NewReader(buf.Bytes()), "x.bench")
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if len(out) != len(in) {
		t.Fatalf("read %d points of %d:\n%s", len(out), len(in), buf.String())
	}
	for i := range goBench {
		a, b := in[i], out[i]
		if b.Mode != a.Mode || b.CPUs != a.CPUs || b.Rep != a.Rep || b.Ops != a.Ops || b.Origin() != a.Origin() ||
			!reflect.DeepEqual(b.Bench, a.Bench) || b.Latency != a.Latency || math.Abs(b.Throughput/a.Throughput-1) > 1e-9 {
			t.Errorf("Go benchmark %d: read back\n%+v\n%+v, want\n%+v\n%+v", i, b, b.Bench, a, a.Bench)
		}
	}
	for i, a := range in[len(goBench):] {
		b := out[len(goBench)+i]
		same := b.Mode == a.Mode && b.CPUs == a.CPUs && b.Par == a.Par && b.Rate == a.Rate && b.MaxQ == a.MaxQ &&
			b.Ops == a.Ops && b.Origin() == a.Origin() && b.IsModel() == a.IsModel() && b.Sched == a.Sched &&
			b.LabName() == a.LabName() && b.Variant() == a.Variant() && b.StudyName() == a.StudyName() && b.Unit == a.Unit && b.Kind == a.Kind &&
			math.Abs(b.Throughput-a.Throughput) < 1e-9*a.Throughput && b.Metrics[Util] == a.Metrics[Util] &&
			b.Latency.P50 == a.Latency.P50 && b.Latency.P99 == a.Latency.P99 && reflect.DeepEqual(b.Own(), a.Own()) &&
			math.Abs(b.Dur.Seconds()/a.Dur.Seconds()-1) < 1e-5 && b.Bench == nil && b.Steps() == a.Steps() && b.checkParts() == nil
		if !same {
			t.Errorf("point %s: read back\n%+v, want\n%+v", a.Mode, b, a)
		}
	}
}

// TestCodePointsRoundTrip: a study's and a Go benchmark's points come back
// from JSON Lines as they went in, and CSV has their parts.
func TestCodePointsRoundTrip(t *testing.T) {
	points, err := ReadFile("testdata/gotest-bench.txt")
	if err != nil {
		t.Fatal(err)
	}
	points = append(points, Point{Kind: KindStudy, Source: SourceMeasured, Spec: Spec{Mode: "mutex-read", CPUs: 2, Load: Load{Par: 2, Dur: 500 * time.Millisecond}}, Study: &Study{Name: "cache", Meters: []Machine{{Name: "cache", Kind: "mutex", Uses: 5000, BusyFrac: 0.5, MeanWaitMs: 0.001}}},
		Ops: 5000, Throughput: 10000, Unit: "lookups/s"})
	var js bytes.Buffer
	if err := WriteJSON(&js, points); err != nil {
		t.Fatal(err)
	}
	fromJSON, err := ReadJSON(&js)
	if err != nil || !reflect.DeepEqual(fromJSON, points) {
		t.Errorf("JSON: %v\n got %+v\nwant %+v", err, fromJSON, points)
	}
	rows := csvCells(t, points...)
	for i, p := range points {
		bench := ""
		if p.Bench != nil {
			bench = p.Bench.Name
		}
		checkCells(t, fmt.Sprintf("point %d", i), rows[i], map[string]string{"kind": p.Kind.String(), "mode": p.Mode,
			"bench.name": bench, "study": p.StudyName()})
	}
	checkCells(t, "the study's point", rows[5], map[string]string{"machines": "cache:5000:0.5:0.001"})
}

// TestBusiestMeter: a study's table names the meter its callers spent the
// most time on, held or waiting, as measured; a channel by its wait.
func TestBusiestMeter(t *testing.T) {
	p := Point{Kind: KindStudy, Spec: Spec{Mode: "v", Load: Load{Dur: time.Second}}, Study: &Study{Name: "s", Meters: []Machine{
		{Name: "log", Kind: "mutex", Uses: 10, BusyFrac: 0.1},
		{Name: "jobs send", Kind: "chan send", Uses: 1000, MeanWaitMs: 1},
		{Name: "cache", Kind: "mutex", Uses: 1e6, BusyFrac: 0.4, MeanWaitMs: 0.00016},
	}}}
	if got := BusiestMeter(p); got != "chan jobs send, wait 1.0 ms" {
		t.Errorf("BusiestMeter = %q", got)
	}
	p.Machines()[1].MeanWaitMs = 0.0001
	if got := BusiestMeter(p); got != "mutex cache held 40%, wait 160 ns" {
		t.Errorf("BusiestMeter = %q", got)
	}
	if got := BusiestMeter(Point{Kind: KindStudy, Study: &Study{Name: "s", Meters: []Machine{}}}); got != "-" {
		t.Errorf("no meters: %q", got)
	}
}

// TestRound6: a bench line's numbers are rounded to six significant
// digits (whole numbers from a million up) as the float nearest that
// decimal, as strconv rounds it: decimal ties, which a float lies just
// above or below, go the way the float lies.
func TestRound6(t *testing.T) {
	for _, c := range []struct{ v, want float64 }{
		{1.234565, 1.23456}, // the float is 1.23456499999…
		{1.234585, 1.23459}, // 1.23458500000…04
		{2004008.016, 2004008}, {0.0061234567, 0.00612346}, {-498.30049, -498.3}, {0, 0}, {1e-20, 1e-20},
		{1234565, 1234565}, {2500000.5, 2500000}, {2500001.5, 2500002}, {2.5, 2.5},
	} {
		if got := round6(c.v); got != c.want {
			t.Errorf("round6(%v) = %v, want %v", c.v, got, c.want)
		}
	}
	for i := range 100000 { // decimals of seven significant digits: a tie one in ten
		v := float64(1000000+i*7) / math.Pow10(i%12)
		want, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'e', 5, 64), 64)
		if v >= 1e6 {
			want = math.Round(v)
		}
		if got := round6(v); got != want {
			t.Fatalf("round6(%v) = %v, want %v", v, got, want)
		}
	}
}

// TestBenchOneTableWithGoTest: Go benchmarks written in the bench format
// fall in one of benchstat's tables with go test's own output of the same
// benchmarks (their machine is a comment, not a configuration key), and
// read back with their machine.
func TestBenchOneTableWithGoTest(t *testing.T) {
	goTest, err := os.ReadFile("testdata/gotest-bench.txt")
	if err != nil {
		t.Fatal(err)
	}
	points, err := ReadBench(bytes.NewReader(goTest), "gotest-bench.txt")
	if err != nil {
		t.Fatal(err)
	}
	for i := range points {
		points[i].Host.Name = "hostA"
	}
	var ours bytes.Buffer
	if err := WriteBench(&ours, points, benchComment); err != nil {
		t.Fatal(err)
	}
	var parser benchproc.ProjectionParser
	table, err := parser.Parse(".config", nil)
	if err != nil {
		t.Fatal(err)
	}
	tables := map[benchproc.Key]bool{}
	for name, text := range map[string]string{"old.txt": string(goTest), "new.bench": ours.String()} {
		results, _ := readBench(t, name, text)
		for _, r := range results {
			tables[table.Project(r)] = true
		}
	}
	if len(tables) != 1 {
		t.Errorf("%d benchstat tables of go test's output and brewput's, want 1:\n%s", len(tables), ours.String())
	}
	back, err := ReadBench(bytes.NewReader(ours.Bytes()), "new.bench")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range back {
		if p.Origin() != "hostA" {
			t.Errorf("%s read back from %q, want hostA", p.Mode, p.Origin())
			break
		}
	}
}

// benchComment stands for report/text's BenchComment, which results'
// tests cannot import: a point left out with its errors, or one disturbed.
func benchComment(p Point) string {
	if p.Ops <= 0 {
		return fmt.Sprintf("left out, %.0f errors", p.Metrics[Errors])
	}
	return "disturbed"
}
