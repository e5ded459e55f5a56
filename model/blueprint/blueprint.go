package blueprint

import (
	"fmt"
	"os"
	"path/filepath"
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

	// Resources are in the order the file declares them; holding one waits,
	// first come, first served, for one of its Capacity units.
	Resources []Resource

	// Load is how orders arrive, as the file says.
	Load Workload

	// A causal profile's reliefs, by step or stage name: Scale multiplies
	// a step's durations, Workers adds to a stage's workers a line,
	// Buffers sets the room in the channel into a stage.
	Scale   map[string]float64
	Workers map[string]int
	Buffers map[string]int

	nres   int     // len(Resources) as parsed: steps refer to resources by index
	flow   *group  // the steps of one order, run by each customer or server
	pipes  []*pipe // every pipeline, in file order; each gets its own stage processes
	stages int     // the pipelines' stages in all
}

// Resource is units that steps hold; Locks: as many mutexes, drawn at random.
type Resource struct {
	Name     string
	Capacity int // units, at least 1
	Locks    bool
	Line     int // where the file declares it
}

// Workload is how orders arrive: a closed loop, or with a Rate an open one.
type Workload struct {
	// Customers is the closed loop's; 0 means one per CPU.
	Customers int

	// Rate, when positive, makes the load open-loop: orders per second.
	Rate float64
	// Servers take orders off the open loop's queue; 0 means one per CPU.
	Servers int
	// Queue is the most orders waiting; an arrival finding it full is
	// dropped.
	Queue int
	// Arrivals is "even" (one every 1/Rate, as brewput's harness) or
	// "poisson" (exponential gaps).
	Arrivals string
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
	Msg  string
}

// Error returns the problem as file:line: message.
func (e *Error) Error() string {
	if e.Line <= 0 {
		return e.File + ": " + e.Msg
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// Load reads and parses the blueprint file at path.
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
