package model

import (
	"time"

	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
)

// A System is simulated in place of the shop's modes: a YAML system.
type System interface {
	// Title is the system's name and what its operations are called.
	Title() (name, unit string)
	// LoadAt is cfg's load with the system's own where cfg leaves it (Par
	// or Rate 0, the queue), and whether arrivals come at Poisson gaps.
	LoadAt(cfg Config) (l results.Load, poisson bool)
	// Structure checks the system at cfg and returns its structure.
	Structure(cfg Config) (Structure, error)
	// Sizes is what the system at cfg is made of, for its Footprint.
	Sizes(cfg Config) Sizes
	// Build builds the system in s, burning on cpus: what runs one
	// operation, and its meters' readings.
	Build(s *sim.Sim, cpus *sim.CPUs, cfg Config) (op func(*sim.Proc), read func() []Reading)
}

// WordSystem is a System that says whether it has a word that cores add
// to (sim.NewWordLine): how long such a word stays at a core is not
// known, and does not speed a system up at every move's cost alike, so
// its band simulates each edge at both ends of it.
type WordSystem interface {
	Words() bool
}

// Reading is a shared resource's totals so far (unit-time).
type Reading struct {
	Name string
	// Kind is "mutex" for a sync.Mutex shared by every process, "rwmutex"
	// for a shared sync.RWMutex, "" for anything else (results.Machine).
	Kind                string
	Units               int
	Uses                int64
	Held, Working, Wait time.Duration
	// Stalls is the time cores waited for the cache line of a word that
	// several cores write to come (an atomic word's, a read-write lock's
	// reader count, a shared sync.Mutex's state word), all its copies
	// together; 0 for anything else.
	Stalls time.Duration
}

// Trace asks a run for its exact schedule over Span from the end of the
// warm-up (Start), by CPU and time, the runtime's own work included.
type Trace struct {
	Span  time.Duration
	Start time.Duration
	Steps []Step
}
