package blueprint

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Blueprint is a concurrent system read from a YAML file with [Load] or
// [Parse], a model.System (see [Blueprint.Config]). Its exported fields
// may be changed before a run (to try three baristas), which checks them;
// a run changes no Blueprint, so several may run it at once.
type Blueprint struct {
	Name        string // the file's name:, or its base name without extension
	Description string // the file's description:, free text
	Unit        string // what an order is called, plural ("lattes"); "orders" by default
	File        string // the file name that errors name
	// Clock, where set, makes the steps times rather than work: "wall",
	// ending on the clock, or "cpu", burning that much CPU time. "" (a
	// file's default) is work measured on one core.
	Clock string

	// Resources are in file order; holding one waits, first come, first
	// served, for one of its Capacity units.
	Resources []Resource
	Load      Workload // how orders arrive, as the file says

	// A causal profile's reliefs, by step, stage or resource name.
	Scale     map[string]float64 // multiplies a step's durations
	Workers   map[string]int     // adds to a stage's workers a line
	Buffers   map[string]int     // sets the room in the channel into a stage
	Units     map[string]int     // adds to a resource's capacity
	LineScale map[string]float64 // multiplies what moving its cache line costs
	Shards    map[string]int     // splits a lock into that many, or a word into one a CPU

	nres   int     // len(Resources) as parsed: steps refer to resources by index
	used   []int   // the resources a step or group refers to, by index, in file order
	steps  []*step // every step, by its id
	flow   *group  // the steps of one order, run by each customer or server
	pipes  []*pipe // every pipeline, in file order; each gets its own stage processes
	stages int     // the pipelines' stages in all
}

// Resource is units that steps hold; Locks: as many mutexes, drawn at
// random. Its Kind says what one unit is, and Per where each CPU or each
// customer has its own.
type Resource struct {
	Name     string
	Capacity int // units, at least 1
	Locks    bool
	Kind     string // a Kind constant; "" is Mutex
	Per      string // PerCPU, PerCustomer, or "" for one shared by all
	// Hashed: each CPU's (PerCPU) is drawn at random, as a striped
	// counter's stripe by a hash, so two CPUs may share one.
	Hashed bool
	Line   int // where the file declares it
	// Noun, where set, is what the coffee shop calls one ("espresso
	// machine"; Shop): its reading has no kind, and its use counts whole.
	Noun string
	// Machines: its units are machines, metered one by one; Pooled, handed
	// out through a buffered channel, as coffee's pools are.
	Machines, Pooled bool
}

// The kinds of resource.
const (
	// Mutex is a sync.Mutex where the resource has one unit; more units
	// are handed out first come, first served.
	Mutex = "mutex"
	// RWMutex is a sync.RWMutex: held (holds:) by one writer or shared
	// (shares:) by any number of readers.
	RWMutex = "rwmutex"
	// Runtime is the Go runtime's own lock, which every channel operation
	// takes.
	Runtime = "runtime"
	// Word is a word several cores read or write, such as an atomic
	// counter; nobody holds it.
	Word = "word"
	// Unguarded is a machine nothing guards, metered only (ideal's, or
	// locking's inside its lock).
	Unguarded = "unguarded"
)

// The resources a CPU or a customer has each of its own.
const (
	PerCPU      = "cpu"
	PerCustomer = "customer"
)

// Workload is how orders arrive: a closed loop, or with a Rate an open one.
type Workload struct {
	Customers int     // the closed loop's; 0 means one per CPU
	Rate      float64 // orders a second: positive makes the load open-loop
	Servers   int     // take orders off the open loop's queue; 0 means one per CPU
	Queue     int     // the most orders waiting: an arrival finding it full is dropped
	Arrivals  string  // Even or Poisson
}

// Arrival spacings of an open loop.
const (
	Even    = "even"
	Poisson = "poisson"
)

// DefaultQueue is an open loop's queue when the file gives none, as --maxq.
const DefaultQueue = 1000

// Error is a problem with a blueprint file, at a line (0 for none).
type Error struct {
	File string
	Line int
	Err  error
}

// Error returns the problem as file:line: message.
func (e *Error) Error() string {
	if e.Line <= 0 {
		return e.File + ": " + e.Err.Error()
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Err)
}

// Unwrap is the problem without its place.
func (e *Error) Unwrap() error { return e.Err }

func Load(path string) (*Blueprint, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse parses a blueprint from data read from the file name.
func Parse(name string, data []byte) (*Blueprint, error) {
	b := &Blueprint{File: name, Unit: "orders", Load: Workload{Queue: DefaultQueue, Arrivals: Even}}
	b.Name = strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	p := &parser{file: name, b: b}
	if err := p.parse(data); err != nil {
		return nil, err
	}
	return b, nil
}

// StepInfo is one step of a blueprint, as a causal profile relieves it.
type StepInfo struct {
	Name string
	// Doing, where set, says the step in words ("grinding"; Shop).
	Doing string
	// CPU reports whether the step burns a CPU (or only waits).
	CPU bool
	// Holds lists what is held while it runs, innermost first; Held is
	// the first.
	Held  string
	Holds []string
	// Splits: what its group holds can be let go before it (locking's
	// combining).
	Splits bool
}

// StageInfo is one stage of a blueprint's pipelines.
type StageInfo struct {
	Name string
	// Workers a line, its pipeline's Lines, the Buffer into it.
	Workers, Lines, Buffer int
	// First: its channel is its pipeline's entry, which the lines share.
	First       bool
	Noun, Queue string // its machine and the channel into it in words (Shop)
}

// Steps lists the steps that take time, each name once, in file order.
func (b *Blueprint) Steps() []StepInfo {
	var out []StepInfo
	seen := map[string]bool{}
	names := func(holds []int) []string {
		var s []string
		for _, r := range holds {
			if b.Resources[r].Kind != Unguarded {
				s = append(s, b.Resources[r].Name)
			}
		}
		return s
	}
	// held is what the enclosing groups and stages hold, innermost first.
	var walk func(n node, held []string)
	walk = func(n node, held []string) {
		switch n := n.(type) {
		case *step:
			if n.d.zero() || seen[n.name] {
				return
			}
			seen[n.name] = true
			st := StepInfo{Name: n.name, Doing: n.doing, CPU: n.cpu, Holds: append(names(n.taken()), held...), Splits: n.splits}
			if len(st.Holds) > 0 {
				st.Held = st.Holds[0]
			}
			out = append(out, st)
		case *group:
			inner := append(names(n.taken()), held...)
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
			for _, f := range n.forks {
				walk(f, held)
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
			out = append(out, StageInfo{Name: s.name, Workers: s.workers, Lines: pp.lines, Buffer: s.buffer, First: s == pp.stages[0],
				Noun: s.noun, Queue: s.queue})
		}
	}
	return out
}

// Used lists the resources a step or group holds, shares, reads or
// writes, in file order: the others are neither simulated nor relieved.
func (b *Blueprint) Used() []Resource {
	out := make([]Resource, 0, len(b.used))
	for _, r := range b.used {
		if r < len(b.Resources) { // check refuses Resources changed in length
			out = append(out, b.Resources[r])
		}
	}
	return out
}

// Unused names the resources no step or group uses, in file order.
func (b *Blueprint) Unused() []string {
	var out []string
	for i, r := range b.Resources {
		if !slices.Contains(b.used, i) {
			out = append(out, r.Name)
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
