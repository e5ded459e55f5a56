package report

import (
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/results"
)

// bandedModel is a go-policy prediction of finelocking on 1–4 CPUs whose
// band is wide at 4 CPUs, with the calibration it used.
func bandedModel() []results.Point {
	cal := &results.Calibration{Host: "vm", Date: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC), Costs: []results.Cost{{Name: "wake", Median: 84 * time.Microsecond, Lo: 80 * time.Microsecond, Hi: 90 * time.Microsecond}}}
	var pts []results.Point
	for n := 1; n <= 4; n++ {
		thr := 250 * float64(n)
		p := results.Point{Source: results.SourceModel, Spec: results.Spec{Mode: "finelocking", CPUs: n, Load: results.Load{Par: n, Dur: time.Second}, Policy: results.Policy{Sched: "go"}}, Trust: results.Trust{Calibration: cal}, Band: &results.Band{Throughput: [2]float64{thr, thr}, P50Ms: [2]float64{4, 4}},
			Throughput: thr, Unit: "lattes/s", Latency: results.Latency{P50: 4}, Shop: &results.Shop{Machines: []results.Machine{}},
		}
		if n == 4 {
			p.Band = &results.Band{Throughput: [2]float64{880, 1000}, P50Ms: [2]float64{4, 4.5}}
		}
		pts = append(pts, p)
	}
	return pts
}

// TestBandShaded: a model series with a band gets a shaded, translucent
// area on the throughput and latency charts; the same points without
// bands get none.
func TestBandShaded(t *testing.T) {
	oneDrawing(t)
	t.Parallel()
	pts := bandedModel()
	for _, c := range drawAll(t, pts) {
		if c.Name != "throughput" && c.Name != "latency" {
			continue
		}
		if !strings.Contains(string(c.SVG), "fill-opacity") {
			t.Errorf("%s: no translucent band in the SVG", c.Name)
		}
	}
	for i := range pts {
		pts[i].Band = nil
	}
	for _, c := range drawAll(t, pts) {
		if strings.Contains(string(c.SVG), "fill-opacity") {
			t.Errorf("%s without bands: a translucent area in the SVG", c.Name)
		}
	}
}

// TestPageNamesCalibration: the page says which calibration the go
// policy's points used and what their band means.
func TestPageNamesCalibration(t *testing.T) {
	t.Parallel()
	r, err := build(t, bandedModel())
	if err != nil {
		t.Fatal(err)
	}
	var page string
	for _, f := range r.Files {
		if f.Name == Index {
			page = string(f.Data)
		}
	}
	for _, want := range []string{"for vm&#39;s runtime costs, measured 2026-11-22 10:00 UTC on a quiet machine (other processes used 0.00 CPUs): wake 84µs [80µs, 90µs]", "carry a band"} {
		if !strings.Contains(page, want) {
			t.Errorf("page has no %q", want)
		}
	}
}
