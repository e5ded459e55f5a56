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
// come back from JSON exactly, with no text parsed, are CSV's cells, and
// say the line that Line always said.
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
	want := "for vm's runtime costs, measured 2026-11-22 10:00 UTC on a quiet machine (other processes used 0.00 CPUs): wake 84µs [80µs, 90µs], spin wake 17.796µs [16µs, 20µs], switch 145ns, spin window 3µs; given as flags: spin-window 3µs, switch 145ns; its band spans the costs' 95 % intervals, not the mechanisms the model leaves out"
	if got := cal.Line(); got != want {
		t.Errorf("Line() = %q\nwant     %q", got, want)
	}
	if k, ok := cal.Cost("spin-wake"); !ok || k.Median != 17796 || k.Flag() != "spin-wake" {
		t.Errorf("Cost(spin-wake) = %+v, %v", k, ok)
	}
}

// TestCalibrationSaysWhichMachine: a microbenchmarked calibration says the
// host and date its costs are for, an inferred one the files and points
// they came from, and both survive JSON and CSV.
func TestCalibrationSaysWhichMachine(t *testing.T) {
	measured := Calibration{Host: "vm", Date: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC), Costs: costs()[:1]}
	if got, want := measured.For(), "for vm's runtime costs, measured 2026-11-22 10:00 UTC on a quiet machine (other processes used 0.00 CPUs)"; got != want {
		t.Errorf("For() = %q, want %q", got, want)
	}
	// Measured on a busy machine, its costs are not to be trusted, and
	// wherever it is named it says so, and whether it was kept.
	for _, tc := range []struct {
		c    Calibration
		want string
	}{
		{Calibration{Host: "vm", Date: measured.Date, Others: 0.85, Unsaved: true},
			"for vm's runtime costs, measured 2026-11-22 10:00 UTC on a busy machine (other processes used 0.85 CPUs): not to be trusted, used for this run only and not saved"},
		{Calibration{Host: "vm", Date: measured.Date, Others: 0.6, Forced: true},
			"for vm's runtime costs, measured 2026-11-22 10:00 UTC on a busy machine (other processes used 0.60 CPUs): not to be trusted, kept with --force"},
		{Calibration{Host: "vm", Date: measured.Date, Others: 0.3},
			"for vm's runtime costs, measured 2026-11-22 10:00 UTC on a busy machine (other processes used 0.30 CPUs): not to be trusted"},
	} {
		if got := tc.c.For(); got != tc.want || !tc.c.Busy() {
			t.Errorf("For() = %q, busy %v\nwant     %q, busy", got, tc.c.Busy(), tc.want)
		}
	}
	// One used in place of a busy machine's says what it set aside.
	hedged := measured
	hedged.SetAside = &SetAside{Date: measured.Date.Add(time.Hour), Others: 1.37, Unsaved: true, Costs: costs(), Reference: true}
	if got, want := hedged.For(), measured.For()+"; set aside: the calibration measured for this run on a busy machine (other processes used 1.37 CPUs), no quiet one being kept (brewput calibrate on a quiet machine keeps one)"; got != want {
		t.Errorf("For() = %q\nwant     %q", got, want)
	}
	for _, c := range []Calibration{measured, hedged} {
		p := goPoint(&c)
		var js bytes.Buffer
		if err := WriteJSON(&js, []Point{p}); err != nil {
			t.Fatal(err)
		}
		fromJSON, err := ReadJSON(&js)
		if err != nil || len(fromJSON) != 1 || !reflect.DeepEqual(*fromJSON[0].Calibration, c) {
			t.Errorf("JSON round trip of %s: %v, %+v", c.For(), err, fromJSON)
		}
		aside := ""
		if c.SetAside != nil {
			aside = "1.37"
		}
		checkCells(t, c.For(), csvCells(t, p)[0], map[string]string{"calibration.host": "vm", "calibration.set_aside.others_cpus": aside})
	}
}

// TestBandSaysWhatItSpans: a band over several calibrations of a machine
// says so in words, and survives JSON; CSV has its count.
func TestBandSaysWhatItSpans(t *testing.T) {
	day := time.Date(2026, 11, 24, 18, 10, 0, 0, time.UTC)
	measured := goPoint(&Calibration{Host: "vm", Date: day, Costs: costs(), Calibrations: 5, Since: day.Add(-37 * time.Hour)})
	measured.Band = &Band{Throughput: [2]float64{248, 251.5}, P50Ms: [2]float64{4.1, 8.2}}
	for _, c := range []struct {
		p    Point
		want string
	}{
		{measured, "its band spans the costs' 95 % intervals over 5 calibrations of this machine since 2026-11-23 05:10 UTC, not the mechanisms"},
	} {
		if got := c.p.Calibration.Line(); !strings.Contains(got, c.want) {
			t.Errorf("Line() = %q\nwant it to say %q", got, c.want)
		}
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
// went, Assess on reading leaves them, and the notes say each.
func TestCaveatsRoundTrip(t *testing.T) {
	p := goPoint(nil)
	p.Caveats = []Caveat{{Kind: CaveatShortHold, Resource: "mu", Text: "mu held 25ns a use, busy 95 % of the time: an upper bound"}}
	p.Assess()
	var js bytes.Buffer
	if err := WriteJSON(&js, []Point{p}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"caveats":[{"kind":"short_hold","resource":"mu","text":`) {
		t.Errorf("JSON %s: no caveats as {kind, resource, text}", js.String())
	}
	got, err := ReadJSON(&js)
	if err != nil || !reflect.DeepEqual(got, []Point{p}) {
		t.Errorf("JSON round trip: %v\n got %+v\nwant %+v", err, got, p)
	}
}
