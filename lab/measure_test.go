package lab

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/measure/harness"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/results"
)

// Shares add up to the total, each the even share or one more, the
// larger ones first.
func TestShare(t *testing.T) {
	for _, tc := range []struct{ total, parts int }{{10, 3}, {32, 32}, {1000, 7}, {5, 1}, {2, 5}, {100, 1}, {5003, 17}} {
		sum, prev := 0, tc.total
		for i := range tc.parts {
			n := Share(tc.total, tc.parts, i)
			if d := n - tc.total/tc.parts; d < 0 || d > 1 || n > prev {
				t.Errorf("%d among %d: part %d takes %d", tc.total, tc.parts, i, n)
			}
			sum, prev = sum+n, n
		}
		if sum != tc.total {
			t.Errorf("%d among %d: %d in all", tc.total, tc.parts, sum)
		}
	}
}

// Parts are contiguous, in order, cover the items, and are Share long.
func TestPart(t *testing.T) {
	for _, tc := range []struct{ n, parts int }{{10, 3}, {32, 32}, {1000, 7}, {5, 1}, {2, 5}, {5003, 17}} {
		next := 0
		for i := range tc.parts {
			lo, hi := Part(tc.n, tc.parts, i)
			if lo != next || hi-lo != Share(tc.n, tc.parts, i) {
				t.Errorf("%d among %d: part %d is [%d, %d), want from %d, %d long", tc.n, tc.parts, i, lo, hi, next, Share(tc.n, tc.parts, i))
			}
			next = hi
		}
		if next != tc.n {
			t.Errorf("%d among %d: parts end at %d", tc.n, tc.parts, next)
		}
	}
}

// Turns runs the variants in turn, rep after rep, and stops at the first
// error or once ctx is done.
func TestTurns(t *testing.T) {
	var order []string
	err := Turns(context.Background(), 2, 3, func(rep, i int) error {
		order = append(order, fmt.Sprintf("%d.%d", rep, i))
		return nil
	})
	if err != nil || strings.Join(order, " ") != "0.0 0.1 0.2 1.0 1.1 1.2" {
		t.Errorf("Turns: %v, order %v", err, order)
	}
	bad := errors.New("wrong answer")
	runs := 0
	if err := Turns(context.Background(), 2, 3, func(rep, i int) error { runs++; return map[bool]error{true: bad}[i == 1] }); err != bad || runs != 2 {
		t.Errorf("Turns with a failure: %v after %d runs", err, runs)
	}
	ctx, cancel := context.WithCancel(context.Background())
	runs = 0
	if err := Turns(ctx, 2, 3, func(int, int) error { runs++; cancel(); return nil }); !errors.Is(err, context.Canceled) || runs != 1 {
		t.Errorf("Turns cancelled: %v after %d runs", err, runs)
	}
}

// A Timing's point takes its throughput, duration, CPUs and latencies
// from the timing; a Runs' point from its median run.
func TestTimingAndRunsPoints(t *testing.T) {
	ms := time.Millisecond
	h := NewHist(time.Second)
	for _, d := range []int64{0, int64(2 * ms), int64(time.Hour)} {
		Record(h, d) // held within 1 ns to a second
	}
	start := time.Now()
	p, err := Timing{Window: sweep.Window{Start: start, Wall: 2 * time.Second, Usage: harness.Usage{CPU: time.Second}}, Par: 3, Ops: 100, Hist: h}.Point("t", "v", 2, "ops/s", nil)
	if err != nil || p.Throughput != 50 || p.Dur.Seconds() != 2 || p.Metrics[results.CPUUsed] != 0.5 || p.Metrics[results.Util] != 0.25 || p.Par != 3 || p.Ops != 100 || p.Unit != "ops/s" ||
		p.Latency.Max < 999 || p.Latency.Min > 1e-5 || p.Hist == "" || p.Mode != "t/v" {
		t.Errorf("Timing.Point: %v, %+v", err, p)
	}
	var r Runs
	for _, d := range []time.Duration{4 * ms, 1 * ms, 3 * ms} {
		r.Add(sweep.Window{Start: start, Wall: d, Usage: harness.Usage{CPU: d}})
	}
	p = r.Point("t", "w", 1, 2, 30, "ints/s", nil)
	if p.Dur.Seconds() != 0.003 || p.Throughput != 10_000 || p.Latency.P50 != 3 || p.Metrics[results.CPUUsed] != 1 || p.Par != 2 || p.Ops != 30 || p.Unit != "ints/s" {
		t.Errorf("Runs.Point: %+v", p)
	}
	if p := (Runs{Times: []time.Duration{0}}).Point("t", "w", 1, 1, 30, "ints/s", nil); p.Throughput != 0 {
		t.Errorf("a run too short to time: throughput %v", p.Throughput)
	}
}

// Median picks the run of median rate, the faster of the middle two, and
// gives it the first run's start.
func TestMedian(t *testing.T) {
	start := time.Now()
	var runs []sweep.Window
	for i, wall := range []time.Duration{4, 1, 3, 2} {
		runs = append(runs, sweep.Window{Start: start.Add(time.Duration(i) * time.Second), Wall: wall * time.Second})
	}
	med, w, rates := Median(runs, func(w sweep.Window) sweep.Window { return w }, func(w sweep.Window) float64 { return 1 / w.Wall.Seconds() })
	if med.Wall != 2*time.Second || w.Wall != med.Wall || !w.Start.Equal(start) || len(rates) != 4 || rates[0] != 0.25 {
		t.Errorf("median %v, window %+v, rates %v", med.Wall, w, rates)
	}
}

// Tell tells progress, or no one.
func TestTell(t *testing.T) {
	var got results.LabEvent
	Tell(func(ev results.LabEvent) { got = ev })(results.LabEvent{Profiled: &results.LabProfiled{CPUs: 2}})
	Tell(nil)(results.LabEvent{})
	if got.Profiled == nil || got.Profiled.CPUs != 2 {
		t.Errorf("told %+v", got)
	}
}

// TestInterval: paired runs give their ratios run by run; six of them an
// interval around their median, which Set and Text carry; fewer, none.
func TestInterval(t *testing.T) {
	ms := func(ds ...int) Runs {
		var r Runs
		for _, d := range ds {
			r.Times = append(r.Times, time.Duration(d)*time.Millisecond)
		}
		return r
	}
	ratios := Ratios(ms(20, 30, 40, 50, 60, 70, 80), ms(10, 10, 20, 0, 20, 35, 40))
	if want := []float64{2, 3, 2, 3, 2, 2}; !slices.Equal(ratios, want) { // the run of 0 ms left out
		t.Fatalf("ratios %v, want %v", ratios, want)
	}
	iv := IntervalOf(ratios)
	if !iv.Bounded() || iv.Median != 2 || iv.Lo != 2 || iv.Hi != 3 || iv.N != 6 {
		t.Errorf("interval %+v, want 2 [2, 3] of 6", iv)
	}
	var p results.Point
	iv.Set(&p, "speedup")
	if m := p.Metrics; m["speedup"] != 2 || m["speedup_lo"] != 2 || m["speedup_hi"] != 3 {
		t.Errorf("metrics %v", p.Metrics)
	}
	short := IntervalOf(ratios[:5])
	p = results.Point{}
	short.Set(&p, "speedup")
	if short.Bounded() || len(p.Metrics) != 1 {
		t.Errorf("5 runs: %+v, metrics %v", short, p.Metrics)
	}
}
