package blueprint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Blueprint is a concurrent system read from a YAML file: its resources,
// its load and the steps of one order. Make one with [Load] or [Parse] and
// simulate it with [Blueprint.Run]. The exported fields start as the file
// says and may be changed before a run (say, to try three baristas); Run
// checks them again. A Blueprint is not changed by Run, so one may be run
// from several goroutines at once.
type Blueprint struct {
	Name        string // the file's name:, or its base name without extension
	Description string // the file's description:, free text
	Unit        string // what an order is called, plural ("lattes"); "orders" by default
	File        string // the file name that errors name

	// Resources are the shared resources in the order the file declares
	// them; a step or group that holds one waits, first come, first
	// served, for one of its Capacity units.
	Resources []Resource

	// Load is how orders arrive, as the file says.
	Load Workload

	nres   int     // len(Resources) as parsed: steps refer to resources by index
	flow   *group  // the steps of one order, run by each customer or server
	pipes  []*pipe // every pipeline, in file order; each gets its own stage processes
	stages int     // the pipelines' stages in all
}

// Resource is a pool of identical units that steps hold: an espresso
// machine (capacity 1), two baristas (capacity 2); or, with Locks, a
// sharded design's Capacity mutexes, each use taking one of them at
// random and waiting for that one alone ({locks: 16} in the file).
type Resource struct {
	Name     string
	Capacity int // units, at least 1
	Locks    bool
	Line     int // where the file declares it
}

// Workload is how orders arrive: a closed loop of customers, each ordering
// again as soon as served, or, when Rate is positive, an open loop of
// arrivals at Rate per second into a queue that servers take them from.
type Workload struct {
	// Customers is the closed loop's number of customers; 0 means one per
	// CPU.
	Customers int

	// Rate, when positive, makes the load open-loop: orders per second.
	Rate float64
	// Servers is the number of processes taking orders off the open loop's
	// queue, each serving one order at a time; 0 means one per CPU.
	Servers int
	// Queue is the most orders that wait for a server; an arrival that
	// finds the queue full is dropped. 0 means an order is taken only if a
	// server is idle when it arrives.
	Queue int
	// Arrivals is how arrivals are spaced: "even" (one every 1/Rate, as
	// brewput's real harness does) or "poisson" (exponential gaps with
	// mean 1/Rate).
	Arrivals string
}

// Arrival spacings of an open loop.
const (
	Even    = "even"
	Poisson = "poisson"
)

// DefaultQueue is an open loop's queue when the file gives none, the same
// as brewput's --maxq.
const DefaultQueue = 1000

// Error is a problem with a blueprint file: the file, the line (0 when the
// problem has none, such as an unreadable file) and what is wrong and what
// was expected.
type Error struct {
	File string
	Line int
	Msg  string
}

// Error returns the problem as file:line: message, the form editors and
// terminals link to the line.
func (e *Error) Error() string {
	if e.Line <= 0 {
		return e.File + ": " + e.Msg
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// Load reads and parses the blueprint file at path; errors name path as
// given.
func Load(path string) (*Blueprint, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse parses a blueprint from data; name is the file name that errors
// name and the blueprint's name when the file gives none. The first
// problem is returned as an [*Error] naming the line and what was expected.
func Parse(name string, data []byte) (*Blueprint, error) {
	b := &Blueprint{File: name, Unit: "orders", Load: Workload{Queue: DefaultQueue, Arrivals: Even}}
	b.Name = strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	p := &parser{file: name, b: b}
	if err := p.parse(data); err != nil {
		return nil, err
	}
	return b, nil
}
