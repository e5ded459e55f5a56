// Package channels is the channels lab (brewput lab channels): one
// producer hands random lines through a channel to M consumers that hash
// them, after an article on channel contention. Each point's throughput
// is set against a bound computed from the producer's and one consumer's
// speed alone (Bound): how much of the machine the channel's
// coordination costs, and how much a larger buffer or batching wins back.
package channels

import (
	"cmp"
	"fmt"

	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/report/chartspec"
	"github.com/brewput/brewput/results"
)

// Name is the lab's name, as in brewput lab channels.
const Name = "channels"

const help = `One producer goroutine makes random printable-ASCII lines (300 bytes
each by default); M consumer goroutines each compute 5 SHA-1 sums of every
line they receive. They talk through one channel of S slots, and each
message carries a batch of B lines. This is the experiment of an article on
channel contention in Go ("GO et chan", about an InfluxDB slowdown): the
intuitive design -- a line per message, a small channel, as many consumers
as seem needed -- kept every CPU less than half busy and ran at about a
third of what the machine could do.

Around each point the lab measures how fast the producer makes lines on
its own and how fast one consumer hashes them on its own. From those
rates, p and c lines/s, and C CPUs it computes the best throughput X any
design could reach: every line costs 1/p CPU-seconds to make and 1/c to
hash, so X/p + X/c <= C; one producer cannot go faster than p, and M
consumers no faster than M*c. The bound is the least of p, M*c and
C/(1/p + 1/c), and each point reports its throughput as a fraction of it
(of_bound), beside the CPU utilization measured from the process's CPU
time. The per-line latency, from the moment a line is made to the moment
its hashes are done, is sampled on one line in 16.

What to look for, on 2 CPUs or more: with batches of one line, a channel
of 1 stays far from the bound -- about half of it on a 2-CPU machine with
2 consumers -- and the CPUs are far from busy, as in the article: the
goroutines keep parking and waking each other. A larger channel helps a
little: the CPUs get busier, but much of that is the channel's lock and
the scheduler, not hashing. More consumers help too, as the article found
with 60 goroutines. Batching closes most of the gap: with B = 10 to 1000
lines a message the same 2 consumers reach 80 to 95 % of the bound,
because the fixed cost of a channel operation is now paid once per batch.
It costs latency: a line waits for its batch to fill, and then for the
batches queued before it, so the median latency grows with B and with S.

Run with 1 CPU as well (cpus 1), where the article found its worst
contention. There the producer and the consumers take turns on one CPU,
and Go hands a line to a waiting consumer with a cheap switch on the same
CPU: on Go 1.26 this lab finds most points at 1 CPU within 10 % of the
bound, and single lines through a channel of 1 within about 10 to 25 %.
Whether your machine and Go version show more than that is the point of
the measurement.

Variants are named S=<size>/M=<consumers>/B=<batch>. Every line produced is
consumed exactly once: the lab counts the lines and sums the first 8 bytes
of each line's last SHA-1, and fails if the count is wrong.`

// The metrics of a point.
const (
	MetricBound        results.Metric = "bound_lines_per_s"    // see Bound
	MetricOfBound      results.Metric = "of_bound"             // Throughput ÷ the bound; above 1 only where the machine's speed drifted
	MetricProducerRate results.Metric = "producer_lines_per_s" // the producer alone, just before and after the point, the faster
	MetricConsumerRate results.Metric = "consumer_lines_per_s" // one consumer alone, likewise
	MetricChanSize     results.Metric = "chan_size"            // the variant's S
	MetricConsumers    results.Metric = "consumers"            // its M
	MetricBatchLines   results.Metric = "batch_lines"          // its B
)

// NewLab returns the lab at its defaults, as brewput runs it; its flags
// are Config's. Its chart is the share of the bound each channel size
// reaches against the batch size, the best over the consumer counts, at
// the most CPUs.
func NewLab() *lab.Of[Config] {
	return lab.New(lab.Info{Name: Name, Help: help,
		Summary: "one producer, M consumers hashing lines through a channel: how channel size and batching close the gap to the CPU bound",
		Example: `  brewput lab channels
  brewput lab channels --size 1,100 --consumers 2 --batch 1,10,100,1000
  brewput lab channels --cpus 1 --format json --out channels.json`,
	}, DefaultConfig(), Run, chartspec.Figure{
		Kind:   chartspec.Lines,
		Title:  "channels: share of the bound reached against batch size",
		Lesson: "How close each channel setup comes to the bound that the producer's and a consumer's rates alone and the CPUs allow, against the batch size, for each channel size (best over consumer counts, at the most CPUs measured). Lines of one at a time stay far below the bound whatever the channel's size; batching closes most of the gap.",
		X:      chartspec.Axis{Label: "lines per batch (B, log scale)", Of: chartspec.ByMetric, Metric: MetricBatchLines, Scale: chartspec.Log},
		Y:      chartspec.Axis{Label: "share of the bound reached (%)", Of: chartspec.ByMetric, Metric: MetricOfBound, Factor: 100, Max: 105},
		Line: func(p results.Point) (chartspec.Line, bool) {
			s, ok := p.Metrics[MetricChanSize]
			return chartspec.Line{Name: fmt.Sprintf("channel of %d", int(s)), Order: s}, ok
		},
		Best:  true,
		Empty: "No point says its share of the bound (of_bound) with a channel size S and batch B.",
	})
}

// Config says what Run sweeps: every size with every consumer count with
// every batch size, in that nesting order.
type Config struct {
	Lines     int `flag:"lines" usage:"lines the producer makes for each point"`
	LineBytes int `flag:"line-bytes" usage:"bytes in a line"`
	// Hashes sets how slow a consumer is against the producer.
	Hashes    int   `flag:"hashes" usage:"SHA-1 sums a consumer computes of each line"`
	Sizes     []int `flag:"size" usage:"channel buffer sizes S to sweep, in messages"`
	Consumers []int `flag:"consumers" usage:"consumer counts M to sweep"`
	Batches   []int `flag:"batch" usage:"batch sizes B to sweep, in lines per message"`
	// Seed: the same seed and Lines give the same lines, hence the same
	// checksum, at every point.
	Seed uint64 `flag:"seed" usage:"seed of the producer's random lines"`
}

// DefaultConfig is the article's experiment: 300-byte lines, 5 SHA-1 sums
// each, channel sizes 1 to 1000, 1 to 64 consumers, batches of 1 to 1000
// lines: 96 points of 0.15 to 0.6 s, 25 to 35 s per CPU count on a 2-CPU
// machine.
func DefaultConfig() Config {
	return Config{
		Lines:     50_000,
		LineBytes: 300,
		Hashes:    5,
		Sizes:     []int{1, 10, 100, 1000},
		Consumers: []int{1, 2, 4, 8, 16, 64},
		Batches:   []int{1, 10, 100, 1000},
		Seed:      1,
	}
}

// Limits past which a typo would take the machine's memory rather than
// measure anything (a point keeps 8 bytes for every 16th line).
const (
	maxConsumers = 1 << 16
	maxSize      = 1 << 20
	maxLineBytes = 1 << 20
	maxLines     = 100_000_000
)

// Validate implements lab.Validator.
func (c Config) Validate() error {
	if err := cmp.Or(
		lab.Within("lines", c.Lines, 1, maxLines, "lines per point"),
		lab.Within("line-bytes", c.LineBytes, 1, maxLineBytes, "bytes per line"),
		lab.AtLeast("hashes", c.Hashes, 1, "SHA-1 sum per line"),
		lab.NotEmpty("size", c.Sizes, "channel size"),
		lab.NotEmpty("consumers", c.Consumers, "consumer count"),
		lab.NotEmpty("batch", c.Batches, "batch size"),
		lab.Buffers("size", c.Sizes, maxSize, "a channel size", "messages"),
		lab.EachWithin("consumers", c.Consumers, 1, maxConsumers, "consumers"),
	); err != nil {
		return err
	}
	for _, b := range c.Batches {
		if b < 1 {
			return fmt.Errorf("batch %d: want at least 1 line per batch", b)
		}
	}
	return nil
}

// Variant names a point's combination: "S=10/M=4/B=100" for a channel of
// 10 messages, 4 consumers and batches of 100 lines.
func Variant(size, consumers, batch int) string {
	return fmt.Sprintf("S=%d/M=%d/B=%d", size, consumers, batch)
}

// Memory is what a point holds at most: the batches in the channel, in
// the consumers' hands and the producer's, of up to the largest batch of
// lines each (twice, as the garbage collector lets the heap grow to twice
// what is live), and the sampled lines' times.
func (c Config) Memory() (float64, string) {
	most := func(xs []int) int {
		m := 0
		for _, x := range xs {
			m = max(m, x)
		}
		return m
	}
	batch := min(most(c.Batches), c.Lines)
	inFlight := float64(most(c.Sizes)+most(c.Consumers)+2) * float64(batch) * float64(c.LineBytes)
	return 2*inFlight + float64(c.Lines)/sampleEvery*8,
		fmt.Sprintf("channels of up to --size %d batches of --batch %d lines of --line-bytes %d, and --consumers %d holding one each", most(c.Sizes), batch, c.LineBytes, most(c.Consumers))
}
