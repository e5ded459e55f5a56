package analysis

import (
	"strings"

	"github.com/brewput/brewput/results"
)

// Resource is one thing that may limit a point, and how much it was used.
type Resource struct {
	// Name is "cpus" or a shared resource's kind, as Bottleneck.Resource.
	Name   string
	Copies int
	// Utilization is the mean fraction of the time a copy was held,
	// Working the part its steps ran (0 where not said).
	Utilization, Working float64
	// MeanWaitMs is the mean wait to get it, per use; 0 for the CPUs.
	MeanWaitMs float64
	// Uses counts its copies' uses; WaitShare is the fraction of the
	// workers' time spent waiting for it.
	Uses      int64
	WaitShare float64
	// Meter is a user's meter's kind, "mutex"; "" for the shop's.
	Meter string
	// Bound is the throughput it allows, as Bottleneck.Bound.
	Bound float64
}

// Resources lists what may limit p: the CPUs, then each kind of its
// machines, with the bound each sets, the point's own or its use's.
func Resources(p results.Point) []Resource {
	util := p.Metrics[results.Util]
	cpus := Resource{Name: "cpus", Copies: p.CPUs, Utilization: util, Working: util}
	if p.Bounds != nil {
		cpus.Bound = p.Bounds.CPU
	}
	if cpus.Bound == 0 && util > 0 {
		cpus.Bound = p.Throughput / util
	}
	out := []Resource{cpus}
	index := map[string]int{}
	for _, m := range p.Machines() {
		kind := Kind(m.Name)
		i, ok := index[kind]
		if !ok {
			i, index[kind] = len(out), len(out)
			out = append(out, Resource{Name: kind})
		}
		r := &out[i]
		r.Copies++
		if m.Kind != "" {
			r.Meter = m.Kind
		}
		r.Utilization += m.BusyFrac
		r.Working += m.WorkingFrac
		r.MeanWaitMs += m.MeanWaitMs * float64(m.Uses)
		r.Uses += m.Uses
	}
	for i := 1; i < len(out); i++ {
		r := &out[i]
		r.Utilization /= float64(r.Copies)
		r.Working /= float64(r.Copies)
		if p.Par > 0 && p.Dur.Seconds() > 0 {
			r.WaitShare = r.MeanWaitMs / 1000 / (float64(p.Par) * p.Dur.Seconds())
		}
		if r.Uses > 0 {
			r.MeanWaitMs /= float64(r.Uses)
		}
		if p.Bounds != nil && Kind(p.Bounds.Resource) == r.Name {
			r.Bound = p.Bounds.Structural
		}
		if r.Bound == 0 && r.Utilization > 0 {
			r.Bound = p.Throughput / r.Utilization
		}
	}
	return out
}

// Kind is the kind of a resource from its name: the name without a copy's
// number ("grinder#2") or a pool's size ("grinder×2").
func Kind(name string) string {
	if i := strings.IndexAny(name, "#×"); i > 0 {
		return name[:i]
	}
	return name
}

// ParSeries returns the function giving the series against CPUs a point
// belongs to: group keys a point's series with one per CPU, withPar with a
// fixed Par. A point whose Par equals its CPUs ran with one per CPU unless
// its group also ran with that fixed Par elsewhere.
func ParSeries[K comparable](points []results.Point, group func(results.Point) K, withPar func(K, int) K) func(results.Point) []K {
	type fixedPar struct {
		group K
		par   int
	}
	fixed := map[fixedPar]bool{}
	for _, p := range points {
		if p.Par != p.CPUs {
			fixed[fixedPar{group(p), p.Par}] = true
		}
	}
	hasPerCPU := map[K]bool{}
	for _, p := range points {
		if p.Par == p.CPUs && !fixed[fixedPar{group(p), p.Par}] {
			hasPerCPU[group(p)] = true
		}
	}
	return func(p results.Point) []K {
		g := group(p)
		var out []K
		if p.Par != p.CPUs || fixed[fixedPar{g, p.Par}] {
			out = append(out, withPar(g, p.Par))
		}
		if p.Par == p.CPUs && hasPerCPU[g] {
			out = append(out, g)
		}
		return out
	}
}
