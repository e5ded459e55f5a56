package aggregate

import (
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/results"
)

// The metrics of a aggregate point, in groups; see Run.

// The variant's P and S, and the configured mean run length and handle
// cost.
const (
	MetricProducers    results.Metric = "producers"
	MetricBuffer       results.Metric = "buffer"
	MetricRunLength    results.Metric = "run_length"
	MetricHandleCostUs results.Metric = "handle_cost_us"
)

// Events handled (and produced), handle calls, and their ratio; the events
// over the runs of one type as received, the most any grouping could
// reach.
const (
	MetricEvents          results.Metric = "events"
	MetricCalls           results.Metric = "calls"
	MetricEventsPerCall   results.Metric = "events_per_call"
	MetricStreamRunLength results.Metric = "stream_run_length"
)

// Events produced and never handled, always 0; on grouped points,
// Throughput ÷ single's.
const (
	MetricLost    results.Metric = "lost"
	MetricSpeedup results.Metric = "speedup"
)

// NewLab returns the aggregate lab at its defaults, as brewput runs it (a
// lab.Lab); its flags are Config's.
func NewLab() *lab.Of[Config] {
	return lab.New(lab.Info{Name: Name, Summary: Summary, Help: Help, Example: Example}, DefaultConfig(), Run, figure())
}
