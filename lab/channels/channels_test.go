package channels

import (
	"context"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/lab/labtest"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// goleak checks after all tests that every pipeline's consumers exited,
// cancelled runs included.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// reference computes, one line after another with its own code, the count
// and checksum the pipeline must reach: the sum over lines of the first 8
// bytes of each line's 5th SHA-1 sum (all five are of the same line).
func reference(t *testing.T, c Config) uint64 {
	t.Helper()
	gen := newGenerator(c.Seed, c.LineBytes)
	var sum uint64
	for range c.Lines {
		line := gen.line()
		if len(line) != c.LineBytes {
			t.Fatalf("line of %d bytes, want %d", len(line), c.LineBytes)
		}
		for i := 0; i < len(line); i++ {
			if line[i] < ' ' || line[i] > '~' {
				t.Fatalf("byte %#x in a line: not printable ASCII", line[i])
			}
		}
		var d []byte
		for range c.Hashes {
			h := sha1.New()
			h.Write([]byte(line))
			d = h.Sum(nil)
		}
		sum += binary.BigEndian.Uint64(d)
	}
	return sum
}

// TestEveryLineOnce checks, exactly, that every line produced is consumed
// once and hashed right, whatever the channel size, consumer count and
// batch size, including batches that do not divide the lines and more
// consumers than batches.
func TestEveryLineOnce(t *testing.T) {
	c := DefaultConfig()
	c.Lines = 1001
	want := reference(t, c)
	for _, s := range []int{0, 1, 10} {
		for _, m := range []int{1, 3, 16} {
			for _, b := range []int{1, 7, 100, 5000} {
				out, err := pipeline(context.Background(), c, s, m, b)
				if err != nil {
					t.Fatal(err)
				}
				if out.lines != int64(c.Lines) || out.sum != want {
					t.Errorf("%s: %d lines, checksum %#x; want %d lines, checksum %#x", Variant(s, m, b), out.lines, out.sum, c.Lines, want)
				}
				if n, sampled := out.latency.TotalCount(), int64((c.Lines+sampleEvery-1)/sampleEvery); n != sampled {
					t.Errorf("%s: %d latencies sampled, want %d", Variant(s, m, b), n, sampled)
				}
			}
		}
	}
}

// TestSeed: the seed decides the lines, so another seed gives another
// checksum, and the same seed the same one.
func TestSeed(t *testing.T) {
	c := DefaultConfig()
	c.Lines, c.LineBytes, c.Hashes = 200, 40, 1
	a, b := reference(t, c), reference(t, c)
	c.Seed++
	if other := reference(t, c); a != b || a == other {
		t.Errorf("checksums %#x, %#x with one seed and %#x with another: want the first two equal and the third different", a, b, other)
	}
}

func TestBound(t *testing.T) {
	for _, tc := range []struct {
		p, c      float64
		m, cpus   int
		want      float64
		limitedBy string
	}{
		{600e3, 300e3, 3, 1, 200e3, "one CPU shared: 1/(1/p + 1/c)"},
		{600e3, 300e3, 1, 4, 300e3, "one consumer"},
		{600e3, 300e3, 3, 4, 600e3, "the producer"},
		{600e3, 300e3, 3, 2, 400e3, "two CPUs shared"},
		{600e3, 300e3, 64, 2, 400e3, "two CPUs shared, however many consumers"},
		{0, 300e3, 1, 1, 0, "no producer rate"},
	} {
		if got := Bound(tc.p, tc.c, tc.m, tc.cpus); got < tc.want*(1-1e-12) || got > tc.want*(1+1e-12) {
			t.Errorf("Bound(%g, %g, %d, %d) = %g, want %g (%s)", tc.p, tc.c, tc.m, tc.cpus, got, tc.want, tc.limitedBy)
		}
	}
}

func TestVariantNames(t *testing.T) {
	v := Variant(10, 4, 100)
	if v != "S=10/M=4/B=100" {
		t.Errorf("Variant(10, 4, 100) = %q", v)
	}
}

func TestValidate(t *testing.T) {
	labtest.Invalid(t, DefaultConfig, Run, []labtest.Case[Config]{
		{Flag: "lines", Edit: func(c *Config) { c.Lines = 0 }},
		{Flag: "lines", Edit: func(c *Config) { c.Lines = 1 << 40 }},
		{Flag: "line-bytes", Edit: func(c *Config) { c.LineBytes = 0 }},
		{Flag: "hashes", Edit: func(c *Config) { c.Hashes = -1 }},
		{Flag: "size", Edit: func(c *Config) { c.Sizes = nil }},
		{Flag: "size", Edit: func(c *Config) { c.Sizes = []int{10, -1} }},
		{Flag: "size", Edit: func(c *Config) { c.Sizes = []int{1 << 30} }},
		{Flag: "consumers", Edit: func(c *Config) { c.Consumers = []int{} }},
		{Flag: "consumers", Edit: func(c *Config) { c.Consumers = []int{0} }},
		{Flag: "consumers", Edit: func(c *Config) { c.Consumers = []int{1 << 20} }},
		{Flag: "batch", Edit: func(c *Config) { c.Batches = nil }},
		{Flag: "batch", Edit: func(c *Config) { c.Batches = []int{1, 0} }},
	})
}

// TestRun checks the points' contract on a small sweep.
func TestRun(t *testing.T) {
	c := Config{Lines: 2000, LineBytes: 100, Hashes: 2, Sizes: []int{0, 10}, Consumers: []int{1, 3}, Batches: []int{1, 100}, Seed: 7, Reps: 2}
	points, _ := labtest.RunLab(t, labtest.With(NewLab(), c), []int{1, 2}, 2*2*2*2, Unit, []results.Metric{MetricBound, MetricOfBound,
		MetricProducerRate, MetricConsumerRate, MetricChanSize, MetricConsumers, MetricBatchLines, MetricSpread})
	for _, p := range points {
		mt := p.Metrics
		s, m, b := int(mt[MetricChanSize]), int(mt[MetricConsumers]), int(mt[MetricBatchLines])
		if p.Variant() != Variant(s, m, b) {
			t.Errorf("%s: metrics %v do not match the variant", p.Variant(), mt)
		}
		if p.Par != m || p.Ops != int64(c.Lines) {
			t.Errorf("%s: %d consumers, %d lines", p.Variant(), p.Par, p.Ops)
		}
		if p.Dur.Seconds() <= 0 || p.Throughput <= 0 || p.Latency.P50 <= 0 || p.Latency.Max < p.Latency.P50 || p.Hist == "" {
			t.Errorf("%s cpus=%d: duration %g s, %g lines/s, latency %+v", p.Variant(), p.CPUs, p.Dur.Seconds(), p.Throughput, p.Latency)
		}
		for _, k := range []results.Metric{MetricBound, MetricOfBound, MetricProducerRate, MetricConsumerRate} {
			if !(mt[k] > 0) {
				t.Errorf("%s cpus=%d: metric %s = %g, want > 0", p.Variant(), p.CPUs, k, mt[k])
			}
		}
		if want := Bound(mt["producer_lines_per_s"], mt["consumer_lines_per_s"], m, p.CPUs); mt["bound_lines_per_s"] != want {
			t.Errorf("%s cpus=%d: bound %g, want %g", p.Variant(), p.CPUs, mt["bound_lines_per_s"], want)
		}
	}
}

// TestRunInterval: with 6 runs a point's share of the bound is the
// median of the runs', inside its interval, which its line gives.
func TestRunInterval(t *testing.T) {
	c := Config{Lines: 2000, LineBytes: 100, Hashes: 2, Sizes: []int{10}, Consumers: []int{3}, Batches: []int{1}, Seed: 7, Reps: lab.IntervalRuns()}
	points, told := labtest.RunLab(t, labtest.With(NewLab(), c), []int{1}, 1, Unit, []results.Metric{MetricBound, MetricOfBound,
		lab.Lo(MetricOfBound), lab.Hi(MetricOfBound), MetricProducerRate, MetricConsumerRate, MetricChanSize, MetricConsumers, MetricBatchLines, MetricSpread})
	lines := labtest.Lines(told, text.LabEvent)
	m := points[0].Metrics
	lo, share, hi := m[lab.Lo(MetricOfBound)], m[MetricOfBound], m[lab.Hi(MetricOfBound)]
	line := strings.ReplaceAll(lines[0], "\n  ", " ")
	if !(0 < lo && lo <= share && share <= hi) || !strings.Contains(line, fmt.Sprintf("%.0f [%.0f, %.0f] %% of the bound", 100*share, 100*lo, 100*hi)) {
		t.Errorf("share of the bound %g in [%g, %g]; line %q", share, lo, hi, line)
	}
}

// TestCancel: a cancelled run returns the points it finished and the
// context's error, and leaves no goroutine behind (TestMain).
func TestCancel(t *testing.T) {
	c := Config{Lines: 5000, LineBytes: 300, Hashes: 5, Sizes: []int{1}, Consumers: []int{2}, Batches: []int{1, 10, 100}, Seed: 1, Reps: 1}
	labtest.CancelAfter(t, labtest.With(NewLab(), c), []int{1}, text.LabEvent, "B=1:", 1)

	// Cancelled in the middle of a point: its producer stops early.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	c.Lines = 10_000_000
	start := time.Now()
	if _, err := pipeline(ctx, c, 1, 2, 1); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("pipeline past its deadline: %v, want context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("pipeline took %v to stop", d)
	}
}
