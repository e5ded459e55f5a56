package channels

import (
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/results"
)

// The metrics of a channels point, in groups; see Run.

// The point's distance to its bound: the bound that the producer's and a
// consumer's rates alone and the CPUs allow (see Bound), and Throughput ÷
// that bound.
const (
	MetricBound   results.Metric = "bound_lines_per_s"
	MetricOfBound results.Metric = "of_bound"
)

// The rates the bound comes from, each measured alone just before and
// after the point, the faster kept.
const (
	MetricProducerRate results.Metric = "producer_lines_per_s"
	MetricConsumerRate results.Metric = "consumer_lines_per_s"
)

// The variant's numbers S, M and B.
const (
	MetricChanSize   results.Metric = "chan_size"
	MetricConsumers  results.Metric = "consumers"
	MetricBatchLines results.Metric = "batch_lines"
)

// NewLab returns the channels lab at its defaults, as brewput runs it (a
// lab.Lab); its flags are Config's.
func NewLab() *lab.Of[Config] {
	return lab.New(lab.Info{Name: Name, Summary: Summary, Help: Help, Example: Example}, DefaultConfig(), Run, figure())
}
