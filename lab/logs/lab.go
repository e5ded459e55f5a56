package logs

import (
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/results"
)

// The metrics of a logs point, in groups; see Run.

// The run: writers t (as Par), appends (all writers together), the value
// size, 1 if the log syncs, and 1 once checked.
const (
	MetricWriters    results.Metric = "writers"
	MetricAppends    results.Metric = "appends"
	MetricValueBytes results.Metric = "value_bytes"
	MetricSync       results.Metric = "sync"
	MetricVerified   results.Metric = "verified"
)

// Wall time from the first start to the last finish (as DurS), the sum of
// every append's latency, and their ratio, about t.
const (
	MetricWallS         results.Metric = "wall_s"
	MetricLatencySumS   results.Metric = "latency_sum_s"
	MetricOverstatement results.Metric = "overstatement"
)

// The throughput the naive sum would claim; the single writer's throughput
// (same kind and CPUs) and Throughput ÷ it.
const (
	MetricNaiveRate  results.Metric = "naive_appends_per_s"
	MetricSingleRate results.Metric = "single_appends_per_s"
	MetricOfSingle   results.Metric = "of_single"
)

// NewLab returns the logs lab at its defaults, as brewput runs it (a
// lab.Lab); its flags are Config's.
func NewLab() *lab.Of[Config] {
	return lab.New(lab.Info{Name: Name, Summary: Summary, Help: Help, Example: Example}, DefaultConfig(), Run, figure())
}
