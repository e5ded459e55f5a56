package text

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/results"
)

// TestAboveText: each number of a point past a bound is said with its
// figures, its reason and what it means for the reader.
func TestAboveText(t *testing.T) {
	open := func(thr float64, b results.Bounds) results.Point {
		return results.Point{Source: results.SourceModel, Spec: results.Spec{Mode: "webserver", CPUs: 1, Load: results.Load{Par: 64, Rate: 2000, MaxQ: 1000, Dur: time.Second}},
			Ops: 1, Throughput: thr, Unit: "requests/s", Bounds: &b, Shop: &results.Shop{Machines: []results.Machine{}}}
	}
	steady := results.Bounds{CPU: 1666.6, ThroughputMax: 1666.6, SetBy: "cpus", Arrived: 1990, Growth: -40}
	growing := steady
	growing.Growth = 480
	closed := results.Point{Source: results.SourceModel, Spec: results.Spec{Mode: "parsteam", CPUs: 1, Load: results.Load{Par: 4, Dur: time.Second}}, Ops: 1, Throughput: 255, Unit: "lattes/s",
		Latency: results.Latency{P50: 15.9}, Bounds: &results.Bounds{CPU: 250, ThroughputMax: 250, SetBy: "cpus", Little: 1, LatencyMinMs: 16}, Shop: &results.Shop{Machines: []results.Machine{}}}
	wall := closed
	wall.Burn = "wall"
	measured := open(1700, steady)
	measured.Source = "vm"
	backlog := open(2040, steady)
	backlog.Source = "vm"
	// 334 in a 1 s window under a bound of 333.3 a second: the window's
	// edge, one operation of the two customers'.
	edge := results.Point{Source: results.SourceModel, Spec: results.Spec{Mode: "bakery", CPUs: 2, Load: results.Load{Par: 2, Dur: time.Second}}, Ops: 334, Throughput: 334, Unit: "loaves/s",
		Latency: results.Latency{Min: 6, P05: 6, P50: 6}, Bounds: &results.Bounds{CPU: 500, ThroughputMax: 1000.0 / 3, SetBy: "oven", Little: 1, LatencyMinMs: 6}, Shop: &results.Shop{Machines: []results.Machine{}}}
	banded := edge
	banded.Throughput, banded.Band = 333, &results.Band{Throughput: [2]float64{330, 336}}
	// parsteam on 1 CPU, steps on the clock: steam and grind overlap on
	// the one CPU and end on time, 3.15 ms a latte under a 4 ms bound.
	overlap := closed
	overlap.Burn, overlap.Throughput = "wall", 250
	overlap.Latency = results.Latency{Min: 3.15, P05: 3.15, P25: 4, P50: 4, Mean: 3.9, P75: 4, P95: 4, P99: 4}
	overlap.Bounds = &results.Bounds{CPU: 250, ThroughputMax: 250, SetBy: "cpus", Little: 1, LatencyMinMs: 4}
	for _, c := range []struct {
		name  string
		p     results.Point
		above []results.Above
		want  []string // substrings of the Above's words; none for none
	}{
		{"steady, within bounds", open(1660, steady), nil, nil},
		{"queue grew", open(1500, growing), nil, nil}, // said by report/text's Notes
		{"above the arrivals", open(2040, results.Bounds{CPU: 3333, ThroughputMax: 2000, SetBy: "arrivals", Arrived: 2051}),
			[]results.Above{{Bound: results.BoundArrivals, Why: results.WhyPoisson, Of: "throughput"}}, []string{"2040.0 a second above the arrival rate 2000: arrivals are random (Poisson), 2051 a second arrived in this window"}},
		{"above the CPU bound, random steps", open(1690, steady), []results.Above{{Bound: results.BoundThroughput, Why: results.WhyRandomSteps, Of: "throughput"}},
			[]string{"1690 above its ceiling 1667 (cpus) by 1.4 %: the steps' random times came out below their means"}},
		{"above the CPU bound, wall steps", wall, []results.Above{{Bound: results.BoundThroughput, Why: results.WhyWallClock, Of: "throughput"}, {Bound: results.BoundLatency, Why: results.WhyWallClock, Of: "p50"}},
			[]string{"255 above its ceiling 250 (cpus) by 2 %: steps end on the clock (--burn wall)", "p50 below the latency bound (16.00 ms)"}},
		{"a window's edge", edge, []results.Above{{Bound: results.BoundThroughput, Why: results.WhyWindowEdge, Of: "throughput"}},
			[]string{"334 above its ceiling 333.3 (oven) by 0.2 %: the window's edge: what was under way when it opened ended inside it, counted whole; so take the ceiling, not this figure, as the most the design makes"}},
		{"the band's high edge", banded, []results.Above{{Bound: results.BoundThroughput, Why: results.WhyRandomSteps, Of: "band"}},
			[]string{"its band's high edge: 336 above its ceiling 333.3 (oven) by 0.8 %"}},
		{"latencies below the least", overlap, []results.Above{{Bound: results.BoundLatency, Why: results.WhyWallClock, Of: "min, p05, mean"}},
			[]string{"min, p05 and mean below the latency bound (4.00 ms): steps end on the clock", "; so take the bound as the least an operation takes whose steps run their full times"}},
		{"a measurement is not the model's", measured, nil, nil},
		{"a measurement above its arrival rate", backlog, []results.Above{{Bound: results.BoundArrivals, Why: results.WhyBacklog, Of: "throughput"}},
			[]string{"2040.0 a second above the arrival rate 2000: orders that arrived before the window were served in it; so over time it serves no more than arrive"}},
	} {
		c.p.Assess()
		var texts []string
		for _, a := range c.p.Above {
			texts = append(texts, AboveText(c.p, a))
		}
		if !reflect.DeepEqual(c.p.Above, c.above) {
			t.Errorf("%s: above %+v, want %+v", c.name, c.p.Above, c.above)
		}
		got := strings.Join(texts, "; ")
		if len(c.want) == 0 && got != "" {
			t.Errorf("%s: notes %q, want none", c.name, got)
		}
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: notes %q, want %q", c.name, got, w)
			}
		}
	}
}
