package limits

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/results"
)

// knobs are what a relief turns; reliefs combine by merging them.
type knobs struct {
	cpus      int                // CPUs added
	customers int                // customers (servers) in all; 0 keeps them as they are
	scale     map[string]float64 // a step's name → the factor on its duration
	copies    map[string]int     // a resource's kind → copies (units, workers) added
	buffers   map[string]int     // a channel (the stage it feeds) → its room; 0 keeps it
	split     bool               // the kitchen lock held for less
	lines     map[string]float64 // a resource → the factor on moving its cache line
	shards    map[string]int     // a resource → the shards it is split into
}

// none reports whether k turns nothing.
func (k knobs) none() bool {
	return k.cpus == 0 && k.customers == 0 && len(k.scale) == 0 && len(k.copies) == 0 && len(k.buffers) == 0 && !k.split &&
		len(k.lines) == 0 && len(k.shards) == 0
}

// merge is a and b at once: the larger of each, the shorter of each step.
func (a knobs) merge(b knobs) knobs {
	return knobs{cpus: max(a.cpus, b.cpus), customers: max(a.customers, b.customers), split: a.split || b.split,
		scale: mergeBy(a.scale, b.scale, true), copies: mergeBy(a.copies, b.copies, false), buffers: mergeBy(a.buffers, b.buffers, false),
		lines: mergeBy(a.lines, b.lines, true), shards: mergeBy(a.shards, b.shards, false)}
}

// mergeBy is a with b's keys, the least (else the most) where both have one.
func mergeBy[V float64 | int](a, b map[string]V, least bool) map[string]V {
	m := maps.Clone(a)
	for k, v := range b {
		if m == nil {
			m = map[string]V{}
		}
		if old, ok := m[k]; ok && (old < v) == least {
			v = old
		}
		m[k] = v
	}
	return m
}

// The kinds of relief, as results.Experiment.Kind names them.
const (
	Shorter     = "shorter"      // a step 10 % shorter
	Copy        = "copy"         // one more copy of a resource
	Split       = "split"        // a lock held for less
	CPU         = "cpu"          // one more CPU, the same customers
	CPUCustomer = "cpu+customer" // one more CPU and one more customer
	Customers   = "customers"    // twice the customers (or servers)
	Buffer      = "buffer"       // twice a channel's buffer (1 where it has none)
	Line        = "line"         // a lock's or word's cache line moving 10 % faster between cores
	Shard       = "shard"        // a lock split in two, or a word striped over the CPUs
	Combined    = "combined"     // several reliefs at once
)

// Faster is how much shorter a step is made: 10 %.
const Faster = 0.9

// relief is a small change to one resource.
type relief struct {
	kind string
	said results.Relief // what it changes, as report/text's ChangeText says it
	// parts are a combined relief's: each relief's said.
	parts []results.Relief
	// named are the bottleneck's candidates; relieves all it relieves.
	named, relieves []string
	cost            Cost
	k               knobs
}

// preference orders a resource's reliefs for a combined change.
func (r relief) preference() int {
	switch r.kind {
	case Copy, Split, Shard:
		return 0
	case CPUCustomer, Customers, Buffer:
		return 1
	case CPU:
		return 2
	}
	return 3
}

// loadReliefs are a CPU more, with a customer more, and twice the n.
func loadReliefs(n int, who string) []relief {
	said := func(kind string) results.Relief { return results.Relief{Kind: kind, Who: who, Count: n} }
	return []relief{
		{kind: CPU, said: said(CPU), named: []string{"cpus"}, relieves: []string{"cpus"},
			cost: Cost{CPUs: 1}, k: knobs{cpus: 1}},
		{kind: CPUCustomer, said: said(CPUCustomer), named: []string{"cpus", who + "s"}, relieves: []string{"cpus", who + "s"},
			cost: Cost{CPUs: 1, Goroutines: 1}, k: knobs{cpus: 1, customers: n + 1}},
		{kind: Customers, said: said(Customers), named: []string{who + "s"}, relieves: []string{who + "s"},
			cost: Cost{Goroutines: n}, k: knobs{customers: 2 * n}},
	}
}

// reliefs lists the experiments on the system at s: each step faster, a
// copy more of each resource and stage, (but under fifo) a file's shared
// lines', a lock held for less, twice each buffer, and the load's.
func (s target) reliefs() []relief {
	var rs []relief
	who := s.who()
	for _, st := range s.b.Steps() {
		main := cmp.Or(st.Held, "step:"+st.Name)
		relieves := collect.AppendNew([]string{main}, st.Holds...)
		if st.CPU {
			relieves = collect.AppendNew(relieves, "cpus")
		}
		rs = append(rs, relief{kind: Shorter, said: results.Relief{Kind: Shorter, Of: st.Name, Doing: st.Doing},
			named: []string{main}, relieves: relieves, k: knobs{scale: map[string]float64{st.Name: Faster}}})
	}
	used := s.b.Used() // a resource nobody takes limits nothing
	for _, r := range used {
		n := r.Capacity
		switch {
		case r.Noun == "":
			rs = append(rs, relief{kind: Copy, said: results.Relief{Kind: Copy, Of: r.Name, Count: n}, named: []string{r.Name}, relieves: []string{r.Name},
				cost: Cost{Units: 1}, k: knobs{copies: map[string]int{unitKey + r.Name: 1}}})
		case r.Machines && r.Kind != blueprint.Unguarded:
			rs = append(rs, relief{kind: Copy, said: results.Relief{Kind: Copy, Of: r.Name, Noun: r.Noun, Count: n, Lines: 1}, named: []string{r.Name}, relieves: []string{r.Name},
				cost: Cost{Machines: 1}, k: knobs{copies: map[string]int{unitKey + r.Name: 1}}})
		}
	}
	if s.cfg.Policy.Sched != "fifo" { // fifo's lines cost nothing to move
		for _, r := range used {
			if r.Noun == "" { // the shop's are held for milliseconds, and changed by its design
				rs = append(rs, lineReliefs(r)...)
			}
		}
	}
	for _, st := range s.b.Stages() {
		n, lines := st.Workers, st.Lines
		r := relief{kind: Copy, said: results.Relief{Kind: Copy, Of: st.Name, Noun: st.Noun, Count: n, Lines: lines, Stage: true},
			named: []string{st.Name}, relieves: []string{st.Name}, cost: Cost{Units: lines, Goroutines: lines}, k: knobs{copies: map[string]int{workerKey + st.Name: 1}}}
		if st.Noun != "" {
			r.cost = Cost{Machines: lines, Goroutines: lines}
		}
		rs = append(rs, r)
	}
	for _, st := range s.b.Steps() {
		if st.Splits {
			held := s.part(st.Held)
			rs = append(rs, relief{kind: Split, said: results.Relief{Kind: Split, Of: st.Held, Part: &held, Doing: st.Doing}, named: []string{st.Held},
				relieves: []string{st.Held}, k: knobs{split: true}})
		}
	}
	for _, st := range s.b.Stages() {
		ch, cur, to := "channel:"+st.Name, st.Buffer, max(1, 2*st.Buffer)
		into := s.part(ch)
		r := relief{kind: Buffer, said: results.Relief{Kind: Buffer, Of: st.Name, Part: &into, Noun: st.Noun, Count: cur}, named: []string{ch}, relieves: []string{ch},
			cost: Cost{BufferSlots: (to - cur) * st.Lines}, k: knobs{buffers: map[string]int{st.Name: to}}}
		if st.Noun != "" {
			// One channel into the stage a line, but one entry for all.
			chans := st.Lines
			if st.First {
				chans = 1
			}
			slots := (to - cur) * chans
			r.cost = Cost{BufferSlots: slots, BufferBytes: slots * coffee.TicketBytes}
		}
		rs = append(rs, r)
	}
	return append(rs, loadReliefs(s.cfg.Resolve().Par, who)...)
}

// part is resource r as the system names it: its noun and count, a
// channel's own name, a stage's or a described step's.
func (s target) part(r string) results.Part {
	p := results.Part{Key: r}
	stages, steps := s.b.Stages(), s.b.Steps()
	if name, ok := strings.CutPrefix(r, "channel:"); ok {
		if i := slices.IndexFunc(stages, func(s blueprint.StageInfo) bool { return s.Name == name }); i >= 0 {
			p.Queue = stages[i].Queue
		}
		return p
	}
	if name, ok := strings.CutPrefix(r, "step:"); ok {
		p.Step = slices.ContainsFunc(steps, func(s blueprint.StepInfo) bool { return s.Name == name && s.Doing != "" })
		return p
	}
	if i := slices.IndexFunc(stages, func(s blueprint.StageInfo) bool { return s.Name == r }); i >= 0 {
		st := stages[i]
		p.Stage, p.Noun, p.Count = true, st.Noun, st.Workers*st.Lines
		return p
	}
	if i := slices.IndexFunc(s.b.Resources, func(x blueprint.Resource) bool { return x.Name == r }); i >= 0 {
		p.Noun, p.Count = s.b.Resources[i].Noun, s.b.Resources[i].Capacity
	}
	return p
}

// copied is what a copies knob's key names.
func copied(key string) string {
	return strings.TrimPrefix(strings.TrimPrefix(key, unitKey), workerKey)
}
