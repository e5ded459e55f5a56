package gobench

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// WatchTolerance is how far a benchmark's watched runs may differ from
// its plain ones before WatchCosts names it.
const WatchTolerance = 0.05

// WatchCost is a benchmark on a CPU count whose watched runs' median
// throughput differs from its unwatched runs' by more than WatchTolerance;
// Apart where watching, not chance, moved it (minApart runs each, all on
// one side, none disturbed).
type WatchCost struct {
	Name           string
	CPUs           int
	Watched, Plain float64 // median throughput
	Unit           string
	Runs           int // of each
	Apart          bool
}

// minApart is the fewest runs each whose ranges, apart, say watching
// moved a benchmark: with 3 each, chance puts them apart 1 time in 10.
const minApart = 3

// WatchCosts returns the benchmarks, on each CPU count, whose watched and
// unwatched runs differ by more than WatchTolerance, the most first.
func WatchCosts(watched, plain []results.Point) []WatchCost {
	type key struct {
		pkg, name string
		cpus      int
	}
	disturbed, units := map[key]bool{}, map[key]string{}
	runsOf := func(points []results.Point) map[key][]float64 {
		by := map[key][]float64{}
		for _, p := range points {
			if p.Bench == nil {
				continue
			}
			k := key{p.Bench.Pkg, p.Bench.Name, p.CPUs}
			by[k] = append(by[k], p.Throughput)
			disturbed[k] = disturbed[k] || p.IsDisturbed()
			units[k] = p.Unit
		}
		for _, v := range by {
			slices.Sort(v)
		}
		return by
	}
	median := func(v []float64) float64 { return (v[(len(v)-1)/2] + v[len(v)/2]) / 2 }
	pRuns, wRuns := runsOf(plain), runsOf(watched) // the watched runs' units last, which are said
	var out []WatchCost
	for k, wv := range wRuns {
		pv, ok := pRuns[k]
		if !ok {
			continue
		}
		wt, pt := median(wv), median(pv)
		if !(pt > 0) || !(wt > 0) {
			continue
		}
		if r := wt / pt; r < 1-WatchTolerance || r > 1+WatchTolerance {
			apart := wv[len(wv)-1] < pv[0] || wv[0] > pv[len(pv)-1]
			out = append(out, WatchCost{Name: k.name, CPUs: k.cpus, Watched: wt, Plain: pt, Unit: units[k], Runs: len(wv),
				Apart: apart && len(wv) >= minApart && len(pv) >= minApart && !disturbed[k]})
		}
	}
	slices.SortFunc(out, func(a, b WatchCost) int {
		return cmp.Or(cmp.Compare(math.Abs(b.Watched/b.Plain-1), math.Abs(a.Watched/a.Plain-1)), cmp.Compare(a.Name, b.Name), a.CPUs-b.CPUs)
	})
	return out
}

// String says it in a line.
func (c WatchCost) String() string {
	return text.WatchCost(c.Name, c.CPUs, c.Watched, c.Plain, c.Unit, c.Runs)
}

// WriteWatchCosts says which benchmarks watching moved; of those whose
// medians alone differ, which chance may explain, only how many.
func WriteWatchCosts(w io.Writer, costs []WatchCost) {
	moved := slices.DeleteFunc(slices.Clone(costs), func(c WatchCost) bool { return !c.Apart })
	width := format.Width(w)
	if len(moved) > 0 {
		fmt.Fprintln(w, format.Wrap(text.WatchMoved(len(moved), WatchTolerance), width, ""))
		for _, c := range moved {
			fmt.Fprintln(w, "  "+format.Wrap(c.String(), width-2, "    "))
		}
	}
	if unsure := len(costs) - len(moved); unsure > 0 {
		fmt.Fprintln(w, format.Wrap(text.WatchUnsure(unsure, len(moved) > 0, WatchTolerance, minApart), width, ""))
	}
}
