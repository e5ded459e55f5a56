package aggregate

import (
	"cmp"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/brewput/brewput/lab"
)

// Config says what Run sweeps. Each field's doc names the flag-style name
// that Validate's errors start with (a CLI can put "--" before it). The
// producer counts and buffer sizes are swept as a cross product, and each
// combination is measured both ways, grouped and single.
type Config struct {
	// Events is how many events the producers make together for each run
	// of a point ("events"), split evenly between them.
	Events int `flag:"events" usage:"events the producers make together for each run of a point"`
	// Producers are the producer counts P to sweep ("producers").
	Producers []int `flag:"producers" usage:"producer counts P to sweep"`
	// Buffers are the channel buffer sizes S to sweep, in events
	// ("buffers"); 0 is an unbuffered channel.
	Buffers []int `flag:"buffers" usage:"channel buffer sizes S to sweep, in events (0: unbuffered)"`
	// RunLength is the mean length of the runs of one type that each
	// producer makes ("run-length"), at least 1: run lengths are drawn
	// from a geometric distribution of that mean, so 1 makes every event
	// of another type than the one before it.
	RunLength float64 `flag:"run-length" usage:"mean length of the runs of one event type each producer makes (1: every event differs from the one before)"`
	// HandleCost is what one handle call costs ("handle-cost"), whatever
	// the number of events it handles: CPU time spun on the consumer's
	// goroutine, as a system call, a lock round or a message to another
	// process costs per call. 0 leaves only the call itself.
	HandleCost time.Duration `flag:"handle-cost" usage:"CPU time one handle call spins, whatever the number of events it handles"`
	// Seed seeds the producers' event streams ("seed"): the same seed
	// gives each producer the same events at every point.
	Seed uint64 `flag:"seed" usage:"seed of the producers' event streams"`
	// Reps is how many times each variant runs at each point ("reps"),
	// the two ways taking turns; a point reports the median run.
	Reps int `flag:"reps" usage:"runs of each variant at each point, the two ways taking turns; a point reports the median"`
}

// DefaultConfig sweeps 1 to 8 producers and unbuffered to 1000-event
// channels, with runs of 8 events on average and a handle call of 2 µs:
// 40 points, about 20 s per CPU count on a 2-CPU machine at 2.5 GHz.
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

// Validate checks every field and returns the first problem, on one line
// that starts with the field's flag-style name.
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
	// Grouped is Consume: one handle call per run of consecutive events
	// of one type.
	Grouped = "grouped"
	// Single is ConsumeEach: one handle call per event.
	Single = "single"
)

// Variant names a point: "grouped/P=4/S=100" for the grouped consumer
// with 4 producers and a channel of 100 events.
func Variant(strategy string, producers, buffer int) string {
	return fmt.Sprintf("%s/P=%d/S=%d", strategy, producers, buffer)
}

// ParseVariant reads a name made by Variant back into its strategy,
// producer count and buffer size.
func ParseVariant(v string) (strategy string, producers, buffer int, err error) {
	bad := fmt.Errorf("aggregate variant %q: want grouped/P=<producers>/S=<buffer> or single/...", v)
	parts := strings.Split(v, "/")
	if len(parts) != 3 || parts[0] != Grouped && parts[0] != Single {
		return "", 0, 0, bad
	}
	var vals [2]int
	for i, key := range []string{"P", "S"} {
		num, ok := strings.CutPrefix(parts[i+1], key+"=")
		n, err := strconv.Atoi(num)
		if !ok || err != nil || n < 0 {
			return "", 0, 0, bad
		}
		vals[i] = n
	}
	return parts[0], vals[0], vals[1], nil
}
