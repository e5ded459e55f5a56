package limits

import (
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// Resources lists what may limit p (analysis.Resources), with the bounds
// the model's structure of p's mode sets where it knows the mode; a
// resource the structure does not hold (ideal's machines) is left out.
func Resources(p results.Point) []analysis.Resource {
	all := analysis.Resources(p)
	st, known := structureOf(p)
	if !known {
		return all
	}
	if st.CPU > 0 {
		all[0].Bound = float64(p.CPUs) / st.CPU
	}
	out := all[:1]
	for _, r := range all[1:] {
		held := false
		for _, sr := range st.Resources {
			if analysis.Kind(sr.Name) == r.Name {
				held = true
				if sr.Hold > 0 {
					r.Bound = float64(sr.Copies) / sr.Hold
				}
			}
		}
		if held {
			out = append(out, r)
		}
	}
	return out
}

// structureOf is the model's structure of p's mode at p's steps, if the
// model knows the mode.
func structureOf(p results.Point) (model.Structure, bool) {
	cfg, ok := model.ConfigOf(p)
	if !ok {
		return model.Structure{}, false
	}
	cfg.Policy.Sched = "fifo"
	st, err := model.StructureOf(cfg)
	return st, err == nil
}
