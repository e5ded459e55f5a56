package aggregate

import (
	"strconv"
	"strings"

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

// NewLab returns the aggregate lab at its defaults, as brewput runs it (a
// lab.Lab); its flags are Config's.
func NewLab() *lab.Of[Config] {
	return lab.New(lab.Info{Name: Name, Summary: Summary, Help: Help, Example: `  brewput lab aggregate
  brewput lab aggregate --producers 1,4 --buffers 0,100 --handle-cost 5us
  brewput lab aggregate --cpus 1,2 --run-length 2 --format json --out aggregate.json`},
		DefaultConfig(), Run, figure())
}

// figure is the lab's chart: the grouped points' speedup against the
// buffer, a line per producer count.
func figure() lab.Figure {
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
