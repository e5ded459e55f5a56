package blueprint

import (
	"fmt"
	"slices"
)

// StepInfo is one step of a blueprint, as a causal profile relieves it.
type StepInfo struct {
	Name string
	// CPU reports whether the step burns a CPU (or only waits).
	CPU bool
	// Holds lists what is held while it runs, innermost first (its own,
	// its groups', its stage); Held is the first of them.
	Held  string
	Holds []string
}

// StageInfo is one stage of a blueprint's pipelines.
type StageInfo struct {
	Name string
	// Workers a line, its pipeline's Lines, the Buffer into it.
	Workers, Lines, Buffer int
}

// Steps lists the steps that take time, each name once, in file order.
func (b *Blueprint) Steps() []StepInfo {
	var out []StepInfo
	names := func(holds []int) []string {
		var s []string
		for _, r := range holds {
			s = append(s, b.Resources[r].Name)
		}
		return s
	}
	// held is what the enclosing groups and stages hold, innermost first.
	var walk func(n node, held []string)
	walk = func(n node, held []string) {
		switch n := n.(type) {
		case *step:
			if n.d.zero() || slices.ContainsFunc(out, func(s StepInfo) bool { return s.Name == n.name }) {
				return
			}
			st := StepInfo{Name: n.name, CPU: n.cpu, Holds: append(names(n.holds), held...)}
			if len(st.Holds) > 0 {
				st.Held = st.Holds[0]
			}
			out = append(out, st)
		case *group:
			inner := append(names(n.holds), held...)
			for _, it := range n.items {
				walk(it, inner)
			}
		case *parallel:
			for _, br := range n.branches {
				walk(br, held)
			}
		case *pipe:
			for _, s := range n.stages {
				walk(s.body, append([]string{s.name}, held...))
			}
		}
	}
	if b.flow != nil {
		walk(b.flow, nil)
	}
	return out
}

// Stages lists the stages of the blueprint's pipelines, in file order.
func (b *Blueprint) Stages() []StageInfo {
	var out []StageInfo
	for _, pp := range b.pipes {
		for _, s := range pp.stages {
			out = append(out, StageInfo{Name: s.name, Workers: s.workers, Lines: pp.lines, Buffer: s.buffer})
		}
	}
	return out
}

// checkReliefs refuses reliefs naming no step or stage, or out of range.
func (b *Blueprint) checkReliefs() error {
	steps := b.Steps()
	for name, f := range b.Scale {
		if !slices.ContainsFunc(steps, func(s StepInfo) bool { return s.Name == name }) {
			return fmt.Errorf("%s: scale: no step %q", b.File, name)
		}
		if !(f > 0) {
			return fmt.Errorf("%s: scale of step %q: %v: want a positive factor", b.File, name, f)
		}
	}
	stages := b.Stages()
	for _, m := range []struct {
		what string
		by   map[string]int
	}{{"workers", b.Workers}, {"buffers", b.Buffers}} {
		for name, n := range m.by {
			if !slices.ContainsFunc(stages, func(s StageInfo) bool { return s.Name == name }) {
				return fmt.Errorf("%s: %s: no stage %q", b.File, m.what, name)
			}
			if n < 0 {
				return fmt.Errorf("%s: %s of stage %q: %d: want 0 or more", b.File, m.what, name, n)
			}
		}
	}
	return nil
}
