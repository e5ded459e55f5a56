package results

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"
)

// TestMigrateV1: testdata/v1/kinds.json, written by the brewput of schema
// 1, holds a point of every kind: a disturbed measurement and an open
// loop of the shop, a fifo prediction whose queue grew and that passes
// its CPU bound, a go prediction with its band and calibration, a lab's,
// a study's and a Go benchmark's. Each reads into its kind and part, with
// its values.
func TestMigrateV1(t *testing.T) {
	ps, err := ReadFile(filepath.Join("testdata", "v1", "kinds.json"))
	if err != nil {
		t.Fatal(err)
	}
	kinds := make([]Kind, len(ps))
	for i, p := range ps {
		kinds[i] = p.Kind
		if err := p.checkParts(); err != nil {
			t.Error(err)
		}
	}
	if want := []Kind{KindShop, KindShop, KindShop, KindShop, KindLab, KindStudy, KindBench}; !slices.Equal(kinds, want) {
		t.Fatalf("kinds %v, want %v", kinds, want)
	}
	measured, fifo, gop, lab, study, bench := ps[0], ps[2], ps[3], ps[4], ps[5], ps[6]
	if want := (Steps{Grind: time.Millisecond, Press: time.Millisecond, Steam: time.Millisecond, Combine: 2 * time.Millisecond, Jitter: 500 * time.Microsecond, Clock: "wall"}); measured.Shop.Steps != want ||
		measured.Dur != time.Second || measured.Warmup != 200*time.Millisecond || measured.Policy != (Policy{}) {
		t.Errorf("measured: steps %+v, dur %v, warmup %v, policy %+v", measured.Shop.Steps, measured.Dur, measured.Warmup, measured.Policy)
	}
	if want := (Trust{Disturbed: true, OthersCPUs: 2.5, StealCPUs: 0.125, Attempts: 3}); !reflect.DeepEqual(measured.Trust, want) {
		t.Errorf("measured's trust %+v, want %+v", measured.Trust, want)
	}
	if fifo.Policy != (Policy{Sched: "fifo", Seed: 3}) || fifo.Steady == nil || *fifo.Steady ||
		len(fifo.Above) != 1 || fifo.Above[0].Bound != BoundThroughput || fifo.Above[0].Why != WhyRandomSteps || fifo.Shop.Machines[0].WorkingFrac != 0.9 {
		t.Errorf("fifo: policy %+v, trust %+v, machines %+v", fifo.Policy, fifo.Trust, fifo.Shop.Machines)
	}
	if want := (Policy{Sched: "go", Seed: 1, Runtime: "go1.9", Burn: "wall", Background: Background{CPUs: 0.4, Burst: time.Millisecond}}); gop.Policy != want || gop.Harness != "talk" {
		t.Errorf("go: policy %+v, harness %q", gop.Policy, gop.Harness)
	}
	cal := gop.Calibration
	if cal == nil || len(cal.Costs) != 9 || cal.Host != "vm" || !cal.Forced || !slices.Equal(cal.Given, []string{"spin-window"}) || cal.Points != 14 {
		t.Fatalf("go's calibration %+v", cal)
	}
	if c, _ := cal.Cost("spin-wake"); c != (Cost{Name: "spin wake", Median: 17796, Lo: 16 * time.Microsecond, Hi: 20 * time.Microsecond}) {
		t.Errorf("spin wake %+v", c)
	}
	if c, _ := cal.Cost("spin-window"); c != (Cost{Name: "spin window", Median: 3 * time.Microsecond, Lo: 3 * time.Microsecond, Hi: 3 * time.Microsecond}) {
		t.Errorf("spin window %+v", c)
	}
	if want := "wake 84µs [80µs, 90µs], spin wake 17.796µs [16µs, 20µs], spin window 3µs, switch 145ns [140ns, 150ns], mutex handoff 311ns, chan handoff 1.398µs [1µs, 2µs], buf chan handoff 1.403µs, runnext grace 77.971µs [74µs, 88µs], mutex spin 1.057µs [1.05µs, 1.09µs]; given as flags: spin-window 3µs"; cal.CostsLine() != want {
		t.Errorf("the costs say\n%s\nwhere schema 1 said\n%s", cal.CostsLine(), want)
	}
	// Its band reaches 252 under a bound of 250, and says why.
	if gop.Steady == nil || !*gop.Steady || len(gop.Above) != 1 || gop.Above[0].Of != "band" || gop.Above[0].Text == "" {
		t.Errorf("go's trust %+v", gop.Trust)
	}
	if !reflect.DeepEqual(lab.Lab, &Lab{Name: "workloads", Variant: "add/concurrent", Metrics: map[Metric]float64{"speedup": 1.9, "median_ms": 52.5}}) || lab.Mode != "workloads/add/concurrent" {
		t.Errorf("lab %+v", lab.Lab)
	}
	if !reflect.DeepEqual(study.Study, &Study{Name: "cache", Meters: []Machine{{Name: "cache", Kind: "mutex", Uses: 5000, BusyFrac: 0.5, MeanWaitMs: 0.001}}}) {
		t.Errorf("study %+v", study.Study)
	}
	if bench.Bench == nil || bench.Bench.Name != "BenchmarkCache/mutex/read" || len(bench.Bench.Values) != 4 || bench.Dur != 450*time.Millisecond {
		t.Errorf("bench %+v, %+v", bench, bench.Bench)
	}
}

// TestMigrateV1CSV: the same points in schema 1's CSV of each era
// (testdata/v1/kinds-era*.csv, each header the one before it with that
// era's columns added) read into the right kind and values: what the
// JSON holds, less what that era's columns could not (and no CSV holds).
func TestMigrateV1CSV(t *testing.T) {
	fromJSON, err := ReadFile(filepath.Join("testdata", "v1", "kinds.json"))
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"legacy", "model", "lab", "band", "code", "interference", "inference", "steady"}
	for era, name := range names {
		got, err := ReadFile(filepath.Join("testdata", "v1", fmt.Sprintf("kinds-era%d-%s.csv", era, name)))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(fromJSON) {
			t.Fatalf("era %s: %d points, want %d", name, len(got), len(fromJSON))
		}
		for i, p := range fromJSON {
			if want := inEra(p, era); !reflect.DeepEqual(got[i], want) {
				t.Errorf("era %s, point %d:\n got %+v\nwant %+v", name, i, got[i], want)
			}
		}
	}
}

// inEra is p as schema 1's CSV of era holds it: without what the era had
// no column for, a lab's, a study's or a benchmark's point a shop's in
// the eras before their columns, and its trust assessed from what is left.
func inEra(p Point, era int) Point {
	if era < 2 && p.Kind == KindLab || era < 4 && (p.Kind == KindStudy || p.Kind == KindBench) {
		p.Kind, p.Shop, p.Lab, p.Study, p.Bench = KindShop, &Shop{Machines: p.Machines()}, nil, nil, nil
		if p.Shop.Machines == nil {
			p.Shop.Machines = []Machine{}
		}
	}
	if era < 1 {
		p.Policy, p.Bounds = Policy{}, nil
	}
	if era < 3 {
		p.Harness, p.Runtime, p.Band, p.Calibration = "", "", nil, nil
	}
	if era < 5 {
		p.Trust = Trust{Calibration: p.Calibration}
	}
	if c := p.Calibration; c != nil && era < 6 {
		c := *c
		c.InferredFrom, c.Points = nil, 0
		p.Calibration = &c
	}
	if b := p.Bounds; b != nil && era < 7 {
		b := *b
		b.Arrived, b.Growth = 0, 0
		p.Bounds = &b
	}
	p.Burn, p.Background = "", Background{} // no CSV of schema 1 holds them
	p = inCSV(p)
	p.Assess()
	return p
}

// TestCostsV1: schema 1's line of costs reads into the costs, and a line
// that is not one is an error.
func TestCostsV1(t *testing.T) {
	costs, given, err := costsV1("wake 84µs [80µs, 90µs], spin wake 1µs; given as flags: spin-wake 1µs")
	if err != nil || !reflect.DeepEqual(costs, []Cost{{"wake", 84 * time.Microsecond, 80 * time.Microsecond, 90 * time.Microsecond}, {"spin wake", time.Microsecond, time.Microsecond, time.Microsecond}}) ||
		!slices.Equal(given, []string{"spin-wake"}) {
		t.Errorf("costsV1 = %+v, %v, %v", costs, given, err)
	}
	for _, bad := range []string{"wake", "wake x", "wake 1µs [2µs]", "wake 1µs; given as flags: wake"} {
		if _, _, err := costsV1(bad); err == nil {
			t.Errorf("costsV1(%q): no error", bad)
		}
	}
}
