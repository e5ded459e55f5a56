package aggregate

import (
	"cmp"
	"fmt"
	"math"
	"time"

	"github.com/brewput/brewput/lab"
)

// Config says what Run sweeps: every producer count with every buffer
// size, each measured both ways, grouped and single.
type Config struct {
	Events    int   `flag:"events" usage:"events the producers make together for each run of a point"`
	Producers []int `flag:"producers" usage:"producer counts P to sweep"`
	Buffers   []int `flag:"buffers" usage:"channel buffer sizes S to sweep, in events (0: unbuffered)"`
	// RunLength is the mean of the geometric distribution run lengths are
	// drawn from.
	RunLength float64 `flag:"run-length" usage:"mean length of the runs of one event type each producer makes (1: every event differs from the one before)"`
	// HandleCost is spun on the consumer's goroutine per call, as a system
	// call, a lock round or a message to another process costs.
	HandleCost time.Duration `flag:"handle-cost" usage:"CPU time one handle call spins, whatever the number of events it handles"`
	Seed       uint64        `flag:"seed" usage:"seed of the producers' event streams"`
	Reps       int           `flag:"reps" usage:"runs of each variant at each point, the two ways taking turns; a point reports the median"`
}

// DefaultConfig sweeps 1 to 8 producers and unbuffered to 1000-event
// channels, with runs of 8 events on average and a handle call of 2 µs:
// 40 points, about 20 s per CPU count on a 2-CPU machine.
func DefaultConfig() Config {
	return Config{
		Events:     100_000,
		Producers:  []int{1, 2, 4, 8},
		Buffers:    []int{0, 1, 10, 100, 1000},
		RunLength:  8,
		HandleCost: 2 * time.Microsecond,
		Seed:       1,
		Reps:       3,
	}
}

// Limits past which a typo would take the machine's memory or an hour
// rather than measure anything.
const (
	maxEvents     = 100_000_000
	maxProducers  = 1 << 16
	maxBuffer     = 1 << 20
	maxRunLength  = 1e9
	maxHandleCost = time.Second
	maxReps       = 1000
)

// Validate implements lab.Validator.
func (c Config) Validate() error {
	return cmp.Or(
		lab.Within("events", c.Events, 1, maxEvents, "events per point"),
		lab.NotEmpty("producers", c.Producers, "producer count"),
		lab.NotEmpty("buffers", c.Buffers, "buffer size"),
		lab.Refuse(math.IsNaN(c.RunLength) || c.RunLength < 1 || c.RunLength > maxRunLength,
			"run-length %g: want a mean of 1 to %g events per run", c.RunLength, maxRunLength),
		lab.Refuse(c.HandleCost < 0 || c.HandleCost > maxHandleCost,
			"handle-cost %v: want 0 to %v per handle call", c.HandleCost, maxHandleCost),
		lab.Within("reps", c.Reps, 1, maxReps, "runs per point"),
		lab.EachWithin("producers", c.Producers, 1, maxProducers, "producers"),
		lab.Buffers("buffers", c.Buffers, maxBuffer, "a buffer", "events"),
	)
}

// The two ways the consumer handles events, the first part of a variant's
// name.
const (
	Grouped = "grouped" // Consume: one handle call per run of one type
	Single  = "single"  // ConsumeEach: one handle call per event
)

// Variant names a point: "grouped/P=4/S=100" for the grouped consumer
// with 4 producers and a channel of 100 events.
func Variant(strategy string, producers, buffer int) string {
	return fmt.Sprintf("%s/P=%d/S=%d", strategy, producers, buffer)
}
