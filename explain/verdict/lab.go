package verdict

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// Labs answers each lab among points, in the order the labs first come.
func Labs(points []results.Point) []analysis.LabAnswer {
	names, by := collect.GroupBy(points, func(p results.Point) (string, bool) { return p.LabName(), p.Kind == results.KindLab })
	return collect.Mapped(names, func(n string) analysis.LabAnswer { return Lab(n, by[n]) })
}

// Lab answers the points of the lab named name, the most CPUs first.
func Lab(name string, points []results.Point) analysis.LabAnswer {
	a := analysis.LabAnswer{Lab: name}
	var first []results.Point // the first repetition of each run
	for _, p := range points {
		if p.LabName() != name || p.Rep > 1 {
			continue
		}
		first = append(first, p)
		a.Origins = collect.AppendNew(a.Origins, p.Origin())
		a.CPUs = collect.AppendNew(a.CPUs, p.CPUs)
	}
	// A variant measured at several loads on a CPU count is named with its load.
	loads := map[string]int{}
	for _, p := range first {
		loads[fmt.Sprint(p.Variant(), p.CPUs)]++
	}
	for _, p := range first {
		if !p.IsDisturbed() {
			continue
		}
		a.Disturbed++
		name := p.Variant()
		if loads[fmt.Sprint(p.Variant(), p.CPUs)] > 1 {
			name += fmt.Sprintf(" (par %d)", p.Par)
		}
		a.DisturbedPoints = append(a.DisturbedPoints, name+" on "+format.Count(p.CPUs, "CPU"))
	}
	a.Points = len(first)
	slices.Sort(a.CPUs)
	counts := countsOfInterest(a.CPUs)
	for i := len(counts) - 1; i >= 0; i-- {
		a.Counts = append(a.Counts, labCount(first, counts[i])...)
	}
	return a
}

// labCount is what CPU count n shows, per unit.
func labCount(points []results.Point, n int) []analysis.LabCount {
	units, byUnit := collect.GroupBy(points, func(p results.Point) (string, bool) { return p.Unit, p.CPUs == n && p.Throughput > 0 })
	var out []analysis.LabCount
	for _, u := range units {
		ps := byUnit[u]
		loads := map[string]int{}
		for _, p := range ps {
			loads[p.Variant()]++
		}
		named := func(p results.Point) analysis.LabPoint {
			lp := analysis.LabPoint{Variant: p.Variant(), Disturbed: p.IsDisturbed(), Throughput: p.Throughput, Unit: p.Unit,
				P50: p.Latency.P50, CPUUsed: p.Metrics[results.CPUUsed]}
			if loads[p.Variant()] > 1 {
				lp.Par = p.Par
			}
			return lp
		}
		// A disturbed point is never ranked, the rest among themselves.
		var quiet []results.Point
		c := analysis.LabCount{CPUs: n, Single: len(ps) == 1}
		for _, p := range ps {
			if p.IsDisturbed() {
				c.Disturbed = append(c.Disturbed, named(p))
				continue
			}
			quiet = append(quiet, p)
		}
		if len(quiet) > 0 {
			hi := slices.MaxFunc(quiet, func(a, b results.Point) int { return cmp.Compare(a.Throughput, b.Throughput) })
			lo := slices.MinFunc(quiet, func(a, b results.Point) int { return cmp.Compare(a.Throughput, b.Throughput) })
			c.Most, c.Least = named(hi), named(lo)
		}
		c.Ranked = len(quiet)
		if len(units) > 1 {
			c.Unit = u
		}
		out = append(out, c)
	}
	return out
}
