package limits_test

import (
	"context"
	"errors"
	"testing"

	"github.com/brewput/brewput/explain/limits"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
)

// Simulate hands each point to add in order, numbers the rounds, and
// stops at add's first error, returning the points added before it as
// they were, and the error as it is.
func TestSimulate(t *testing.T) {
	cfgs := []model.Config{fifo("locking", 2), fifo("ideal", 1), fifo("locking", 1)}
	var got []results.Point
	add := func(p *results.Point) error { got = append(got, *p); return nil }
	points, err := limits.Simulate(context.Background(), cfgs, 2, add)
	if err != nil {
		t.Fatal(err)
	}
	if len(points) != 6 || len(got) != 6 {
		t.Fatalf("%d points, %d added; want 6", len(points), len(got))
	}
	for i, p := range points {
		if want := i/len(cfgs) + 1; p.Rep != want || p.CPUs != cfgs[i%len(cfgs)].CPUs || p.Bottleneck == nil || got[i].Rep != want {
			t.Errorf("point %d: rep %d, cpus %d, bottleneck %v; want rep %d, cpus %d, a bottleneck", i, p.Rep, p.CPUs, p.Bottleneck, want, cfgs[i%len(cfgs)].CPUs)
		}
	}
	stop := errors.New("stop")
	n := 0
	points, err = limits.Simulate(context.Background(), cfgs, 1, func(*results.Point) error {
		if n++; n == 2 {
			return stop
		}
		return nil
	})
	if err != stop || len(points) != 1 {
		t.Errorf("add failing at the second point: %d points, %v; want 1, %v", len(points), err, stop)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if points, err := limits.Simulate(ctx, cfgs, 1, add); !errors.Is(err, context.Canceled) || len(points) != 0 {
		t.Errorf("cancelled: %d points, %v; want none, %v", len(points), err, context.Canceled)
	}
}
