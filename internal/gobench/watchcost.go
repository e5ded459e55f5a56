package gobench

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/results"
)

// WatchTolerance is how far a benchmark's watched runs may differ from
// its plain ones before WatchCosts names it.
const WatchTolerance = 0.05

// WatchCost is a benchmark on a CPU count whose watched runs' median
// throughput differs from its unwatched runs' by more than WatchTolerance.
type WatchCost struct {
	Name           string
	CPUs           int
	Watched, Plain float64 // median throughput
	Unit           string
	Runs           int // of each
}

// WatchCosts compares each benchmark's watched points with its unwatched
// ones, CPU count by CPU count, and returns those that differ by more than
// WatchTolerance, the most first.
func WatchCosts(watched, plain []results.Point) []WatchCost {
	type key struct {
		pkg, name string
		cpus      int
	}
	medians := func(points []results.Point) (map[key]float64, map[key]int) {
		by := map[key][]float64{}
		for _, p := range points {
			if p.Bench == nil {
				continue
			}
			k := key{p.Bench.Pkg, p.Bench.Name, p.CPUs}
			by[k] = append(by[k], p.Throughput)
		}
		out, n := map[key]float64{}, map[key]int{}
		for k, v := range by {
			slices.Sort(v)
			out[k], n[k] = (v[(len(v)-1)/2]+v[len(v)/2])/2, len(v)
		}
		return out, n
	}
	w, runs := medians(watched)
	p, _ := medians(plain)
	units := map[key]string{}
	for _, pt := range watched {
		if pt.Bench != nil {
			units[key{pt.Bench.Pkg, pt.Bench.Name, pt.CPUs}] = pt.Unit
		}
	}
	var out []WatchCost
	for k, wt := range w {
		pt, ok := p[k]
		if !ok || !(pt > 0) || !(wt > 0) {
			continue
		}
		if r := wt / pt; r < 1-WatchTolerance || r > 1+WatchTolerance {
			out = append(out, WatchCost{Name: k.name, CPUs: k.cpus, Watched: wt, Plain: pt, Unit: units[k], Runs: runs[k]})
		}
	}
	slices.SortFunc(out, func(a, b WatchCost) int {
		return cmp.Or(cmp.Compare(b.change()*b.change(), a.change()*a.change()), cmp.Compare(a.Name, b.Name), a.CPUs-b.CPUs)
	})
	return out
}

// change is the watched runs' throughput against the plain ones', −0.12
// for 12 % less.
func (c WatchCost) change() float64 { return c.Watched/c.Plain - 1 }

// String says it in a line.
func (c WatchCost) String() string {
	return fmt.Sprintf("%s on %s: %s watched, %s plain (%+.0f %%, medians of %s each)",
		c.Name, format.Count(c.CPUs, "CPU"), format.Rate(c.Watched, c.Unit), format.Rate(c.Plain, c.Unit), 100*c.change(), format.Count(c.Runs, "run"))
}
