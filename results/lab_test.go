package results

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"
)

func labPoints() []Point {
	start := time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC)
	mk := func(variant string, cpus int, tput float64, metrics map[Metric]float64) Point {
		metrics[Util] = 0.9
		return Point{Kind: KindLab, Source: SourceMeasured, Lab: &Lab{Name: "workloads", Variant: variant}, Metrics: metrics, Spec: Spec{Mode: "workloads/" + variant, CPUs: cpus, Load: Load{Par: cpus, Dur: 100 * time.Millisecond}},
			Ops: 1000, Throughput: tput, Unit: "ints/s",
			Latency: Latency{Min: 1, P50: 2, Max: 3, Mean: 2}, Start: start}
	}
	return []Point{
		mk("add/sequential", 1, 1e8, map[Metric]float64{"speedup": 1, "median_ms": 100}),
		mk("add/concurrent", 2, 1.9e8, map[Metric]float64{"speedup": 1.9, "median_ms": 52.5}),
	}
}

// A lab's points keep their lab, variant and metrics through JSON, CSV
// has them, and they have their own benchmark names (report/text tests
// their table).
func TestLabPoints(t *testing.T) {
	points := labPoints()
	var buf bytes.Buffer
	if err := WriteJSON(&buf, points); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadJSON(&buf); err != nil || !reflect.DeepEqual(got, points) {
		t.Errorf("JSON round trip: %v\n got %+v\nwant %+v", err, got, points)
	}
	checkCells(t, "a lab's point", csvCells(t, points...)[1], map[string]string{"lab": "workloads", "variant": "add/concurrent",
		"metrics": "median_ms=52.5;speedup=1.9"})
	var bench bytes.Buffer
	if err := WriteBench(&bench, points, benchComment); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"BenchmarkLab/lab=workloads/variant=add_concurrent/par=2-2 ", "1.9 speedup", "ints/s"} {
		if !strings.Contains(bench.String(), want) {
			t.Errorf("bench lacks %q:\n%s", want, bench.String())
		}
	}
}
