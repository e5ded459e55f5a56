package workloads

import (
	"context"
	"fmt"
	"runtime"

	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/results"
)

// variant is one way of doing one workload, ready to be timed.
type variant struct {
	name string // "add/concurrent"
	par  int    // goroutines doing the work
	ops  int64  // work items per run
	unit string // throughput unit: ops per second
	// prepare runs untimed before each run (a fresh unsorted copy for a
	// sort), do is the run that is timed, and check says, untimed, whether
	// its answer was right.
	prepare func()
	do      func() error
	check   func() error
}

// measure runs each variant reps times, taking them in turn within each
// repetition, so that a slow spell of a noisy machine falls on all of them
// alike rather than on one, and their ratio, the lesson, survives it. It
// stops with ctx's error before the next run once ctx is done, and with an
// error at the first wrong answer.
func measure(ctx context.Context, reps int, vs []variant) ([]lab.Runs, error) {
	ts := make([]lab.Runs, len(vs))
	for range reps {
		for i, v := range vs {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if v.prepare != nil {
				v.prepare()
			}
			runtime.GC() // the last run's garbage is not this run's to collect
			sw := lab.StartStopwatch()
			err := v.do()
			d, cpu := sw.Stop()
			if err != nil {
				return nil, fmt.Errorf("%s on %d CPUs: %w", v.name, runtime.GOMAXPROCS(0), err)
			}
			if err := v.check(); err != nil {
				return nil, fmt.Errorf("%s on %d CPUs: wrong answer: %w", v.name, runtime.GOMAXPROCS(0), err)
			}
			ts[i].Add(sw.Start, d, cpu)
		}
	}
	return ts, nil
}

// point makes the results point of variant v measured as t on n CPUs.
func point(v variant, t lab.Runs, n int, speedup float64) results.Point {
	lat := t.Latency()
	med := lat.P50 / 1000
	cpuUsed := t.CPUsUsed()
	var tput float64
	if med > 0 {
		tput = float64(v.ops) / med
	}
	p := lab.Point(Name, v.name, n, t.Start, cpuUsed, map[results.Metric]float64{MetricSpeedup: speedup, MetricMedianMs: lat.P50})
	p.Par, p.Ops, p.Unit = v.par, v.ops, v.unit
	p.DurS, p.Throughput, p.Latency = med, tput, lat
	return p
}
