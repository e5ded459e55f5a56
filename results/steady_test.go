package results

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// TestBoundNotes: a model point's row says when its open loop's queue
// grew through the window, when its throughput passes the arrivals' rate
// or the CPU bound, and why; a steady point within its bounds says
// nothing. The fields the notes are read from survive JSON and CSV.
func TestBoundNotes(t *testing.T) {
	open := func(thr float64, b Bounds) Point {
		return Point{Source: SourceModel, Mode: "webserver", CPUs: 1, Par: 64, Rate: 2000, MaxQ: 1000, DurS: 1,
			Throughput: thr, Unit: "requests/s", Bounds: &b, Shop: &Shop{Machines: []Machine{}}}
	}
	steady := Bounds{CPU: 1666.6, ThroughputMax: 1666.6, Limit: "cpus", Arrived: 1990, Growth: -40}
	growing := steady
	growing.Growth = 480
	closed := Point{Source: SourceModel, Mode: "parsteam", CPUs: 1, Par: 4, DurS: 1, Throughput: 255, Unit: "lattes/s",
		Bounds: &Bounds{CPU: 250, ThroughputMax: 250, Limit: "cpus", Little: 1}, Shop: &Shop{Machines: []Machine{}}}
	wall := closed
	wall.Burn = "wall"
	measured := open(1700, steady)
	measured.Source = "vm"
	for _, c := range []struct {
		name string
		p    Point
		want []string // substrings of Notes, in order; none for no note
	}{
		{"steady, within bounds", open(1660, steady), nil},
		{"queue grew", open(1500, growing), []string{"not steady: the queue grew by 480 over the window (24 % of its arrivals)"}},
		{"above the arrivals", open(2040, Bounds{CPU: 3333, ThroughputMax: 2000, Limit: "arrivals", Arrived: 2051}),
			[]string{"above the arrival rate: 2051 a second arrived in this window"}},
		{"above the CPU bound, random steps", open(1690, steady), []string{"above its bound (1666.6 cpus): the steps' random times came out below their means"}},
		{"above the CPU bound, wall steps", wall, []string{"above its bound (250.0 cpus): steps end on the clock (--burn wall)"}},
		{"a measurement is not the model's", measured, nil},
	} {
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

	points := []Point{open(1500, growing), open(1660, steady)}
	var js, cs bytes.Buffer
	if err := WriteJSON(&js, points); err != nil {
		t.Fatal(err)
	}
	if err := WriteCSV(&cs, points); err != nil {
		t.Fatal(err)
	}
	for name, read := range map[string]func() ([]Point, error){
		"JSON": func() ([]Point, error) { return ReadJSON(&js) },
		"CSV":  func() ([]Point, error) { return ReadCSV(&cs) },
	} {
		got, err := read()
		if err != nil || len(got) != 2 || !reflect.DeepEqual(*got[0].Bounds, growing) || !reflect.DeepEqual(*got[1].Bounds, steady) {
			t.Errorf("%s round trip: %v, %+v", name, err, got)
		}
	}
}
