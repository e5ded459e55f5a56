package analysis

import (
	"slices"
	"strings"
	"time"

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
	// Bound is the throughput it allows, as Bottleneck.Bound.
	Bound float64
}

// Resources lists what may limit p, the CPUs first and then each kind of
// shared resource p's mode holds, with their use and bounds.
func Resources(p results.Point) []Resource {
	st, known := structureOf(p)
	var out []Resource
	for _, c := range candidates(p, st, known) {
		out = append(out, Resource{Name: c.name, Copies: c.copies, Utilization: c.util, Working: c.working, MeanWaitMs: c.waitMs, Bound: c.bound})
	}
	return out
}

// candidate is one resource that may limit a point.
type candidate struct {
	name    string // as Bottleneck.Resource: "cpus" or a machine's kind
	copies  int
	util    float64 // fraction of the time held
	working float64 // fraction of the time working
	waitMs  float64 // mean wait per use; 0 for the CPUs
	bound   float64 // throughput it allows; 0 if unknown
}

// candidates lists the CPUs and every kind of shared resource of p, with
// their use and the bounds they set. The resources are those p's mode
// holds (ideal's machines are used by many at once, and limit nothing);
// copies of a kind ("grinder#1", "grinder#2") are one pool.
func candidates(p results.Point, st model.Structure, known bool) []candidate {
	cpus := candidate{name: "cpus", copies: p.CPUs, util: p.Util, working: p.Util}
	if known && st.CPU > 0 {
		cpus.bound = float64(p.CPUs) / st.CPU
	} else if p.Bounds != nil {
		cpus.bound = p.Bounds.CPU
	}
	if cpus.bound == 0 && p.Util > 0 {
		cpus.bound = p.Throughput / p.Util
	}
	out := []candidate{cpus}
	index := map[string]int{}
	var uses []int64
	for _, m := range p.Machines {
		kind := Kind(m.Name)
		if known && !slices.ContainsFunc(st.Resources, func(r model.Resource) bool { return Kind(r.Name) == kind }) {
			continue
		}
		i, ok := index[kind]
		if !ok {
			i = len(out)
			index[kind] = i
			out = append(out, candidate{name: kind})
			uses = append(uses, 0)
		}
		c := &out[i]
		c.copies++
		c.util += m.BusyFrac
		c.working += m.WorkingFrac
		c.waitMs += m.MeanWaitMs * float64(m.Uses)
		uses[i-1] += m.Uses
	}
	for i := 1; i < len(out); i++ {
		c := &out[i]
		c.util /= float64(c.copies)
		c.working /= float64(c.copies)
		if uses[i-1] > 0 {
			c.waitMs /= float64(uses[i-1])
		}
		for _, r := range st.Resources {
			if Kind(r.Name) == c.name && r.Hold > 0 {
				c.bound = float64(r.Copies) / r.Hold
			}
		}
		if c.bound == 0 && p.Bounds != nil && Kind(p.Bounds.Resource) == c.name {
			c.bound = p.Bounds.Structural
		}
		if c.bound == 0 && c.util > 0 {
			c.bound = p.Throughput / c.util
		}
	}
	return out
}

// structureOf is the model's structure of p's mode at p's steps, and
// whether the model knows the mode (a blueprint's is not a coffee mode).
func structureOf(p results.Point) (model.Structure, bool) {
	cfg, err := model.ConfigOf(p)
	if err != nil {
		return model.Structure{}, false
	}
	cfg.Sched, cfg.Duration = "fifo", time.Second
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
