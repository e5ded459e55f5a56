package results

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestTrust: a prediction's trust says when its open loop's queue grew
// through the window, and which bound its throughput (or median latency)
// passes and why — the bound named, the reason typed, filled where the
// point is made (Assess; report/text's AboveText says it); a steady point
// within its bounds, and a measurement, have none. The
// trust survives JSON, and CSV gives it again from the fields it is read
// from.
func TestTrust(t *testing.T) {
	open := func(thr float64, b Bounds) Point {
		return Point{Source: SourceModel, Spec: Spec{Mode: "webserver", CPUs: 1, Load: Load{Par: 64, Rate: 2000, MaxQ: 1000, Dur: time.Second}},
			Ops: 1, Throughput: thr, Unit: "requests/s", Bounds: &b, Shop: &Shop{Machines: []Machine{}}}
	}
	steady := Bounds{CPU: 1666.6, ThroughputMax: 1666.6, SetBy: "cpus", Arrived: 1990, Growth: -40}
	growing := steady
	growing.Growth = 480
	closed := Point{Source: SourceModel, Spec: Spec{Mode: "parsteam", CPUs: 1, Load: Load{Par: 4, Dur: time.Second}}, Ops: 1, Throughput: 255, Unit: "lattes/s",
		Latency: Latency{P50: 15.9}, Bounds: &Bounds{CPU: 250, ThroughputMax: 250, SetBy: "cpus", Little: 1, LatencyMinMs: 16}, Shop: &Shop{Machines: []Machine{}}}
	wall := closed
	wall.Burn = "wall"
	measured := open(1700, steady)
	measured.Source = "vm"
	backlog := open(2040, steady)
	backlog.Source = "vm"
	// 334 in a 1 s window under a bound of 333.3 a second: the window's
	// edge, one operation of the two customers'.
	edge := Point{Source: SourceModel, Spec: Spec{Mode: "bakery", CPUs: 2, Load: Load{Par: 2, Dur: time.Second}}, Ops: 334, Throughput: 334, Unit: "loaves/s",
		Latency: Latency{Min: 6, P05: 6, P50: 6}, Bounds: &Bounds{CPU: 500, ThroughputMax: 1000.0 / 3, SetBy: "oven", Little: 1, LatencyMinMs: 6}, Shop: &Shop{Machines: []Machine{}}}
	banded := edge
	banded.Throughput, banded.Band = 333, &Band{Throughput: [2]float64{330, 336}}
	// parsteam on 1 CPU, steps on the clock: steam and grind overlap on
	// the one CPU and end on time, 3.15 ms a latte under a 4 ms bound.
	overlap := closed
	overlap.Burn, overlap.Throughput = "wall", 250
	overlap.Latency = Latency{Min: 3.15, P05: 3.15, P25: 4, P50: 4, Mean: 3.9, P75: 4, P95: 4, P99: 4}
	overlap.Bounds = &Bounds{CPU: 250, ThroughputMax: 250, SetBy: "cpus", Little: 1, LatencyMinMs: 4}
	yes, no := true, false
	for _, c := range []struct {
		name   string
		p      Point
		steady *bool
		above  []Above
	}{
		{"steady, within bounds", open(1660, steady), &yes, nil},
		{"queue grew", open(1500, growing), &no, nil}, // said by report/text's Notes
		{"above the arrivals", open(2040, Bounds{CPU: 3333, ThroughputMax: 2000, SetBy: "arrivals", Arrived: 2051}), &yes,
			[]Above{{BoundArrivals, WhyPoisson, "throughput"}}},
		{"above the CPU bound, random steps", open(1690, steady), &yes, []Above{{BoundThroughput, WhyRandomSteps, "throughput"}}},
		{"above the CPU bound, wall steps", wall, &yes, []Above{{BoundThroughput, WhyWallClock, "throughput"}, {BoundLatency, WhyWallClock, "p50"}}},
		{"a window's edge", edge, &yes, []Above{{BoundThroughput, WhyWindowEdge, "throughput"}}},
		{"the band's high edge", banded, &yes, []Above{{BoundThroughput, WhyRandomSteps, "band"}}},
		{"latencies below the least", overlap, &yes, []Above{{BoundLatency, WhyWallClock, "min, p05, mean"}}},
		{"a measurement is not the model's", measured, nil, nil},
		{"a measurement above its arrival rate", backlog, nil, []Above{{BoundArrivals, WhyBacklog, "throughput"}}},
	} {
		c.p.Assess()
		if !reflect.DeepEqual(c.p.Steady, c.steady) || !reflect.DeepEqual(c.p.Above, c.above) {
			t.Errorf("%s: steady %v, above %+v; want %v, %+v", c.name, c.p.Steady, c.p.Above, c.steady, c.above)
		}
	}

	points := []Point{open(1500, growing), open(1690, steady)}
	for i := range points {
		points[i].Assess()
	}
	var js bytes.Buffer
	if err := WriteJSON(&js, points); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"trust":{"disturbed":false,"steady":true,"above":[{"bound":"throughput_max","why":"random_steps","of":"throughput"}]}`) {
		t.Errorf("JSON's trust:\n%s", js.String())
	}
	if got, err := ReadJSON(&js); err != nil || !reflect.DeepEqual(got, points) {
		t.Errorf("JSON round trip: %v\n got %+v\nwant %+v", err, got, points)
	}
}

// TestDisturbsOwnCPUs: of a point's own CPUs read apart, others may take
// DisturbedCPUs and no more; of the machine's, those the point left free
// as well; a point marked disturbed stays so.
func TestDisturbsOwnCPUs(t *testing.T) {
	pinned := Point{Spec: Spec{CPUs: 1}, Host: Host{Cores: 2}, Trust: Trust{OthersCPUs: 0.5, OnCPUs: &OnCPUs{CPUs: 1, OthersCPUs: 0.5}}}
	if !pinned.IsDisturbed() {
		t.Errorf("others took half of a pinned point's CPU: not disturbed")
	}
	beside := Point{Spec: Spec{CPUs: 1}, Host: Host{Cores: 2}, Trust: Trust{OthersCPUs: 1, OnCPUs: &OnCPUs{CPUs: 1, OthersCPUs: DisturbedCPUs}}}
	if beside.IsDisturbed() {
		t.Errorf("a neighbour on the CPU the point left free, %.1f of its own: disturbed", DisturbedCPUs)
	}
	unread := Point{Spec: Spec{CPUs: 1}, Host: Host{Cores: 2}, Trust: Trust{OthersCPUs: 1.25}}
	if !unread.IsDisturbed() {
		t.Errorf("own CPUs unread, others 1.25 of 2 beside 1: not disturbed")
	}
	if (Point{Trust: Trust{Disturbed: true}}).IsDisturbed() != true {
		t.Errorf("a point marked disturbed is not")
	}
}

// Runs too disturbed to stand on: every one, or all but one of several;
// one run alone stands where it was not disturbed.
func TestTooDisturbed(t *testing.T) {
	quiet, busy := Point{}, Point{Trust: Trust{Disturbed: true}}
	for _, c := range []struct {
		runs      []Point
		disturbed int
		too       bool
	}{
		{[]Point{quiet}, 0, false},
		{[]Point{busy}, 1, true},
		{[]Point{quiet, busy, busy}, 2, true},
		{[]Point{quiet, quiet, busy}, 1, false},
	} {
		if d, too := TooDisturbed(c.runs); d != c.disturbed || too != c.too {
			t.Errorf("%d runs: %d disturbed, too %v; want %d, %v", len(c.runs), d, too, c.disturbed, c.too)
		}
	}
}
