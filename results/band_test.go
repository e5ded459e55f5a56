package results

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestBandRoundTrip: a go-policy prediction's harness, band and
// calibration survive JSON and CSV, the costs' commas included, and the
// JSON has the band as the issue names it.
func TestBandRoundTrip(t *testing.T) {
	p := Point{Source: SourceModel, Mode: "locking", CPUs: 2, Par: 2, DurS: 1, Ops: 250, Throughput: 250, Unit: "lattes/s",
		Harness: "talk", Shop: &Shop{Machines: []Machine{}},
		Model: Model{Sched: "go", Seed: 1, Runtime: "go1.9",
			Band: &Band{Throughput: [2]float64{248, 251.5}, P50Ms: [2]float64{4.1, 8.2}},
			Calibration: &Calibration{Host: "vm", Date: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC), Others: 0.05,
				Costs: "wake 84µs [80µs, 90µs], switch 145ns"}},
		Bounds: &Bounds{CPU: 500, ThroughputMax: 250, Limit: "kitchen", Little: 1}}
	var js, cs bytes.Buffer
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
	if err := WriteCSV(&cs, []Point{p}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.SplitN(cs.String(), "\n", 2)[0], ",thr_lo,thr_hi,p50_lo,p50_hi,") {
		t.Errorf("CSV header has no thr_lo, thr_hi, p50_lo, p50_hi")
	}
	got, err = ReadCSV(&cs)
	if err != nil || len(got) != 1 || !reflect.DeepEqual(got[0].Band, p.Band) || !reflect.DeepEqual(got[0].Calibration, p.Calibration) || got[0].Harness != "talk" || got[0].Runtime != "go1.9" {
		t.Errorf("CSV round trip: %v, %+v", err, got)
	}
}

// TestCalibrationSaysWhichMachine: a microbenchmarked calibration says the
// host and date its costs are for, an inferred one the files and points
// they came from, and both survive JSON and CSV; a point written before
// the inference fields reads as the host's.
func TestCalibrationSaysWhichMachine(t *testing.T) {
	measured := Calibration{Host: "vm", Date: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC), Costs: "wake 84µs"}
	if got, want := measured.For(), "for vm's runtime costs, measured 2026-11-22 10:00 UTC"; got != want {
		t.Errorf("For() = %q, want %q", got, want)
	}
	inferred := Calibration{Date: measured.Date, Costs: "wake 6.4µs [800ns, 12.8µs]", InferredFrom: []string{"varycpu.csv", "more.json"}, Points: 14}
	if got, want := inferred.Line(), "for the costs inferred from varycpu.csv, more.json (14 points): wake 6.4µs [800ns, 12.8µs]"; got != want {
		t.Errorf("Line() = %q, want %q", got, want)
	}
	for _, c := range []Calibration{measured, inferred} {
		p := Point{Source: SourceModel, Mode: "locking", CPUs: 2, Par: 2, DurS: 1, Ops: 250, Throughput: 250, Unit: "lattes/s",
			Shop: &Shop{Machines: []Machine{}}, Model: Model{Sched: "go", Seed: 1, Calibration: &c}}
		var js, cs bytes.Buffer
		if err := WriteJSON(&js, []Point{p}); err != nil {
			t.Fatal(err)
		}
		if err := WriteCSV(&cs, []Point{p}); err != nil {
			t.Fatal(err)
		}
		fromJSON, err := ReadJSON(&js)
		if err != nil || len(fromJSON) != 1 || !reflect.DeepEqual(*fromJSON[0].Calibration, c) {
			t.Errorf("JSON round trip of %s: %v, %+v", c.For(), err, fromJSON)
		}
		fromCSV, err := ReadCSV(&cs)
		if err != nil || len(fromCSV) != 1 || !reflect.DeepEqual(*fromCSV[0].Calibration, c) {
			t.Errorf("CSV round trip of %s: %v, %+v", c.For(), err, fromCSV)
		}
	}
	// A calibration measured on a host writes what versions before the
	// inference fields wrote, so their files read the same.
	var js bytes.Buffer
	if err := WriteJSON(&js, []Point{{Source: SourceModel, Mode: "locking", CPUs: 1, Model: Model{Sched: "go", Calibration: &measured}}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"calibration":{"host":"vm","date":"2026-11-22T10:00:00Z","others_cpus":0,"costs":"wake 84µs"}`) {
		t.Errorf("a measured calibration's JSON is not as before the inference fields: %s", js.String())
	}
}
