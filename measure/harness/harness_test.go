package harness

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"go.uber.org/goleak"

	"github.com/brewput/brewput/results"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// exactPercentile is the value at rank round(p/100·n) (1-based), the rank
// rule the HDR histogram uses, read off a sorted array.
func exactPercentile(sorted []int64, p float64) int64 {
	rank := int(p/100*float64(len(sorted)) + 0.5)
	rank = max(1, min(rank, len(sorted)))
	return sorted[rank-1]
}

func TestHistogramAgreesWithSortedArray(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	values := make([]int64, 100_000)
	h := NewHistogram()
	for i := range values {
		// latencies from 1 µs to ~1 s, log-uniform, like real ones
		values[i] = int64(float64(int64(1000)<<r.IntN(20)) * (1 + r.Float64()))
		record(h, time.Duration(values[i]))
	}
	slices.Sort(values)
	if h.TotalCount() != int64(len(values)) {
		t.Fatalf("histogram holds %d values, want %d", h.TotalCount(), len(values))
	}
	for _, p := range []float64{0.1, 5, 25, 50, 75, 90, 95, 99, 99.9, 100} {
		got, want := h.ValueAtPercentile(p), exactPercentile(values, p)
		// 3 significant digits: within 0.1 % of the exact value
		if diff := float64(got - want); diff < 0 || diff > float64(want)/1000 {
			t.Errorf("p%v = %d, sorted array says %d (want within +0.1 %%)", p, got, want)
		}
	}
	if h.Min() > values[0] || float64(values[0]-h.Min()) > float64(values[0])/1000 {
		t.Errorf("min = %d, want %d", h.Min(), values[0])
	}
	if max := values[len(values)-1]; h.Max() < max || float64(h.Max()-max) > float64(max)/1000 {
		t.Errorf("max = %d, want %d", h.Max(), max)
	}
}

func TestMergedHistogramsEqualOneOfAllValues(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	all := NewHistogram()
	parts := []*hdrhistogram.Histogram{NewHistogram(), NewHistogram(), NewHistogram()}
	for i := range 30_000 {
		d := time.Duration(r.Int64N(int64(50 * time.Millisecond)))
		record(all, d)
		record(parts[i%3], d)
	}
	merged := NewHistogram()
	for _, p := range parts {
		if dropped := merged.Merge(p); dropped != 0 {
			t.Fatalf("merge dropped %d values", dropped)
		}
	}
	if !merged.Equals(all) {
		t.Fatal("merged histogram differs from the histogram of all values")
	}
}

func TestClosedLoopCountsOnlyTheWindow(t *testing.T) {
	var calls atomic.Int64
	var edges []Edge
	res, err := Run(context.Background(), results.Load{
		Par:    2,
		Warmup: 50 * time.Millisecond,
		Dur:    200 * time.Millisecond,
	}, func() error {
		calls.Add(1)
		time.Sleep(time.Millisecond)
		return nil
	}, func(e Edge) { edges = append(edges, e) })
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(edges, []Edge{WindowStart, WindowEnd}) {
		t.Errorf("OnWindow saw %v, want start then end", edges)
	}
	if res.Ops <= 0 || res.Ops >= calls.Load() {
		t.Errorf("counted %d ops of %d calls; want some, and fewer than all (warm-up is not counted)", res.Ops, calls.Load())
	}
	if res.Latency.TotalCount() != res.Ops {
		t.Errorf("histogram holds %d latencies for %d ops", res.Latency.TotalCount(), res.Ops)
	}
	if res.Window <= 0 {
		t.Errorf("window = %v; want a window", res.Window)
	}
	// A sleep of 1 ms takes at least 1 ms: the recorded minimum says so.
	if min := time.Duration(res.Latency.Min()); min < time.Millisecond {
		t.Errorf("min latency %v is below the 1 ms the op sleeps", min)
	}
	if res.Service != nil {
		t.Error("closed loop has a service histogram; want nil")
	}
}

func TestErrorsAreCounted(t *testing.T) {
	var n atomic.Int64
	res, err := Run(context.Background(), results.Load{Par: 1, Dur: 50 * time.Millisecond}, func() error {
		if n.Add(1)%2 == 0 {
			return errors.New("burnt")
		}
		time.Sleep(100 * time.Microsecond)
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Errors == 0 || res.Errors > res.Ops {
		t.Errorf("errors = %d of %d ops; want about half", res.Errors, res.Ops)
	}
}

func TestCancelStopsEarlyWithoutResult(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	for _, rate := range []float64{0, 100} {
		start := time.Now()
		_, err := Run(ctx, results.Load{Par: 2, Rate: rate, Dur: time.Hour}, func() error {
			time.Sleep(time.Millisecond)
			return nil
		}, nil)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("rate %v: err = %v, want the context's", rate, err)
		}
		if time.Since(start) > 5*time.Second {
			t.Errorf("rate %v: cancelled run took %v to stop", rate, time.Since(start))
		}
	}
}

func TestValidate(t *testing.T) {
	noop := func() error { return nil }
	for _, c := range []results.Load{
		{Par: -1, Dur: time.Second},
		{Par: 1, Dur: 0},
		{Par: 1, Dur: time.Second, Warmup: -1},
		{Par: 1, Dur: time.Second, Rate: -1},
		{Par: 1, Dur: time.Second, Rate: 1, MaxQ: -1},
		{Par: 1, Dur: time.Second, Harness: "other"},
	} {
		if _, err := Run(context.Background(), c, noop, nil); err == nil {
			t.Errorf("Run(%+v) accepted a bad load", c)
		}
	}
	if _, err := Run(context.Background(), results.Load{Par: 1, Dur: time.Second}, nil, nil); !errors.Is(err, ErrNoOp) {
		t.Errorf("nil op: err = %v, want ErrNoOp", err)
	}
}
