package analysis

import (
	"fmt"
	"strings"
	"time"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
)

// Advice is the answer to "what would help?" for one system: what it
// does now, and each change tried, best first.
type Advice struct {
	// System names what was advised on: "finelocking on 6 CPUs".
	System string `json:"system"`
	Mode   string `json:"mode"`
	CPUs   int    `json:"cpus"`
	Unit   string `json:"unit"`
	Sched  string `json:"sched"`
	// Model says what the model simulated with.
	Model string `json:"model"`
	// Calibration says where the go policy's costs came from.
	Calibration string `json:"calibration,omitempty"`
	// Now is the model's prediction for the system as it is.
	Now Outcome `json:"now"`
	// Options are the changes tried, ranked by throughput gain (latency
	// made worse last), cost and latency gain.
	Options []Option `json:"options"`
}

// Outcome is what the model predicts for one configuration.
type Outcome struct {
	Throughput float64 `json:"throughput"`
	P50Ms      float64 `json:"p50_ms"`
	P99Ms      float64 `json:"p99_ms"`
	MeanMs     float64 `json:"mean_ms"`
	// Bottleneck is the system's causal verdict, for Now only.
	Bottleneck *results.Bottleneck `json:"bottleneck,omitempty"`
}

// Option is one change tried in the model, with what it would give.
type Option struct {
	// Reliefs are what changes: a causal profile's relief (several for a
	// combined one), or a change of design's (TwiceCPUs, Buffers,
	// EveryResource); Design is a change of the shop's design as its
	// family declares it ("another line of machines").
	Reliefs []results.Relief `json:"reliefs,omitempty"`
	Design  string           `json:"design,omitempty"`
	// Becomes is what the system becomes: its name (or the shop's mode),
	// then each thing the change sets.
	Becomes []Setting `json:"becomes"`
	// Kind is the profile's kind of relief ("copy"), or Structural.
	Kind string `json:"kind"`
	Cost Cost   `json:"cost"`
	Outcome
	// ThroughputGain is the relative gain (0.5 is 50 % more), LatencyGain
	// the relative fall in median latency.
	ThroughputGain float64 `json:"throughput_gain"`
	LatencyGain    float64 `json:"latency_gain"`
}

// Structural is Option.Kind of a change of design.
const Structural = "structural"

// The kinds of Relief of a change of design beside a causal profile's:
// twice the CPUs, buffers between the stages (Count of them), one more of
// every resource (Count resources).
const (
	TwiceCPUs     = "twice_cpus"
	Buffers       = "buffers"
	EveryResource = "every_resource"
)

// Setting is one thing a change sets in the system, as report/text's
// Becomes says it: Kind is one of the Set kinds; Of the step, machine,
// resource or stage; N a count, a factor or a size; Dur a shop step's
// time; Who the load's ("customer"); Lines says a machine count is a
// line's.
type Setting struct {
	Kind  string        `json:"kind"`
	Of    string        `json:"of,omitempty"`
	N     float64       `json:"n,omitempty"`
	Dur   time.Duration `json:"dur_ns,omitempty"`
	Who   string        `json:"who,omitempty"`
	Lines bool          `json:"lines,omitempty"`
}

// The kinds of Setting.
const (
	SetSystem   = "system"   // the system or the shop's mode, Of
	SetCPUs     = "cpus"     // N CPUs
	SetLoad     = "load"     // N customers (Who)
	SetEach     = "each"     // one of the load (Who) a CPU
	SetStep     = "step"     // the shop's step Of takes Dur
	SetScale    = "scale"    // a step Of's time times N
	SetMachines = "machines" // N of the shop's machine Of, a line where Lines
	SetCapacity = "capacity" // resource Of has N units
	SetWorkers  = "workers"  // stage Of has N workers
	SetLine     = "line"     // resource Of's cache line moves N times as long
	SetShards   = "shards"   // resource Of in N shards; 0 a copy on each CPU
	SetBuffer   = "buffer"   // stage Of's channel holds N
	SetInto     = "into"     // a buffer of N into the shop's machine Of
	SetSplit    = "split"    // combining outside the kitchen lock
	SetEvery    = "every"    // each of N resources one more
)

// Cost is what a change adds to the system; a change of code costs nothing.
type Cost struct {
	Machines    int `json:"machines,omitempty"`     // machines added to the coffee shop
	Units       int `json:"units,omitempty"`        // units of a YAML system's resources (or stage workers) added
	Locks       int `json:"locks,omitempty"`        // mutexes added
	Goroutines  int `json:"goroutines,omitempty"`   // goroutines added, at most at once
	CPUs        int `json:"cpus,omitempty"`         // CPUs added
	BufferSlots int `json:"buffer_slots,omitempty"` // channel slots added (negative: fewer)
	BufferBytes int `json:"buffer_bytes,omitempty"` // memory those slots hold when full
}

// String says the cost in words: "3 machines, 3 goroutines".
func (c Cost) String() string {
	var parts []string
	add := func(n int, noun string) {
		if n != 0 {
			parts = append(parts, format.Count(n, noun))
		}
	}
	add(c.Machines, "machine")
	add(c.Units, "resource unit")
	add(c.Locks, "lock")
	add(c.CPUs, "CPU")
	add(c.Goroutines, "goroutine")
	if c.BufferSlots != 0 {
		parts = append(parts, fmt.Sprintf("%s (%d B)", format.Count(c.BufferSlots, "buffer slot"), c.BufferBytes))
	}
	if len(parts) == 0 {
		return "none (code changes only)"
	}
	return strings.Join(parts, ", ")
}

// Weight orders costs for ranking: CPUs and machines are the dearest.
func (c Cost) Weight() float64 {
	return 100*float64(c.CPUs+c.Machines+c.Units) + float64(c.Locks) + float64(c.Goroutines)/10 + float64(c.BufferBytes)/1e4
}

// Add is the cost of two changes made together.
func (c Cost) Add(o Cost) Cost {
	return Cost{c.Machines + o.Machines, c.Units + o.Units, c.Locks + o.Locks, c.Goroutines + o.Goroutines,
		c.CPUs + o.CPUs, c.BufferSlots + o.BufferSlots, c.BufferBytes + o.BufferBytes}
}
