package analysis

import (
	"fmt"
	"strings"

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
	// Change says what changes, in words: "another copy of each machine".
	Change string `json:"change"`
	// As says what the system becomes: "multi-2", "12 CPUs".
	As string `json:"as"`
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
