package sweep

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/brewput/brewput/results"
)

// fakeRuns is a measurement that gives the points of others in turn: the
// CPU other processes took from each, on a 2-core machine, 1 CPU used.
func fakeRuns(others ...float64) (func(context.Context) (results.Point, error), *int) {
	calls := 0
	return func(context.Context) (results.Point, error) {
		o := others[min(calls, len(others)-1)]
		calls++
		return results.Point{Spec: results.Spec{Mode: "locking", CPUs: 1}, Trust: results.Trust{OthersCPUs: o}, Throughput: 100 * float64(calls), Host: results.Host{Cores: 2}}, nil
	}, &calls
}

// TestRetryKeepsTheLeastDisturbed: a disturbed measurement is taken again
// up to Attempts in all, and the least disturbed one is kept with the
// number of attempts; a quiet one ends it; the zero Retry keeps the first.
func TestRetryKeepsTheLeastDisturbed(t *testing.T) {
	// On 1 CPU of 2, one core is the others': 1.2 and more is disturbed.
	for _, c := range []struct {
		name         string
		rt           Retry
		others       []float64
		calls, kept  int // measurements taken; which one (1-based) is kept
		attempts     int
		disturbed    bool
		toldAttempts []int
	}{
		{"quiet at once", Retry{Attempts: 4}, []float64{0.5}, 1, 1, 1, false, nil},
		{"quiet on the third", Retry{Attempts: 4}, []float64{2, 1.6, 0.3}, 3, 3, 3, false, []int{1, 2}},
		{"never quiet, the least disturbed kept", Retry{Attempts: 3}, []float64{1.9, 1.4, 1.7}, 3, 2, 3, true, []int{1, 2}},
		{"zero Retry keeps the first", Retry{}, []float64{1.9, 0.1}, 1, 1, 0, true, nil},
	} {
		run, calls := fakeRuns(c.others...)
		var told []int
		p, err := Quietly(context.Background(), c.rt, run, func(_ results.Point, attempt int, _ time.Duration, _ bool) {
			told = append(told, attempt)
		})
		if err != nil || *calls != c.calls || p.Throughput != 100*float64(c.kept) || p.Attempts != c.attempts || p.Disturbed != c.disturbed || !slices.Equal(told, c.toldAttempts) {
			t.Errorf("%s: %v; %d measurements, kept the one of throughput %v with %d attempts, disturbed %v, told %v; want %d, the %dth, %d attempts, disturbed %v, told %v",
				c.name, err, *calls, p.Throughput, p.Attempts, p.Disturbed, told, c.calls, c.kept, c.attempts, c.disturbed, c.toldAttempts)
		}
	}
}

// TestRetryStopsWhenCancelled: waiting for a quiet machine ends with the
// context, keeping the measurement it has.
func TestRetryStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	run, calls := fakeRuns(1.9)
	p, err := Quietly(ctx, Retry{Attempts: 4, Wait: time.Hour}, run, nil)
	if !errors.Is(err, context.Canceled) || *calls != 1 || p.Throughput != 100 {
		t.Errorf("%v after %d measurements, kept %v; want context.Canceled after 1, the first kept", err, *calls, p.Throughput)
	}
}

// TestRetryEndsByUntil: a disturbed measurement is not taken again where
// waiting and measuring once more would end after Until (a why's time
// limit): the least disturbed so far is kept, and nothing is waited for.
func TestRetryEndsByUntil(t *testing.T) {
	run, calls := fakeRuns(1.9, 0.1)
	began := time.Now()
	p, err := Quietly(context.Background(), Retry{Attempts: 4, Wait: time.Hour, Until: time.Now().Add(time.Minute)}, run, nil)
	if err != nil || *calls != 1 || !p.Disturbed || time.Since(began) > 10*time.Second {
		t.Errorf("%v after %d measurements in %v, kept disturbed %v; want the first kept, disturbed, no wait", err, *calls, time.Since(began), p.Disturbed)
	}
	run, calls = fakeRuns(1.9, 0.1)
	p, err = Quietly(context.Background(), Retry{Attempts: 4, Wait: time.Millisecond, Until: time.Now().Add(time.Hour)}, run, nil)
	if err != nil || *calls != 2 || p.Disturbed {
		t.Errorf("%v after %d measurements, kept disturbed %v; want a second, quiet, well before Until", err, *calls, p.Disturbed)
	}
}
