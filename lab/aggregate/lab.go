package aggregate

import (
	"context"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/brewput/brewput/internal/cliflag"
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/results"
)

// The metrics of this lab's points; see Run.
const (
	MetricProducers       results.Metric = "producers"
	MetricBuffer          results.Metric = "buffer"
	MetricEvents          results.Metric = "events"
	MetricCalls           results.Metric = "calls"
	MetricEventsPerCall   results.Metric = "events_per_call"
	MetricStreamRunLength results.Metric = "stream_run_length"
	MetricLost            results.Metric = "lost"
	MetricSpeedup         results.Metric = "speedup"
	MetricRunLength       results.Metric = "run_length"
	MetricHandleCostUs    results.Metric = "handle_cost_us"
	MetricUtil            results.Metric = "util"
)

// Lab is the aggregate lab as brewput runs it (a lab.Lab), with its
// configuration.
type Lab struct{ Config Config }

// NewLab returns the lab at its defaults.
func NewLab() *Lab { return &Lab{Config: DefaultConfig()} }

// Info implements lab.Lab.
func (l *Lab) Info() lab.Info {
	return lab.Info{Name: Name, Summary: Summary, Help: Help, Example: `  brewput lab aggregate
  brewput lab aggregate --producers 1,4 --buffers 0,100 --handle-cost 5us
  brewput lab aggregate --cpus 1,2 --run-length 2 --format json --out aggregate.json`}
}

// Bind implements lab.Lab: a flag for each field of Config.
func (l *Lab) Bind(fs *pflag.FlagSet) func() error {
	c := &l.Config
	fs.IntVar(&c.Events, "events", c.Events, "events the producers make together for each run of a point")
	fs.IntSliceVar(&c.Producers, "producers", c.Producers, "producer counts P to sweep")
	fs.IntSliceVar(&c.Buffers, "buffers", c.Buffers, "channel buffer sizes S to sweep, in events (0: unbuffered)")
	fs.Float64Var(&c.RunLength, "run-length", c.RunLength, "mean length of the runs of one event type each producer makes (1: every event differs from the one before)")
	fs.Var((*cliflag.Duration)(&c.HandleCost), "handle-cost", "CPU time one handle call spins, whatever the number of events it handles")
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "seed of the producers' event streams")
	fs.IntVar(&c.Reps, "reps", c.Reps, "runs of each variant at each point, the two ways taking turns; a point reports the median")
	return func() error { return lab.FlagError(c.Validate()) }
}

// Run implements lab.Lab: Run with the lab's configuration.
func (l *Lab) Run(ctx context.Context, cpus []int, progress func(string)) ([]results.Point, error) {
	return Run(ctx, l.Config, cpus, progress)
}

// Figure implements lab.Lab: the grouped points' speedup against the
// buffer, a line per producer count.
func (l *Lab) Figure() lab.Figure {
	return lab.Figure{
		Kind:   lab.Lines,
		Title:  "aggregate: speedup of grouping over one call per event",
		Lesson: "The speedup of one handle call per run of identical events over one call per event, against the channel's buffer, a line per producer count. Each call costs the same whatever it handles, so grouping runs of about 8 events gains several times; a single consumer bounds both ways, and the unbuffered channel, where every event is a handover, gains least.",
		X:      lab.Axis{Label: "channel buffer (events)", Of: lab.ByMetric, Metric: MetricBuffer, Scale: lab.Even},
		Y:      lab.Axis{Label: "speedup of grouped over single (×)", Of: lab.ByMetric, Metric: MetricSpeedup},
		Line: func(p results.Point) (lab.Line, bool) {
			n, ok := p.Metrics[MetricProducers]
			name := "1 producer"
			if n != 1 {
				name = strconv.Itoa(int(n)) + " producers"
			}
			return lab.Line{Name: name}, ok && strings.HasPrefix(p.Variant, Grouped+"/")
		},
		Reference: lab.Reference{Label: "no gain (1×)", Y: 1},
		Empty:     "No grouped point says its speedup over single.",
	}
}
