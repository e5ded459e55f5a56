package results

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"
)

// costs are a calibration's costs with their intervals, one known
// exactly and one given as a flag.
func costs() []Cost {
	return []Cost{{Name: "wake", Median: 84 * time.Microsecond, Lo: 80 * time.Microsecond, Hi: 90 * time.Microsecond},
		{Name: "spin wake", Median: 17796, Lo: 16 * time.Microsecond, Hi: 20 * time.Microsecond},
		{Name: "switch", Median: 145, Lo: 145, Hi: 145}, {Name: "spin window", Median: 3 * time.Microsecond, Lo: 3 * time.Microsecond, Hi: 3 * time.Microsecond}}
}

// goPoint is a go-policy prediction under cal.
func goPoint(cal *Calibration) Point {
	return Point{Source: SourceModel, Spec: Spec{Mode: "locking", CPUs: 2, Load: Load{Par: 2, Dur: time.Second}, Policy: Policy{Sched: "go", Seed: 1}},
		Trust: Trust{Calibration: cal}, Ops: 250, Throughput: 250, Unit: "lattes/s", Shop: &Shop{Machines: []Machine{}}}
}

// TestBandRoundTrip: a go-policy prediction's harness, band and
// calibration survive JSON and CSV, and the JSON has the band as the
// issue names it.
func TestBandRoundTrip(t *testing.T) {
	p := goPoint(&Calibration{Host: "vm", Date: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC), Others: 0.05, Costs: costs()})
	p.Harness = "talk"
	p.Band = &Band{Throughput: [2]float64{248, 251.5}, P50Ms: [2]float64{4.1, 8.2}}
	p.Bounds = &Bounds{CPU: 500, ThroughputMax: 250, SetBy: "kitchen", Little: 1}
	p.Assess()
	var js bytes.Buffer
	if err := WriteJSON(&js, []Point{p}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"band":{"throughput":[248,251.5],"p50_ms":[4.1,8.2]}`) {
		t.Errorf("JSON %s: no band as {throughput:[lo,hi], p50_ms:[lo,hi]}", js.String())
	}
	got, err := ReadJSON(&js)
	if err != nil || !reflect.DeepEqual(got, []Point{p}) {
		t.Errorf("JSON round trip: %v\n got %+v\nwant %+v", err, got, p)
	}
	checkCells(t, "a go point", csvCells(t, p)[0], map[string]string{"harness": "talk", "thr_lo": "248", "thr_hi": "251.5",
		"p50_lo": "4.1", "p50_hi": "8.2", "calibration.host": "vm", "calibration.others_cpus": "0.05"})
}

// TestCostsRoundTrip: a calibration's costs are fields, each a median and
// an interval in nanoseconds, with the costs given as flags named: they
// come back from JSON exactly, with no text parsed, and are CSV's cells
// (report/text says them).
func TestCostsRoundTrip(t *testing.T) {
	cal := &Calibration{Host: "vm", Date: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC), Costs: costs(), Given: []string{"spin-window", "switch"}}
	p := goPoint(cal)
	var js bytes.Buffer
	if err := WriteJSON(&js, []Point{p}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `{"name":"spin wake","median_ns":17796,"lo_ns":16000,"hi_ns":20000}`) || !strings.Contains(js.String(), `"given":["spin-window","switch"]`) {
		t.Errorf("costs are not fields in %s", js.String())
	}
	if got, err := ReadJSON(&js); err != nil || len(got) != 1 || !reflect.DeepEqual(got[0].Calibration, cal) {
		t.Errorf("JSON: %v, %+v", err, got)
	}
	row := csvCells(t, p)[0]
	checkCells(t, "costs", row, map[string]string{"calibration.given": "spin-window;switch"})
	if !strings.Contains(row["calibration.costs"], "spin wake:17796:16000:20000") {
		t.Errorf("CSV's costs %q: no spin wake:17796:16000:20000", row["calibration.costs"])
	}
	if k, ok := cal.Cost("spin-wake"); !ok || k.Median != 17796 || k.Flag() != "spin-wake" {
		t.Errorf("Cost(spin-wake) = %+v, %v", k, ok)
	}
}

// TestCalibrationSaysWhichMachine: a calibration's host and date, busy
// or quiet, and what it set aside survive JSON and CSV (report/text says
// them).
func TestCalibrationSaysWhichMachine(t *testing.T) {
	measured := Calibration{Host: "vm", Date: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC), Costs: costs()[:1]}
	for _, c := range []Calibration{{Others: 0.85, Unsaved: true}, {Others: 0.6, Forced: true}, {Others: 0.3}} {
		if !c.Busy() {
			t.Errorf("%+v is not busy", c)
		}
	}
	hedged := measured
	hedged.SetAside = &SetAside{Date: measured.Date.Add(time.Hour), Others: 1.37, Unsaved: true, Costs: costs(), Reference: true}
	for _, c := range []Calibration{measured, hedged} {
		p := goPoint(&c)
		var js bytes.Buffer
		if err := WriteJSON(&js, []Point{p}); err != nil {
			t.Fatal(err)
		}
		fromJSON, err := ReadJSON(&js)
		if err != nil || len(fromJSON) != 1 || !reflect.DeepEqual(*fromJSON[0].Calibration, c) {
			t.Errorf("JSON round trip of %+v: %v, %+v", c, err, fromJSON)
		}
		aside := ""
		if c.SetAside != nil {
			aside = "1.37"
		}
		checkCells(t, "calibration", csvCells(t, p)[0], map[string]string{"calibration.host": "vm", "calibration.set_aside.others_cpus": aside})
	}
}

// TestBandSaysWhatItSpans: a band over several calibrations of a machine
// survives JSON; CSV has its count.
func TestBandSaysWhatItSpans(t *testing.T) {
	day := time.Date(2026, 11, 24, 18, 10, 0, 0, time.UTC)
	measured := goPoint(&Calibration{Host: "vm", Date: day, Costs: costs(), Calibrations: 5, Since: day.Add(-37 * time.Hour)})
	measured.Band = &Band{Throughput: [2]float64{248, 251.5}, P50Ms: [2]float64{4.1, 8.2}}
	for _, c := range []struct{ p Point }{{measured}} {
		var js bytes.Buffer
		if err := WriteJSON(&js, []Point{c.p}); err != nil {
			t.Fatal(err)
		}
		got, err := ReadJSON(&js)
		if err != nil || len(got) != 1 || !reflect.DeepEqual(got[0].Band, c.p.Band) || !reflect.DeepEqual(got[0].Calibration, c.p.Calibration) {
			t.Errorf("JSON round trip: %v\n got %+v\nwant %+v %+v", err, got, c.p.Band, c.p.Calibration)
		}
		checkCells(t, "a band over calibrations", csvCells(t, c.p)[0], map[string]string{"calibration.calibrations": "5", "thr_lo": "248"})
	}
}

// TestCaveatsRoundTrip: a prediction's caveats come back from JSON as they
// went (its facts, report/text saying them), and Assess on reading leaves
// them.
func TestCaveatsRoundTrip(t *testing.T) {
	p := goPoint(nil)
	p.Caveats = []Caveat{{Kind: CaveatShortHold, Resource: "mu", Under: 100}, {Kind: CaveatLockstep, Idle: 3, Customers: 16, Each: 40}}
	p.Assess()
	var js bytes.Buffer
	if err := WriteJSON(&js, []Point{p}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"caveats":[{"kind":"short_hold","resource":"mu","under_ns":100},{"kind":"lockstep","idle":3,"customers":16,"each":40}]`) {
		t.Errorf("JSON %s: no caveats as {kind, resource, under_ns} and {kind, idle, customers, each}", js.String())
	}
	got, err := ReadJSON(&js)
	if err != nil || !reflect.DeepEqual(got, []Point{p}) {
		t.Errorf("JSON round trip: %v\n got %+v\nwant %+v", err, got, p)
	}
}
