package gobench

import (
	"strings"
	"testing"

	"github.com/brewput/brewput/results"
)

// TestWatchCosts: a benchmark whose watched median differs from its plain
// one by more than 5 % is named, the largest change first; one within
// 5 %, or without plain runs, is not.
func TestWatchCosts(t *testing.T) {
	pt := func(name string, cpus int, tput float64) results.Point {
		return results.Point{Spec: results.Spec{CPUs: cpus}, Throughput: tput, Unit: "ops/s",
			Bench: &results.Benchmark{Pkg: "p", Name: name}}
	}
	watched := []results.Point{pt("A", 1, 90), pt("A", 1, 91), pt("A", 1, 50), pt("B", 2, 98), pt("C", 1, 70), pt("D", 1, 10)}
	plain := []results.Point{pt("A", 1, 100), pt("A", 1, 101), pt("A", 1, 99), pt("B", 2, 100), pt("C", 1, 100)}
	costs := WatchCosts(watched, plain)
	if len(costs) != 2 || costs[0].Name != "C" || costs[1].Name != "A" || costs[1].Watched != 90 || costs[1].Plain != 100 || costs[1].Runs != 3 {
		t.Fatalf("costs %+v, want C (−30 %%) then A (−10 %%)", costs)
	}
	if s := costs[1].String(); !strings.Contains(s, "A on 1 CPU: 90 ops/s watched, 100 ops/s plain (-10 %, medians of 3 runs each)") {
		t.Errorf("line %q", s)
	}
	// A's three watched runs all below its three plain ones: watching
	// moved it; C's one run each may be chance.
	if !costs[1].Apart || costs[0].Apart {
		t.Errorf("apart: C %v, A %v; want A alone", costs[0].Apart, costs[1].Apart)
	}
}

// Benchmarks whose watched and plain runs overlap, or were disturbed,
// are not said to be changed by watching: a busy machine moves the
// medians of runs taken one after the other by more than 5 %.
func TestWatchCostsChance(t *testing.T) {
	pt := func(tput float64, disturbed bool) results.Point {
		return results.Point{Spec: results.Spec{CPUs: 2}, Throughput: tput, Unit: "ops/s", Trust: results.Trust{Disturbed: disturbed},
			Bench: &results.Benchmark{Pkg: "p", Name: "A"}}
	}
	for _, c := range []struct {
		name           string
		watched, plain []results.Point
		apart          bool
	}{
		{"apart", []results.Point{pt(80, false), pt(85, false), pt(90, false)}, []results.Point{pt(95, false), pt(100, false), pt(105, false)}, true},
		{"overlap", []results.Point{pt(80, false), pt(85, false), pt(100, false)}, []results.Point{pt(95, false), pt(100, false), pt(105, false)}, false},
		{"disturbed", []results.Point{pt(80, false), pt(85, true), pt(90, false)}, []results.Point{pt(95, false), pt(100, false), pt(105, false)}, false},
	} {
		costs := WatchCosts(c.watched, c.plain)
		if len(costs) != 1 || costs[0].Apart != c.apart {
			t.Fatalf("%s: %+v; want one, apart %v", c.name, costs, c.apart)
		}
		var b strings.Builder
		WriteWatchCosts(&b, costs)
		if got := strings.HasPrefix(b.String(), "Watching the locks changed 1 benchmark"); got != c.apart {
			t.Errorf("%s: said changed %v:\n%s", c.name, got, b.String())
		}
		// What chance explains is counted, not listed.
		if unsure := strings.HasPrefix(b.String(), "Watched and unwatched medians differ by more than 5 % in 1 benchmark,"); unsure == c.apart || c.apart != strings.Contains(b.String(), "A on 2 CPUs") {
			t.Errorf("%s:\n%s", c.name, b.String())
		}
	}
}
