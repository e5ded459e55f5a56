package limits

import (
	"fmt"
	"maps"

	"github.com/brewput/brewput/internal/base/format"
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

// none reports whether k turns nothing: the system as it is.
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

// relief is one experiment to run: a small change to one resource.
type relief struct {
	kind   string
	change string // in words: "grinding 10 % faster"
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
func loadReliefs(cpus, n int, who string) []relief {
	return []relief{
		{kind: CPU, change: fmt.Sprintf("one more CPU, the same %s", format.Count(n, who)), named: []string{"cpus"}, relieves: []string{"cpus"},
			cost: Cost{CPUs: 1}, k: knobs{cpus: 1}},
		{kind: CPUCustomer, change: fmt.Sprintf("one more CPU and one more %s", who), named: []string{"cpus", who + "s"}, relieves: []string{"cpus", who + "s"},
			cost: Cost{CPUs: 1, Goroutines: 1}, k: knobs{cpus: 1, customers: n + 1}},
		{kind: Customers, change: fmt.Sprintf("twice the %ss (%d → %d)", who, n, 2*n), named: []string{who + "s"}, relieves: []string{who + "s"},
			cost: Cost{Goroutines: n}, k: knobs{customers: 2 * n}},
	}
}

// loadLabel names the CPUs and the load for people.
func loadLabel(r string) (string, bool) {
	switch r {
	case "cpus":
		return "the CPUs", true
	case "customers", "servers", "arrivals":
		return "the " + r, true
	}
	return "", false
}
