package aggregate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/brewput/brewput/internal/base/race"
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/lab/labtest"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// goleak checks after all tests that every producer and consumer exited,
// cancelled runs included.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// reference counts, with the streams alone, the events of each type the
// producers make: what every run must hand out.
func reference(c Config, producers int) (counts [types]int64, sampled int64) {
	for i := range producers {
		s := newStream(c.Seed, i, c.RunLength)
		n := lab.Share(c.Events, producers, i)
		for range n {
			counts[s.next()]++
		}
		sampled += int64((n + sampleEvery - 1) / sampleEvery)
	}
	return counts, sampled
}

// TestEveryEventHandled checks, exactly, that every event made is handled
// once, by type, both ways, for many producer counts and buffer sizes,
// with events that do not split evenly between the producers and
// producers that make none; and that the grouped consumer never makes
// fewer calls than the stream it received has runs (it cannot group
// across a change of type) while the single one makes one per event.
func TestEveryEventHandled(t *testing.T) {
	c := DefaultConfig()
	c.Events, c.HandleCost = 5003, 0
	if race.Enabled {
		c.Events = 1003
	}
	for _, p := range []int{1, 2, 3, 8, 17, 1200} {
		want, sampled := reference(c, p)
		for _, s := range []int{0, 1, 7, 100, 10_000} {
			for _, grouped := range []bool{false, true} {
				v := Variant(map[bool]string{false: Single, true: Grouped}[grouped], p, s)
				out, err := pipeline(context.Background(), c, grouped, p, s)
				if err != nil {
					t.Fatalf("%s: %v", v, err)
				}
				if err := out.check(grouped); err != nil || out.handled != want || out.lost() != 0 {
					t.Errorf("%s: handled %v, want %v (check: %v)", v, out.handled, want, err)
				}
				if !grouped && out.calls != out.events {
					t.Errorf("%s: %d calls for %d events", v, out.calls, out.events)
				}
				if grouped && out.calls != out.streamRuns {
					t.Errorf("%s: %d calls for %d events in %d runs", v, out.calls, out.events, out.streamRuns)
				}
				if n := out.latency.TotalCount(); n != sampled {
					t.Errorf("%s: %d latencies, want %d", v, n, sampled)
				}
			}
		}
	}
}

// TestHandleCost: each handle call costs HandleCost, so grouping is what
// saves time: the single consumer's run takes at least events × cost.
func TestHandleCost(t *testing.T) {
	c := DefaultConfig()
	c.Events, c.HandleCost = 500, 100*time.Microsecond
	out, err := pipeline(context.Background(), c, false, 2, 10)
	if err != nil {
		t.Fatal(err)
	}
	if least := time.Duration(c.Events) * c.HandleCost; out.window.Wall < least {
		t.Errorf("%d handle calls of %v took %v in all", out.calls, c.HandleCost, out.window.Wall)
	}
}

// TestStreams: the same seed gives a producer the same events; runs as
// made have the mean length asked for and each is of another type than
// the one before it.
func TestStreams(t *testing.T) {
	const n = 200_000
	for _, mean := range []float64{1, 3, 8} {
		a, b, other := newStream(5, 2, mean), newStream(5, 2, mean), newStream(5, 3, mean)
		evs := make([]Type, n)
		same := true
		for i := range evs {
			evs[i] = a.next()
			if evs[i] != b.next() {
				t.Fatalf("run length %g: two streams of one seed differ at event %d", mean, i)
			}
			same = same && evs[i] == other.next()
		}
		if same {
			t.Errorf("run length %g: producers 2 and 3 make the same events", mean)
		}
		// Runs as made are the maximal runs, since each differs in type
		// from the one before; their mean is within 3 % of the one asked for
		// (a geometric mean of 8 has a standard error of 0.05 % here).
		var runs []call
		g := NewGrouper(record(&runs))
		for _, e := range evs {
			g.Add(e)
		}
		g.Flush()
		if got := float64(n) / float64(len(runs)); math.Abs(got/mean-1) > 0.03 {
			t.Errorf("run length %g: runs of %.3f events on average", mean, got)
		}
		var byType [types]int
		for _, r := range runs {
			byType[r.t]++
		}
		for ty, k := range byType {
			if k < len(runs)/4 {
				t.Errorf("run length %g: %d runs of %v of %d", mean, k, Type(ty), len(runs))
			}
		}
	}
}

func TestVariantNames(t *testing.T) {
	v := Variant(Grouped, 4, 100)
	if v != "grouped/P=4/S=100" {
		t.Errorf("Variant(grouped, 4, 100) = %q", v)
	}
}

func TestValidate(t *testing.T) {
	labtest.Invalid(t, DefaultConfig, Run, []labtest.Case[Config]{
		{Flag: "events", Edit: func(c *Config) { c.Events = 0 }},
		{Flag: "events", Edit: func(c *Config) { c.Events = 1 << 40 }},
		{Flag: "producers", Edit: func(c *Config) { c.Producers = nil }},
		{Flag: "producers", Edit: func(c *Config) { c.Producers = []int{2, 0} }},
		{Flag: "producers", Edit: func(c *Config) { c.Producers = []int{1 << 30} }},
		{Flag: "buffers", Edit: func(c *Config) { c.Buffers = []int{} }},
		{Flag: "buffers", Edit: func(c *Config) { c.Buffers = []int{10, -1} }},
		{Flag: "buffers", Edit: func(c *Config) { c.Buffers = []int{1 << 30} }},
		{Flag: "run-length", Edit: func(c *Config) { c.RunLength = 0.5 }},
		{Flag: "run-length", Edit: func(c *Config) { c.RunLength = math.NaN() }},
		{Flag: "run-length", Edit: func(c *Config) { c.RunLength = math.Inf(1) }},
		{Flag: "handle-cost", Edit: func(c *Config) { c.HandleCost = -time.Microsecond }},
		{Flag: "handle-cost", Edit: func(c *Config) { c.HandleCost = time.Hour }},
		{Flag: "reps", Edit: func(c *Config) { c.Reps = 0 }},
		{Flag: "reps", Edit: func(c *Config) { c.Reps = 1 << 20 }},
	})
}

// TestRun checks the points' contract on a small sweep.
func TestRun(t *testing.T) {
	c := Config{Events: 3000, Producers: []int{1, 3}, Buffers: []int{0, 50}, RunLength: 4, HandleCost: time.Microsecond, Seed: 9, Reps: lab.IntervalRuns()}
	cpus := []int{1, 2}
	points, told := labtest.RunLab(t, labtest.With(NewLab(), c), cpus, len(cpus)*2*2*2, Unit, []results.Metric{MetricProducers, MetricBuffer,
		MetricEvents, MetricCalls, MetricEventsPerCall, MetricStreamRunLength, MetricLost, MetricSpeedup, MetricRunLength,
		MetricHandleCostUs, lab.Lo(MetricSpeedup), lab.Hi(MetricSpeedup)})
	lines := labtest.Lines(told, text.LabEvent)
	for i, p := range points {
		m := p.Metrics
		st, np, s := []string{Single, Grouped}[i%2], int(m[MetricProducers]), int(m[MetricBuffer])
		if p.Variant() != Variant(st, np, s) {
			t.Errorf("point %d is %s, want %s: single and grouped alternate, with the P and S of their metrics", i, p.Variant(), Variant(st, np, s))
		}
		if p.Par != np || p.Ops != int64(c.Events) || p.Metrics[results.Errors] != 0 {
			t.Errorf("%s: %d producers, %d events, %.0f errors", p.Variant(), p.Par, p.Ops, p.Metrics[results.Errors])
		}
		if p.Dur.Seconds() <= 0 || p.Throughput <= 0 || math.Abs(p.Throughput*p.Dur.Seconds()/float64(c.Events)-1) > 1e-9 ||
			p.Latency.P50 <= 0 || p.Latency.Max < p.Latency.P50 || p.Hist == "" || p.Metrics[results.CPUUsed] <= 0 {
			t.Errorf("%s cpus=%d: duration %g s, %g events/s, cpu %g, latency %+v", p.Variant(), p.CPUs, p.Dur.Seconds(), p.Throughput, p.Metrics[results.CPUUsed], p.Latency)
		}
		if m["events"] != float64(c.Events) || m["lost"] != 0 ||
			m["run_length"] != c.RunLength || m["handle_cost_us"] != 1 || !(p.Metrics[results.Util] > 0) {
			t.Errorf("%s: metrics %v do not match the variant and config", p.Variant(), m)
		}
		if epc := m["events"] / m["calls"]; m["events_per_call"] != epc || epc < 1 || (st == Grouped && epc != m["stream_run_length"]) {
			t.Errorf("%s: %g events per call, %g calls, stream runs of %g", p.Variant(), m["events_per_call"], m["calls"], m["stream_run_length"])
		}
		if st == Single && m["events_per_call"] != 1 {
			t.Errorf("%s: %g events per call one by one", p.Variant(), m["events_per_call"])
		}
		sp, ok := m["speedup"]
		if st == Single && ok {
			t.Errorf("%s has a speedup", p.Variant())
		}
		// The median of the paired runs' ratios, in its interval.
		lo, hi := m[lab.Lo(MetricSpeedup)], m[lab.Hi(MetricSpeedup)]
		line := strings.ReplaceAll(lines[i], "\n  ", " ")
		if st == Grouped && (!ok || !(0 < lo && lo <= sp && sp <= hi) || !strings.Contains(line, fmt.Sprintf("×%.2f [%.2f, %.2f]", sp, lo, hi))) {
			t.Errorf("%s: speedup %g in [%g, %g]; line %q", p.Variant(), sp, lo, hi, line)
		}
	}
}

// TestCancel: a cancelled run returns the points it finished and the
// context's error, and leaves no goroutine behind (TestMain).
func TestCancel(t *testing.T) {
	c := Config{Events: 2000, Producers: []int{2}, Buffers: []int{1, 10, 100}, RunLength: 8, HandleCost: time.Microsecond, Seed: 1, Reps: 1}
	labtest.CancelAfter(t, labtest.With(NewLab(), c), []int{1}, text.LabEvent, "S=1:", 2)

	// Cancelled in the middle of a point: the producers stop early and
	// the consumer handles what they had sent.
	c.Events = 50_000_000
	for _, grouped := range []bool{false, true} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		start := time.Now()
		if _, err := pipeline(ctx, c, grouped, 4, 1000); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("pipeline past its deadline: %v, want context.DeadlineExceeded", err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("pipeline took %v to stop", d)
		}
		cancel()
	}
}

// The flags set the configuration's fields.
func TestBind(t *testing.T) {
	want := Config{Events: 100, Producers: []int{1, 2}, Buffers: []int{0, 8}, RunLength: 3, HandleCost: 5 * time.Microsecond, Seed: 4, Reps: 2}
	labtest.Binds(t, NewLab(), want, "--events", "100", "--producers", "1,2", "--buffers", "0,8", "--run-length", "3", "--handle-cost", "5us", "--seed", "4", "--reps", "2")
	if err := labtest.Bind(NewLab(), "--handle-cost", "x"); err == nil || !strings.Contains(err.Error(), "want a duration such as") {
		t.Errorf("--handle-cost x: %v", err)
	}
}
