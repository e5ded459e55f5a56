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
}
