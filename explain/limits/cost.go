package limits

import (
	"fmt"
	"strings"

	"github.com/brewput/brewput/internal/format"
)

// Cost is what a change adds to the system. A change that only shortens
// work (or moves it out of a lock) costs nothing here: its price is the
// engineering, which brewput cannot count.
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

// Weight orders costs for ranking: CPUs and machines are dearer than
// locks, goroutines and buffer slots, and a code change costs nothing.
func (c Cost) Weight() float64 {
	return 100*float64(c.CPUs+c.Machines+c.Units) + float64(c.Locks) + float64(c.Goroutines)/10 + float64(c.BufferBytes)/1e4
}

// add is the cost of two changes made together.
func (c Cost) add(o Cost) Cost {
	return Cost{c.Machines + o.Machines, c.Units + o.Units, c.Locks + o.Locks, c.Goroutines + o.Goroutines,
		c.CPUs + o.CPUs, c.BufferSlots + o.BufferSlots, c.BufferBytes + o.BufferBytes}
}
