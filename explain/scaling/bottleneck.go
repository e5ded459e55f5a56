package scaling

import (
	"slices"
	"strings"

	"github.com/brewput/brewput/model"
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

// Resources lists what may limit p, the CPUs first and then each kind of
// shared resource p's mode holds (ideal's machines are used by many at
// once, and limit nothing), with their use and the bounds they set; copies
// of a kind ("grinder#1", "grinder#2") are one pool.
func Resources(p results.Point) []Resource {
	st, known := structureOf(p)
	cpus := Resource{Name: "cpus", Copies: p.CPUs, Utilization: p.Util, Working: p.Util}
	if known && st.CPU > 0 {
		cpus.Bound = float64(p.CPUs) / st.CPU
	} else if p.Bounds != nil {
		cpus.Bound = p.Bounds.CPU
	}
	if cpus.Bound == 0 && p.Util > 0 {
		cpus.Bound = p.Throughput / p.Util
	}
	out := []Resource{cpus}
	index := map[string]int{}
	var uses []int64
	var machines []results.Machine
	if p.Shop != nil {
		machines = p.Machines
	}
	for _, m := range machines {
		kind := Kind(m.Name)
		if known && !slices.ContainsFunc(st.Resources, func(r model.Resource) bool { return Kind(r.Name) == kind }) {
			continue
		}
		i, ok := index[kind]
		if !ok {
			i = len(out)
			index[kind] = i
			out = append(out, Resource{Name: kind})
			uses = append(uses, 0)
		}
		r := &out[i]
		r.Copies++
		if m.Kind != "" {
			r.Meter = m.Kind
		}
		r.Utilization += m.BusyFrac
		r.Working += m.WorkingFrac
		r.MeanWaitMs += m.MeanWaitMs * float64(m.Uses)
		uses[i-1] += m.Uses
	}
	for i := 1; i < len(out); i++ {
		r := &out[i]
		r.Utilization /= float64(r.Copies)
		r.Working /= float64(r.Copies)
		r.Uses = uses[i-1]
		if p.Par > 0 && p.DurS > 0 {
			r.WaitShare = r.MeanWaitMs / 1000 / (float64(p.Par) * p.DurS)
		}
		if uses[i-1] > 0 {
			r.MeanWaitMs /= float64(uses[i-1])
		}
		for _, sr := range st.Resources {
			if Kind(sr.Name) == r.Name && sr.Hold > 0 {
				r.Bound = float64(sr.Copies) / sr.Hold
			}
		}
		if r.Bound == 0 && p.Bounds != nil && Kind(p.Bounds.Resource) == r.Name {
			r.Bound = p.Bounds.Structural
		}
		if r.Bound == 0 && r.Utilization > 0 {
			r.Bound = p.Throughput / r.Utilization
		}
	}
	return out
}

// structureOf is the model's structure of p's mode at p's steps, and
// whether the model knows the mode (a blueprint's is not a coffee mode).
func structureOf(p results.Point) (model.Structure, bool) {
	cfg, ok := model.ConfigOf(p)
	if !ok {
		return model.Structure{}, false
	}
	cfg.Sched = "fifo"
	st, err := model.StructureOf(cfg)
	return st, err == nil
}

// Kind is the kind of a resource from its name: the name without a copy's
// number ("grinder#2") or a pool's size ("grinder×2").
func Kind(name string) string {
	if i := strings.IndexAny(name, "#×"); i > 0 {
		return name[:i]
	}
	return name
}
