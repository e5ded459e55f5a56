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
	// Utilization is the fraction of the time it was held (for the
	// CPUs, used), the mean over its copies; Working the fraction its
	// steps were really running (0 where a file does not say).
	Utilization, Working float64
	// MeanWaitMs is the mean wait to get it, per use; 0 for the CPUs.
	MeanWaitMs float64
	// Uses counts the uses of all its copies over the window; WaitShare
	// is the fraction of the workers' time (the point's Par over its
	// window) that callers spent waiting for it.
	Uses      int64
	WaitShare float64
	// Meter is the kind of a user's metered resource (package meter:
	// "mutex", "rwmutex", "chan send", "chan receive"), empty for the
	// shop's machines and the CPUs.
	Meter string
	// Bound is the throughput it allows, as Bottleneck.Bound.
	Bound float64
}

// Resources lists what may limit p as measured or simulated: the CPUs first,
// then each kind of shared resource among p's machines (a study's
// meters), copies of a kind ("grinder#1", "grinder#2") one pool, with the
// bound each sets: the point's own where it says one, what its use
// implies otherwise.
func Resources(p results.Point) []Resource {
	cpus := Resource{Name: "cpus", Copies: p.CPUs, Utilization: p.Util, Working: p.Util}
	if p.Bounds != nil {
		cpus.Bound = p.Bounds.CPU
	}
	if cpus.Bound == 0 && p.Util > 0 {
		cpus.Bound = p.Throughput / p.Util
	}
	out := []Resource{cpus}
	index := map[string]int{}
	for _, m := range p.Machines() {
		kind := Kind(m.Name)
		i, ok := index[kind]
		if !ok {
			i = len(out)
			index[kind] = i
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
// belongs to, keyed by K: group is the key of a point's series with its
// load's Par undecided (one per CPU), withPar that key with a fixed Par.
// A point whose Par differs from its CPUs ran with that many customers or
// servers whatever the CPUs; one whose Par equals its CPUs ran with one
// per CPU (--par 0, the default) unless its mode, source and rate were
// also run with that fixed Par at other CPU counts. Keying every point by
// Par would cut a default sweep into one point per CPU count. A point
// that fits both, Par P on P CPUs in both sweeps, belongs to both series.
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
