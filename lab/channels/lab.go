package channels

import (
	"fmt"

	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/results"
)

// The metrics of this lab's points; see Run.
const (
	MetricBound        results.Metric = "bound_lines_per_s"
	MetricOfBound      results.Metric = "of_bound"
	MetricProducerRate results.Metric = "producer_lines_per_s"
	MetricConsumerRate results.Metric = "consumer_lines_per_s"
	MetricUtil         results.Metric = "util"
	MetricChanSize     results.Metric = "chan_size"
	MetricConsumers    results.Metric = "consumers"
	MetricBatchLines   results.Metric = "batch_lines"
)

// NewLab returns the channels lab at its defaults, as brewput runs it (a
// lab.Lab); its flags are Config's.
func NewLab() *lab.Of[Config] {
	return lab.New(lab.Info{Name: Name, Summary: Summary, Help: Help, Example: `  brewput lab channels
  brewput lab channels --size 1,100 --consumers 2 --batch 1,10,100,1000
  brewput lab channels --cpus 1 --format json --out channels.json`},
		DefaultConfig(), Run, figure())
}

// figure is the lab's chart: the share of the bound each channel size
// reaches against the batch size, the best over the consumer counts, at
// the most CPUs.
func figure() lab.Figure {
	return lab.Figure{
		Kind:   lab.Lines,
		Title:  "channels: share of the bound reached against batch size",
		Lesson: "How close each channel setup comes to the bound that the producer's and a consumer's rates alone and the CPUs allow, against the batch size, for each channel size (best over consumer counts, at the most CPUs measured). Lines of one at a time stay far below the bound whatever the channel's size; batching closes most of the gap.",
		X:      lab.Axis{Label: "lines per batch (B, log scale)", Of: lab.ByMetric, Metric: MetricBatchLines, Scale: lab.Log},
		Y:      lab.Axis{Label: "share of the bound reached (%)", Of: lab.ByMetric, Metric: MetricOfBound, Factor: 100, Max: 105},
		Line: func(p results.Point) (lab.Line, bool) {
			s, ok := p.Metrics[MetricChanSize]
			return lab.Line{Name: fmt.Sprintf("channel of %d", int(s)), Order: s}, ok
		},
		Best:  true,
		Empty: "No point says its share of the bound (of_bound) with a channel size S and batch B.",
	}
}
