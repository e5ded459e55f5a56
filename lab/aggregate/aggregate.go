// Package aggregate is the aggregate lab, after the journal's aggregating
// consumer: producers put events of types a, b and c on one channel, and
// one consumer handles them with a call per event, or per run of one type.
package aggregate

import (
	"cmp"
	_ "embed"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/chartspec"
)

const Name = "aggregate"

//go:embed help.txt
var help string

// The metrics of a point.
const (
	MetricProducers       results.Metric = "producers"         // the variant's P
	MetricBuffer          results.Metric = "buffer"            // its S
	MetricRunLength       results.Metric = "run_length"        // the configured mean run length
	MetricHandleCostUs    results.Metric = "handle_cost_us"    // the configured cost of a call
	MetricEvents          results.Metric = "events"            // handled, which equal those produced
	MetricCalls           results.Metric = "calls"             // handle calls
	MetricEventsPerCall   results.Metric = "events_per_call"   // events ÷ calls
	MetricStreamRunLength results.Metric = "stream_run_length" // events ÷ the runs of one type as received: the most any grouping could reach
	MetricLost            results.Metric = "lost"              // produced and never handled: always 0 (Run fails otherwise)
	MetricSpeedup         results.Metric = "speedup"           // on grouped points, the median of its events/s ÷ single's (same P, S, CPUs) run by run; lab.Lo/Hi from 6 runs
)

// NewLab returns the lab at its defaults.
func NewLab() *lab.Of[Config] {
	return lab.New(lab.Info{Name: Name, Help: strings.TrimSuffix(help, "\n"),
		Summary: "P producers, one consumer: a call per run of identical events against one per event",
		Example: `  brewput lab aggregate
  brewput lab aggregate --producers 1,4 --buffers 0,100 --handle-cost 5us

  brewput lab aggregate --cpus 1,2 --run-length 2 --format json \
    --out aggregate.json`,
	}, DefaultConfig(), Run, chartspec.Figure{
		Kind:   chartspec.Lines,
		Title:  "aggregate: speedup of grouping over one call per event",
		Lesson: "The speedup of one handle call per run of identical events over one call per event, against the channel's buffer, a line per producer count. Each call costs the same whatever it handles, so grouping runs of about 8 events gains several times; a single consumer bounds both ways, and the unbuffered channel, where every event is a handover, gains least.",
		X:      chartspec.Axis{Label: "channel buffer (events)", Of: chartspec.ByMetric, Metric: MetricBuffer, Scale: chartspec.Even},
		Y:      chartspec.Axis{Label: "speedup of grouped over single (×)", Of: chartspec.ByMetric, Metric: MetricSpeedup},
		Line: func(p results.Point) (chartspec.Line, bool) {
			n, ok := p.Metrics[MetricProducers]
			name := "1 producer"
			if n != 1 {
				name = strconv.Itoa(int(n)) + " producers"
			}
			return chartspec.Line{Name: name}, ok && strings.HasPrefix(p.Variant(), Grouped+"/")
		},
		Reference: chartspec.Reference{Label: "no gain (1×)", Y: 1},
		Empty:     "No grouped point says its speedup over single.",
	})
}

// Config says what Run sweeps: every producer count with every buffer
// size, each measured both ways, grouped and single.
type Config struct {
	Events    int   `flag:"events" usage:"events the producers make in a run\n(together, for each run of a point)"`
	Producers []int `flag:"producers" usage:"producer counts P to sweep"`
	Buffers   []int `flag:"buffers" usage:"channel sizes S to sweep,\nin events (0: unbuffered)"`
	// HandleCost is spun per call, as a system call, a lock round or a
	// message to another process costs.
	RunLength  float64       `flag:"run-length" usage:"mean length of a run of one event type\n(the runs each producer makes; 1: every event differs from the one before)"`
	HandleCost time.Duration `flag:"handle-cost" usage:"CPU time one handle call spins,\nwhatever the number of events it handles"`
	Seed       uint64        `flag:"seed" usage:"seed of the producers' event streams"`
	Reps       int           `flag:"reps" usage:"runs of each variant at each point,\nthe two ways taking turns; a point reports the median"`
}

// DefaultConfig's 40 points take about 35 s per CPU count on the 2-core VM.
func DefaultConfig() Config {
	return Config{
		Events:     100_000,
		Producers:  []int{1, 2, 4, 8},
		Buffers:    []int{0, 1, 10, 100, 1000},
		RunLength:  8,
		HandleCost: 2 * time.Microsecond,
		Seed:       1,
		Reps:       lab.IntervalRuns(),
	}
}

// Validate refuses, beside nonsense, what would take the machine's memory
// or an hour rather than measure anything.
func (c Config) Validate() error {
	return cmp.Or(
		lab.Within("events", c.Events, 1, 100_000_000, "events per point"),
		lab.NotEmpty("producers", c.Producers, "producer count"),
		lab.NotEmpty("buffers", c.Buffers, "buffer size"),
		lab.Refuse(math.IsNaN(c.RunLength) || c.RunLength < 1 || c.RunLength > 1e9,
			"run-length %g: want a mean of 1 to %g events per run", c.RunLength, 1e9),
		lab.Refuse(c.HandleCost < 0 || c.HandleCost > time.Second,
			"handle-cost %v: want 0 to %v per handle call", c.HandleCost, time.Second),
		lab.Within("reps", c.Reps, 1, 1000, "runs per point"),
		lab.EachWithin("producers", c.Producers, 1, 1<<16, "producers"),
		lab.Buffers("buffers", c.Buffers, 1<<20, "a buffer", "events"),
	)
}

// The two ways the consumer handles events.
const (
	Grouped = "grouped" // one handle call per run of one type
	Single  = "single"  // one handle call per event
)

// Variant names a point: "grouped/P=4/S=100" for the grouped consumer
// with 4 producers and a channel of 100 events.
func Variant(strategy string, producers, buffer int) string {
	return fmt.Sprintf("%s/P=%d/S=%d", strategy, producers, buffer)
}
