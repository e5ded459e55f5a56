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
// point is made (Assess) — and a model point's row says so in words; a
// steady point within its bounds, and a measurement, say nothing. The
// trust survives JSON, and CSV gives it again from the fields it is read
// from.
func TestTrust(t *testing.T) {
	open := func(thr float64, b Bounds) Point {
		return Point{Source: SourceModel, Spec: Spec{Mode: "webserver", CPUs: 1, Load: Load{Par: 64, Rate: 2000, MaxQ: 1000, Dur: time.Second}},
			Ops: 1, Throughput: thr, Unit: "requests/s", Bounds: &b, Shop: &Shop{Machines: []Machine{}}}
	}
	steady := Bounds{CPU: 1666.6, ThroughputMax: 1666.6, Limit: "cpus", Arrived: 1990, Growth: -40}
	growing := steady
	growing.Growth = 480
	closed := Point{Source: SourceModel, Spec: Spec{Mode: "parsteam", CPUs: 1, Load: Load{Par: 4, Dur: time.Second}}, Ops: 1, Throughput: 255, Unit: "lattes/s",
		Latency: Latency{P50: 15.9}, Bounds: &Bounds{CPU: 250, ThroughputMax: 250, Limit: "cpus", Little: 1, LatencyMinMs: 16}, Shop: &Shop{Machines: []Machine{}}}
	wall := closed
	wall.Burn = "wall"
	measured := open(1700, steady)
	measured.Source = "vm"
	yes, no := true, false
	for _, c := range []struct {
		name   string
		p      Point
		steady *bool
		above  []Above
		want   []string // substrings of Notes, in order; none for no note
	}{
		{"steady, within bounds", open(1660, steady), &yes, nil, nil},
		{"queue grew", open(1500, growing), &no, nil, []string{"not steady: the queue grew by 480 over the window (24 % of its arrivals)"}},
		{"above the arrivals", open(2040, Bounds{CPU: 3333, ThroughputMax: 2000, Limit: "arrivals", Arrived: 2051}), &yes,
			[]Above{{BoundArrivals, WhyPoisson}}, []string{"above the arrival rate: 2051 a second arrived in this window"}},
		{"above the CPU bound, random steps", open(1690, steady), &yes, []Above{{BoundThroughput, WhyRandomSteps}},
			[]string{"above its bound (1666.6 cpus): the steps' random times came out below their means"}},
		{"above the CPU bound, wall steps", wall, &yes, []Above{{BoundThroughput, WhyWallClock}, {BoundLatency, WhyRandomSteps}},
			[]string{"above its bound (250.0 cpus): steps end on the clock (--burn wall)", "p50 below the latency bound (16.00 ms)"}},
		{"a measurement is not the model's", measured, nil, nil, nil},
	} {
		c.p.Assess()
		if !reflect.DeepEqual(c.p.Steady, c.steady) || !reflect.DeepEqual(c.p.Above, c.above) {
			t.Errorf("%s: steady %v, above %+v; want %v, %+v", c.name, c.p.Steady, c.p.Above, c.steady, c.above)
		}
		got := Notes(c.p)
		if len(c.want) == 0 && got != "" {
			t.Errorf("%s: notes %q, want none", c.name, got)
		}
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: notes %q, want %q", c.name, got, w)
			}
		}
	}

	points := []Point{open(1500, growing), open(1690, steady)}
	for i := range points {
		points[i].Assess()
	}
	var js, cs bytes.Buffer
	if err := WriteJSON(&js, points); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"trust":{"disturbed":false,"steady":true,"above":[{"bound":"throughput_max","why":"random_steps"}]}`) {
		t.Errorf("JSON's trust:\n%s", js.String())
	}
	if err := WriteCSV(&cs, points); err != nil {
		t.Fatal(err)
	}
	for name, read := range map[string]func() ([]Point, error){
		"JSON": func() ([]Point, error) { return ReadJSON(&js) },
		"CSV":  func() ([]Point, error) { return ReadCSV(&cs) },
	} {
		got, err := read()
		if err != nil || !reflect.DeepEqual(got, points) {
			t.Errorf("%s round trip: %v\n got %+v\nwant %+v", name, err, got, points)
		}
	}
}
