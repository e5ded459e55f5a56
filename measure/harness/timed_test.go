package harness_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/brewput/brewput/internal/base/race"
	"github.com/brewput/brewput/measure/harness"
	"github.com/brewput/brewput/measure/quiet/quiettest"
	"github.com/brewput/brewput/results"
)

// spin occupies the CPU for d, like a shop's step.
func spin(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}

// TestOpenLoopAboveCapacityDropsAndQueues and the next are timing checks
// of effects of 3× and 20×, under the quiet guard: a machine busy enough to
// starve this process for a tenth of a second would queue, drop or stretch
// service times on its own.
func TestOpenLoopAboveCapacityDropsAndQueues(t *testing.T) {
	// One server of 2 ms ops can serve 500/s; offer 1500/s.
	timed(t, results.Load{
		Par: 1, Rate: 1500, MaxQ: 10,
		Warmup: 100 * time.Millisecond, Dur: 400 * time.Millisecond,
	}, func() error { spin(2 * time.Millisecond); return nil }, func(res harness.Result) error {
		if res.Drops == 0 {
			return errors.New("no drops at 3x capacity")
		}
		if got := res.Throughput(); got > 600 {
			return fmt.Errorf("throughput %.0f/s above the 500/s capacity", got)
		}
		// Waiting in a full queue of 10 makes latency several service times.
		p50, svc := time.Duration(res.Latency.ValueAtPercentile(50)), time.Duration(res.Service.ValueAtPercentile(50))
		if p50 < 4*svc {
			return fmt.Errorf("p50 latency %v is under 4x the service time %v; want queueing", p50, svc)
		}
		return nil
	})
}

// timed runs l on op, under the quiet guard, and checks its result,
// measuring again while check fails on a disturbed machine; it skips
// under the race detector, whose timing says nothing about queueing.
func timed(t *testing.T, l results.Load, op harness.Op, check func(harness.Result) error) {
	t.Helper()
	if race.Enabled {
		t.Skip("timing under the race detector says nothing about queueing")
	}
	quiettest.Retry(t, func() error {
		res, err := harness.Run(context.Background(), l, op, nil)
		if err != nil {
			t.Fatal(err)
		}
		return check(res)
	})
}

func TestOpenLoopBelowCapacityNeitherDropsNorQueues(t *testing.T) {
	// 2 servers of 1 ms ops offered 100/s: each order finds a server free.
	timed(t, results.Load{
		Par: 2, Rate: 100, MaxQ: 10,
		Warmup: 50 * time.Millisecond, Dur: 500 * time.Millisecond,
	}, func() error { time.Sleep(time.Millisecond); return nil }, func(res harness.Result) error {
		if res.Drops != 0 {
			return fmt.Errorf("%d drops at a tenth of capacity", res.Drops)
		}
		if res.Ops < 40 || res.Ops > 60 {
			return fmt.Errorf("%d ops in 0.5 s at 100/s; want about 50", res.Ops)
		}
		if p50 := time.Duration(res.Latency.ValueAtPercentile(50)); p50 > 20*time.Millisecond {
			return fmt.Errorf("p50 latency %v; want close to the 1 ms service time", p50)
		}
		return nil
	})
}
