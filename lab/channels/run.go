package channels

import (
	"context"
	"crypto/sha1"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/results"
)

const Unit = "lines/s"

// sampleEvery is the stride of the latency sample: two clock reads are
// much beside a line's few microseconds of work.
const sampleEvery = 16

// aloneLines is how many lines each measurement of the producer or one
// consumer alone handles, about 30 ms. A point keeps the faster of those
// just before and after it: on a shared machine a loop's speed drifts by
// tens of percent from one second to the next.
const aloneLines = 2500

// Bound is the most lines per second X one producer and consumers
// consumers could reach on cpus CPUs, from their rates alone: a line
// costs 1/producer CPU-seconds to make and 1/consumer to hash, so
// X/producer + X/consumer ≤ cpus, X ≤ producer and X ≤ consumers × consumer.
func Bound(producer, consumer float64, consumers, cpus int) float64 {
	if producer <= 0 || consumer <= 0 || consumers < 1 || cpus < 1 {
		return 0
	}
	shared := float64(cpus) / (1/producer + 1/consumer)
	return min(producer, consumer*float64(consumers), shared)
}

// Run measures every combination of c's sizes, consumer counts and batch
// sizes at each CPU count, latency a line's from its making to the end of
// its hashes. A line lost or duplicated is an error.
func Run(ctx context.Context, c Config, cpus []int, progress func(results.LabEvent)) ([]results.Point, error) {
	return lab.Sweep(ctx, c, cpus, progress, func(n int, add lab.Add) error {
		for _, s := range c.Sizes {
			for _, m := range c.Consumers {
				for _, b := range c.Batches {
					p, ofBound, err := measurePoint(ctx, c, n, s, m, b)
					if err != nil {
						return err
					}
					add(p, results.LabPoint{Vs: results.Interval(ofBound)})
				}
			}
		}
		return nil
	})
}

// measurePoint runs one combination on n CPUs c.Reps times, between two
// measurements of the producer and one consumer alone: the point is the
// median run's, its share of the bound the median of the runs'.
func measurePoint(ctx context.Context, c Config, n, size, consumers, batch int) (results.Point, lab.Interval, error) {
	prod, cons, err := aloneRates(ctx, c)
	if err != nil {
		return results.Point{}, lab.Interval{}, err
	}
	outs, err := lab.Repeat(ctx, c.Reps, func() (outcome, error) { return pipeline(ctx, c, size, consumers, batch) })
	if err != nil {
		return results.Point{}, lab.Interval{}, err
	}
	out, w, rates := lab.Median(outs, func(o outcome) sweep.Window { return o.window },
		func(o outcome) float64 { return float64(o.lines) / o.window.Wall.Seconds() })
	spread := (slices.Max(rates) - slices.Min(rates)) / (float64(out.lines) / out.window.Wall.Seconds())
	// Cancelled now, the point is whole: it keeps the rates from before.
	if prod2, cons2, err := aloneRates(ctx, c); err == nil {
		prod, cons = max(prod, prod2), max(cons, cons2)
	}
	v := Variant(size, consumers, batch)
	if out.lines != int64(c.Lines) {
		return results.Point{}, lab.Interval{}, fmt.Errorf("channels %s cpus=%d: consumed %d lines of %d", v, n, out.lines, c.Lines)
	}
	bound := Bound(prod, cons, consumers, n)
	ofBound := lab.IntervalOf(collect.Mapped(rates, func(r float64) float64 { return r / bound }))
	p, err := lab.Timing{Window: w, Par: consumers, Ops: out.lines, Hist: out.latency}.Point(Name, v, n, Unit,
		map[results.Metric]float64{
			MetricBound:        bound,
			MetricProducerRate: prod,
			MetricConsumerRate: cons,
			MetricChanSize:     float64(size),
			MetricConsumers:    float64(consumers),
			MetricBatchLines:   float64(batch),
			MetricSpread:       spread,
		})
	ofBound.Set(&p, MetricOfBound)
	return p, ofBound, err
}

type outcome struct {
	lines   int64
	sum     uint64
	window  sweep.Window // from starting the consumers to the last one's exit
	latency *hdrhistogram.Histogram
}

// batch is one message: lines, the first of which is the first-th line
// produced, for a consumer to find a sampled line's birth time.
type batch struct {
	first int
	lines []string
}

// tally is what one consumer did: the lines it hashed, and the sum of the
// first 8 bytes of each's last SHA-1.
type tally struct {
	lines int64
	sum   uint64
}

// pipeline makes c.Lines lines and hands them, batchLines a message,
// through a channel of size to consumers goroutines.
func pipeline(ctx context.Context, c Config, size, consumers, batchLines int) (outcome, error) {
	gen := newGenerator(c.Seed, c.LineBytes)
	// born[k] is when line k·sampleEvery was made, in ns since base, till
	// its consumer makes it the line's latency.
	born := make([]int64, (c.Lines+sampleEvery-1)/sampleEvery)
	ch := make(chan batch, size)
	tallies := make([]tally, consumers)
	var wg sync.WaitGroup

	sw := sweep.StartStopwatch()
	base := sw.Start()
	for i := range tallies {
		wg.Go(func() { tallies[i] = consume(ch, c.Hashes, born, base) })
	}
	var cancelled error
	sinceCheck := 0
	for first := 0; first < c.Lines; first += batchLines {
		lines := make([]string, min(batchLines, c.Lines-first))
		for j := range lines {
			lines[j] = gen.line()
			if k := first + j; k%sampleEvery == 0 {
				born[k/sampleEvery] = int64(time.Since(base))
			}
		}
		ch <- batch{first: first, lines: lines}
		if sinceCheck += len(lines) * c.LineBytes; sinceCheck >= 256<<10 {
			if sinceCheck, cancelled = 0, ctx.Err(); cancelled != nil {
				break
			}
		}
	}
	close(ch)
	wg.Wait()
	window := sw.Stop()
	if cancelled != nil {
		return outcome{}, cancelled
	}

	out := outcome{window: window, latency: lab.NewHist(time.Hour)}
	for _, t := range tallies {
		out.lines += t.lines
		out.sum += t.sum
	}
	for _, lat := range born {
		lab.Record(out.latency, lat)
	}
	return out, nil
}

// consume hashes every line of ch's batches, and records the sampled
// lines' latencies into born.
func consume(ch <-chan batch, hashes int, born []int64, base time.Time) tally {
	var t tally
	var buf []byte
	for b := range ch {
		for j, line := range b.lines {
			buf = append(buf[:0], line...)
			t.sum += hashLine(buf, hashes)
			t.lines++
			if k := b.first + j; k%sampleEvery == 0 {
				born[k/sampleEvery] = int64(time.Since(base)) - born[k/sampleEvery]
			}
		}
	}
	return t
}

// hashLine computes hashes SHA-1 sums of line, as the article's consumer
// does, and returns the first 8 bytes of the last, big-endian.
func hashLine(line []byte, hashes int) uint64 {
	var d [sha1.Size]byte
	for range hashes {
		d = sha1.Sum(line)
	}
	return binary.BigEndian.Uint64(d[:8])
}

// generator makes the producer's lines, random printable ASCII.
type generator struct {
	rng *rand.Rand
	buf []byte
}

func newGenerator(seed uint64, lineBytes int) *generator {
	return &generator{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), buf: make([]byte, lineBytes)}
}

// line returns a new line, each random byte scaled onto the 95 printable
// characters by a multiply and a shift: as cheap as masking, nearly even.
func (g *generator) line() string {
	var u uint64
	for i := range g.buf {
		if i%8 == 0 {
			u = g.rng.Uint64()
		}
		g.buf[i] = ' ' + byte(uint16(byte(u))*95>>8)
		u >>= 8
	}
	return string(g.buf)
}

// aloneRates measures the producer and then one consumer on their own.
func aloneRates(ctx context.Context, c Config) (producer, consumer float64, err error) {
	if err := ctx.Err(); err != nil {
		return 0, 0, err
	}
	n := max(1, min(c.Lines/10, aloneLines))
	runtime.GC()
	gen := newGenerator(c.Seed, c.LineBytes)
	lines := make([]string, n)
	t := time.Now()
	for i := range lines {
		lines[i] = gen.line() // kept, as a batch keeps them, so that they cost what they cost there
	}
	producer = float64(n) / time.Since(t).Seconds()

	var buf []byte
	var sink uint64
	t = time.Now()
	for _, line := range lines {
		buf = append(buf[:0], line...)
		sink += hashLine(buf, c.Hashes)
	}
	consumer = float64(n) / time.Since(t).Seconds()
	runtime.KeepAlive(sink)
	return producer, consumer, nil
}
