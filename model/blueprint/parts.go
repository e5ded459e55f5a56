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
	// Held names what is held while the step runs: its own first
	// resource, or else its group's, or else the pipeline stage it is
	// part of; empty when it runs holding nothing. Holds lists all of
	// them, innermost first.
	Held  string
	Holds []string
}

// StageInfo is one stage of a blueprint's pipelines.
type StageInfo struct {
	Name string
	// Workers are the stage's workers a line, Lines its pipeline's
	// lines, Buffer the room in the channel into it.
	Workers, Lines, Buffer int
}

// Steps lists the blueprint's steps that take time, by name, each name
// once, in the order the file gives them.
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

// checkReliefs refuses Options' reliefs that name no step or stage, or
// that cannot be run.
func (b *Blueprint) checkReliefs(opt Options) error {
	steps := b.Steps()
	for name, f := range opt.Scale {
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
	}{{"workers", opt.Workers}, {"buffers", opt.Buffers}} {
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

// Workers returns the customers (an open loop's servers) a run at opt has,
// and the arrivals per second of an open loop (0 for a closed one).
func (b *Blueprint) Workers(opt Options) (workers int, rate float64) {
	l := b.load(opt)
	return l.workers, l.Rate
}
