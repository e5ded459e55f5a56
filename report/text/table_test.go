package text

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/brewput/brewput/results"
)

// measuredPoint is a closed-loop measurement of finelocking on 2 CPUs as
// sweep writes it: source "measured", the machine in Host.
func measuredPoint(host string) results.Point {
	return results.Point{
		Source: results.SourceMeasured, Spec: results.Spec{Mode: "finelocking", CPUs: 2, Load: results.Load{Par: 2, Dur: 2 * time.Second}},
		Ops: 1000, Throughput: 500, Unit: "lattes/s", Metrics: map[results.Metric]float64{results.Util: 0.75},
		Latency: results.Latency{P50: 4.5, P95: 5.25, P99: 6.125, Mean: 4.75},
		Shop:    &results.Shop{Machines: []results.Machine{}, Steps: results.DefaultSteps()},
		Host:    results.Host{Name: host, CPUModel: "Test CPU @ 3.00GHz", OS: "linux", Arch: "amd64"},
	}
}

// modelPoint is a model's prediction, assessed as the model makes it:
// finelocking on cpus virtual CPUs, held to 1000 lattes/s by the espresso
// machine.
func modelPoint(cpus int) results.Point {
	p := results.Point{
		Source: results.SourceModel, Spec: results.Spec{Mode: "finelocking", CPUs: cpus, Load: results.Load{Par: cpus, Dur: time.Second, Warmup: 100 * time.Millisecond}, Policy: results.Policy{Sched: "fifo", Seed: 7}},
		Ops: 1000, Throughput: 1000, Unit: "lattes/s", Metrics: map[results.Metric]float64{results.CPUUsed: 4, results.Util: 4 / float64(cpus)},
		Latency: results.Latency{Min: 4, P05: 4, P25: 60, P50: 64, P75: 66, P90: 70, P95: 72, P99: 80, Max: 90, Mean: 64},
		Bounds:  &results.Bounds{CPU: 250 * float64(cpus), Structural: 1000, ThroughputMax: 1000, LatencyMinMs: 4, Resource: "espresso", SetBy: "espresso", Little: 1},
		Shop: &results.Shop{Machines: []results.Machine{{Name: "espresso", Uses: 1000, BusyFrac: 1, MeanWaitMs: 60}},
			Steps: results.DefaultSteps()},
		Start: time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC),
	}
	p.Assess()
	return p
}

// TestTableShowsEveryPointAndOnlyUsefulColumns: a closed loop from one
// source has no drops or source column; an open loop beside another
// source's point has both.
func TestTableShowsEveryPointAndOnlyUsefulColumns(t *testing.T) {
	closed := measuredPoint("a")
	closed.Shop.Machines = []results.Machine{{Name: "grinder", Uses: 1000, BusyFrac: 0.5, MeanWaitMs: 0.01}}
	open := measuredPoint("b")
	open.Rate = 200
	open.Set(results.Drops, 3)
	var buf bytes.Buffer
	if err := WriteTable(&buf, []results.Point{closed}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"finelocking", "lattes/s", "500.0", "grinder 50%, 0.01 ms", "75%"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "drops") || strings.Contains(out, "source") {
		t.Errorf("closed loop from one source shows drops or source columns:\n%s", out)
	}
	buf.Reset()
	if err := WriteTable(&buf, []results.Point{closed, open}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "drops") || !strings.Contains(buf.String(), "source") {
		t.Errorf("mixed table lacks drops or source:\n%s", buf.String())
	}
}

// TestLabTable: a lab's points have a table of their own, with the lab's
// metrics, beside the shop's.
func TestLabTable(t *testing.T) {
	lab := func(variant string, cpus int, tput float64, metrics map[results.Metric]float64) results.Point {
		metrics[results.Util] = 0.9
		return results.Point{Kind: results.KindLab, Source: results.SourceMeasured, Lab: &results.Lab{Name: "workloads", Variant: variant}, Metrics: metrics,
			Spec: results.Spec{Mode: "workloads/" + variant, CPUs: cpus, Load: results.Load{Par: cpus}}, Throughput: tput, Unit: "ints/s"}
	}
	points := []results.Point{measuredPoint("a"), lab("add/sequential", 1, 1e8, map[results.Metric]float64{"speedup": 1, "median_ms": 100}),
		lab("add/concurrent", 2, 1.9e8, map[results.Metric]float64{"speedup": 1.9, "median_ms": 52.5})}
	var table bytes.Buffer
	if err := WriteTable(&table, points); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"lab workloads", "variant", "speedup", "median_ms", "add/concurrent", "1.9", "finelocking"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, table.String())
		}
	}
}

func TestFormatBound(t *testing.T) {
	for b, want := range map[*results.Bounds]string{nil: "-", {}: "none", {CPU: 500, ThroughputMax: 500, SetBy: "cpus"}: "500.0", {ThroughputMax: 8.2e6, SetBy: "cpus"}: "8.2M"} {
		if got := FormatBound(b); got != want {
			t.Errorf("FormatBound(%+v) = %q, want %q", b, got, want)
		}
	}
}

// TestTableMarksModelPoints: a table of measured and model points gives
// each its source, and a model point its bound; a row each where the
// terminal is wide enough, every line within 80 columns where it is not.
func TestTableMarksModelPoints(t *testing.T) {
	var buf bytes.Buffer
	t.Setenv("COLUMNS", "80")
	if err := WriteTable(&buf, []results.Point{measuredPoint("hostA"), modelPoint(64)}); err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(buf.String()) {
		if n := utf8.RuneCountInString(strings.TrimSuffix(line, "\n")); n > 80 || !strings.Contains(buf.String(), "model (fifo)") {
			t.Errorf("a line of %d columns, or no source: %q", n, line)
		}
	}
	buf.Reset()
	t.Setenv("COLUMNS", "120")
	if err := WriteTable(&buf, []results.Point{measuredPoint("hostA"), modelPoint(64)}); err != nil {
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
	WriteTable(&buf, []results.Point{modelPoint(64)})
	if !strings.Contains(buf.String(), "model (fifo)") {
		t.Errorf("a table of model points does not say so:\n%s", buf.String())
	}
	// Measurements from one machine: no source, no ceiling, as before.
	buf.Reset()
	WriteTable(&buf, []results.Point{measuredPoint("hostA"), measuredPoint("hostA")})
	if strings.Contains(buf.String(), "source") || strings.Contains(buf.String(), "ceiling") {
		t.Errorf("measurements from one machine show source or bound:\n%s", buf.String())
	}
}

// TestTableLatencyUnit: the table writes latencies in the unit the longest
// reads best in, so that a system of nanoseconds is not a column of ms
// with six decimals.
func TestTableLatencyUnit(t *testing.T) {
	t.Setenv("COLUMNS", "160")
	fast := measuredPoint("hostA")
	fast.Latency = results.Latency{P05: 0.00002, P50: 0.000026, P95: 0.00015, P99: 0.000204, Mean: 0.00004}
	slow := measuredPoint("hostA")
	for _, c := range []struct {
		p          results.Point
		head, cell string
	}{{fast, "p50 ns", "26.00"}, {slow, "p50 ms", fmt.Sprintf("%.2f", slow.Latency.P50)}} {
		var buf bytes.Buffer
		if err := WriteTable(&buf, []results.Point{c.p}); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(buf.String(), "\n")
		if !strings.Contains(lines[0], c.head) || !strings.Contains(lines[1], " "+c.cell+" ") {
			t.Errorf("want a column %q with %q:\n%s", c.head, c.cell, buf.String())
		}
	}
}

// TestBenchTable: a Go benchmark's table is benchstat's: a row per
// benchmark and CPU count named as go test names it, every unit a column
// in its tidied unit with SI prefixes (sec/op, the latencies in sec, B/s
// for MB/s), the median ± its interval, "-" where a benchmark lacks a
// unit, the runs, the package above it; in two tables where one would
// not fit the terminal.
func TestBenchTable(t *testing.T) {
	points, err := results.ReadFile("../../results/testdata/gotest-bench.txt")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	t.Setenv("COLUMNS", "80")
	if err := WriteTable(&buf, points); err != nil {
		t.Fatal(err)
	}
	if tables := strings.Count(buf.String(), "benchmark "); tables != 2 {
		t.Errorf("%d tables at 80 columns, want 2:\n%s", tables, buf.String())
	}
	for line := range strings.Lines(buf.String()) {
		if n := utf8.RuneCountInString(strings.TrimSuffix(line, "\n")); n > 80 {
			t.Errorf("a line of %d columns: %q", n, line)
		}
	}
	buf.Reset()
	t.Setenv("COLUMNS", "120")
	if err := WriteTable(&buf, points); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 6 || lines[0] != "pkg: github.com/brewput/brewput/examples/cache" {
		t.Fatalf("table:\n%s", buf.String())
	}
	if got := strings.Fields(lines[1]); !slices.Equal(got, []string{"benchmark", "sec/op", "B/op", "allocs/op", "p50-sec", "p99-sec", "p99.9-sec", "B/s", "n"}) {
		t.Errorf("columns %q:\n%s", got, buf.String())
	}
	if !strings.HasPrefix(strings.TrimSpace(lines[3]), "Cache/mutex/read-2  225.0n ± ∞ ¹") {
		t.Errorf("the 2-CPU row %q", lines[3])
	}
	if f := strings.Fields(lines[4]); f[0] != "Fmt-2" || f[1] != "50.00n" || f[len(f)-6] != "-" || f[len(f)-1] != "1" {
		t.Errorf("Fmt's row %q", lines[4])
	}
	if !strings.HasPrefix(lines[5], "¹ need >= 6 runs") {
		t.Errorf("no footnote on the intervals: %q", lines[5])
	}
}
