// Package channels is the channels lab, after an article on channel
// contention: one producer hands random lines through a channel to M
// consumers that hash them, against a bound from the producer's and one
// consumer's speed alone (Bound).
package channels

import (
	"cmp"
	_ "embed"
	"fmt"
	"slices"
	"strings"

	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/chartspec"
)

const Name = "channels"

//go:embed help.txt
var help string

// The metrics of a point.
const (
	MetricBound        results.Metric = "bound_lines_per_s"    // see Bound
	MetricOfBound      results.Metric = "of_bound"             // the median of the runs' lines/s ÷ the bound (lab.Lo/Hi from 6 runs); above 1 only where the machine's speed drifted
	MetricProducerRate results.Metric = "producer_lines_per_s" // the producer alone, just before and after the point, the faster
	MetricConsumerRate results.Metric = "consumer_lines_per_s" // one consumer alone, likewise
	MetricChanSize     results.Metric = "chan_size"            // the variant's S
	MetricConsumers    results.Metric = "consumers"            // its M
	MetricBatchLines   results.Metric = "batch_lines"          // its B
	MetricSpread       results.Metric = "spread"               // (fastest − slowest run's lines/s) ÷ the median run's, over --reps runs
)

// NewLab returns the lab at its defaults.
func NewLab() *lab.Of[Config] {
	return lab.New(lab.Info{Name: Name, Help: strings.TrimSuffix(help, "\n"),
		Summary: "one producer, M consumers hashing lines: how buffers and batching near the CPU bound",
		Example: `  brewput lab channels
  brewput lab channels --size 1,100 --consumers 2 --batch 1,10,100,1000

  brewput lab channels --cpus 1 --format json --out channels.json`,
	}, DefaultConfig(), Run, chartspec.Figure{
		Kind:   chartspec.Lines,
		Title:  "channels: share of the bound reached against batch size",
		Lesson: "How close each channel setup comes to the bound that the producer's and a consumer's rates alone and the CPUs allow, against the batch size, for each channel size S (best over consumer counts, at the most CPUs measured). Lines of one at a time stay far below the bound whatever the channel's size; batching closes most of the gap.",
		X:      chartspec.Axis{Label: "lines per batch (B, log scale)", Of: chartspec.ByMetric, Metric: MetricBatchLines, Scale: chartspec.Log},
		Y:      chartspec.Axis{Label: "share of the bound reached (%)", Of: chartspec.ByMetric, Metric: MetricOfBound, Factor: 100, Max: 105},
		Line: func(p results.Point) (chartspec.Line, bool) {
			s, ok := p.Metrics[MetricChanSize]
			return chartspec.Line{Name: fmt.Sprint("S=", int(s)), Order: s}, ok // the channel's size, as its variants name it
		},
		Best:  true,
		Empty: "No point says its share of the bound (of_bound) with a channel size S and batch B.",
	})
}

// Config says what Run sweeps: every size with every consumer count with
// every batch size.
type Config struct {
	Lines     int    `flag:"lines" usage:"lines the producer makes for each point"`
	LineBytes int    `flag:"line-bytes" usage:"bytes in a line"`
	Hashes    int    `flag:"hashes" usage:"SHA-1 sums a consumer computes of each line"`
	Sizes     []int  `flag:"size" usage:"channel buffer sizes S to sweep,\nin messages"`
	Consumers []int  `flag:"consumers" usage:"consumer counts M to sweep"`
	Batches   []int  `flag:"batch" usage:"batch sizes B to sweep,\nin lines per message"`
	Seed      uint64 `flag:"seed" usage:"seed of the producer's random lines"`
	Reps      int    `flag:"reps" usage:"runs of each point;\na point reports the median run, its share of the bound's 95 % interval (from 6 runs), and the spread of all"`
}

// DefaultConfig is the article's setting, 6 runs a point: 8 points in
// about 3 s for CPU counts 1 and 2 on the 2-core VM.
func DefaultConfig() Config {
	return Config{
		Lines:     50_000,
		LineBytes: 300,
		Hashes:    5,
		Sizes:     []int{25, 100},
		Consumers: []int{3},
		Batches:   []int{1, 1000},
		Seed:      1,
		Reps:      lab.IntervalRuns(),
	}
}

// Validate refuses, beside nonsense, what would take the machine's memory
// rather than measure anything.
func (c Config) Validate() error {
	if err := cmp.Or(
		lab.Within("lines", c.Lines, 1, 100_000_000, "lines per point"),
		lab.Within("line-bytes", c.LineBytes, 1, 1<<20, "bytes per line"),
		lab.AtLeast("hashes", c.Hashes, 1, "SHA-1 sum per line"),
		lab.NotEmpty("size", c.Sizes, "channel size"),
		lab.NotEmpty("consumers", c.Consumers, "consumer count"),
		lab.NotEmpty("batch", c.Batches, "batch size"),
		lab.Buffers("size", c.Sizes, 1<<20, "a channel size", "messages"),
		lab.EachWithin("consumers", c.Consumers, 1, 1<<16, "consumers"),
		lab.Within("reps", c.Reps, 1, 100, "runs a point"),
	); err != nil {
		return err
	}
	return lab.AtLeast("batch", slices.Min(c.Batches), 1, "line per batch")
}

// Variant names a point's combination: "S=10/M=4/B=100" for a channel of
// 10 messages, 4 consumers and batches of 100 lines.
func Variant(size, consumers, batch int) string {
	return fmt.Sprintf("S=%d/M=%d/B=%d", size, consumers, batch)
}

// Memory is what a point of a valid configuration holds at most: the
// batches in the channel and in hand (twice: the heap grows to twice what
// is live), and the samples.
func (c Config) Memory() (float64, []string) {
	size, consumers, batch := slices.Max(c.Sizes), slices.Max(c.Consumers), min(slices.Max(c.Batches), c.Lines)
	inFlight := float64(size+consumers+2) * float64(batch) * float64(c.LineBytes)
	return 2*inFlight + float64(c.Lines)/sampleEvery*8,
		[]string{fmt.Sprint("--size ", size), fmt.Sprint("--batch ", batch), fmt.Sprint("--line-bytes ", c.LineBytes), fmt.Sprint("--consumers ", consumers)}
}
