package calibrate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/measure/host"
	"github.com/brewput/brewput/measure/quiet"
	"github.com/brewput/brewput/model/curves"
	"github.com/brewput/brewput/results"
	"golang.org/x/perf/benchmath"
)

// Defaults: how many times each microbenchmark runs per repeat, and how
// many repeats give each cost its confidence interval. Six repeats are
// the fewest whose least and most bound a median with 95 % confidence.
const (
	Samples = 100
	Repeats = 6
)

// Options say how Measure measures; zero takes the defaults.
type Options struct {
	Samples int // per repeat
	Repeats int
	// NoCurves leaves the contention curves out (tests of the costs).
	NoCurves bool
	// Curves says how the contention curves are measured; zero takes
	// their defaults (tests of the wiring measure them briefly).
	Curves curves.Options
}

// Measure runs each microbenchmark opt.Samples times in each of
// opt.Repeats repeats, under GOMAXPROCS 1 or 2, and returns each cost's
// median, interval and distribution on this Host; the Note says what it
// could not measure here. It does not wait for a quiet machine.
func Measure(ctx context.Context, opt Options) (Calibration, error) {
	if opt.Samples == 0 {
		opt.Samples = Samples
	}
	if opt.Repeats == 0 {
		opt.Repeats = Repeats
	}
	if opt.Samples < 5 {
		return Calibration{}, fmt.Errorf("calibrate: %d samples; want at least 5", opt.Samples)
	}
	if opt.Repeats < 1 {
		return Calibration{}, fmt.Errorf("calibrate: %d repeats; want at least 1", opt.Repeats)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	c := Calibration{Samples: opt.Samples, Repeats: opt.Repeats, Date: time.Now().UTC().Round(time.Second), Dists: map[string][]time.Duration{}, Format: fileFormat}
	before := quiet.Take()
	procs := min(2, runtime.NumCPU())
	benches := []bench{
		{"switch_ns", 1, &c.Costs.Switch, &c.Lo.Switch, &c.Hi.Switch, switches},
		{"mutex_handoff_ns", procs, &c.Costs.MutexHandoff, &c.Lo.MutexHandoff, &c.Hi.MutexHandoff, mutexHandoffs},
		{"chan_handoff_ns", procs, &c.Costs.ChanHandoff, &c.Lo.ChanHandoff, &c.Hi.ChanHandoff, func(ctx context.Context, n int) []time.Duration { return chanHandoffs(ctx, n, 0) }},
		{"buf_chan_handoff_ns", procs, &c.Costs.BufChanHandoff, &c.Lo.BufChanHandoff, &c.Hi.BufChanHandoff, func(ctx context.Context, n int) []time.Duration { return chanHandoffs(ctx, n, 1) }},
		{"runnext_grace_ns", 1, &c.Costs.RunnextGrace, &c.Lo.RunnextGrace, &c.Hi.RunnextGrace, graces},
		{"mutex_spin_ns", 1, &c.Costs.MutexSpin, &c.Lo.MutexSpin, &c.Hi.MutexSpin, mutexSpins},
		{"runtime_lock_ns", 1, &c.Costs.RuntimeLock, &c.Lo.RuntimeLock, &c.Hi.RuntimeLock, runtimeLocks},
		{"transfer_ns", procs, &c.Costs.Transfer.Socket, &c.Lo.Transfer.Socket, &c.Hi.Transfer.Socket, transfers},
		{"wake_ns", procs, &c.Costs.Wake, &c.Lo.Wake, &c.Hi.Wake, func(ctx context.Context, n int) []time.Duration { return wakes(ctx, n, deepIdle) }},
		{"spin_wake_ns", procs, &c.Costs.SpinWake, &c.Lo.SpinWake, &c.Hi.SpinWake, func(ctx context.Context, n int) []time.Duration { return wakes(ctx, n, spinIdle) }},
	}
	if procs < 2 {
		// No idle P to wake, nor another core to move a line to.
		benches = slices.DeleteFunc(benches, func(b bench) bool { return b.procs > 1 })
	}
	if platformNote != "" { // off Linux
		benches = slices.DeleteFunc(benches, func(b bench) bool { return b.name == "runnext_grace_ns" })
	}
	medians := make([][]time.Duration, len(benches))
	pooled := make([][]time.Duration, len(benches))
	// Repeats go round the microbenchmarks, so that a disturbance lasting
	// a while spreads over all of them instead of shifting one.
	for range opt.Repeats {
		for i, b := range benches {
			if err := ctx.Err(); err != nil {
				return Calibration{}, err
			}
			runtime.GOMAXPROCS(b.procs)
			xs := b.run(ctx, opt.Samples)
			if err := ctx.Err(); err != nil { // cut short: the samples are not all there
				return Calibration{}, err
			}
			medians[i] = append(medians[i], median(xs))
			pooled[i] = append(pooled[i], xs...)
		}
	}
	// A wake-up as timed includes the runnext grace, which the model
	// charges apart.
	var grace time.Duration
	if i := slices.IndexFunc(benches, func(b bench) bool { return b.name == "runnext_grace_ns" }); i >= 0 {
		grace = median(pooled[i])
	}
	for i, b := range benches {
		if b.name == "wake_ns" || b.name == "spin_wake_ns" {
			medians[i], pooled[i] = less(medians[i], grace), less(pooled[i], grace)
		}
		*b.point, *b.lo, *b.hi = interval(medians[i])
		c.Dists[b.name] = percentiles(pooled[i])
	}
	if procs >= 2 {
		runtime.GOMAXPROCS(procs)
		if err := c.measureSpinWindow(ctx, opt, grace); err != nil {
			return Calibration{}, err
		}
	} else {
		c.Note = "one CPU: an idle P cannot be woken here, nor a cache line moved to another core, so the wake-up and transfer costs are 0"
	}
	if platformNote != "" {
		c.Note = strings.TrimPrefix(c.Note+"; "+platformNote, "; ")
	}
	if !opt.NoCurves {
		var err error
		if c.Curves, err = curves.Measure(ctx, opt.Curves); err != nil {
			return Calibration{}, err
		}
	}
	c.Others = quiet.Since(before)
	c.Host = host.Detect()
	return c, nil
}

// bench is one microbenchmark: the cost it measures, under GOMAXPROCS
// procs, into point and its interval's edges.
type bench struct {
	name          string
	procs         int
	point, lo, hi *time.Duration
	run           func(context.Context, int) []time.Duration
}

// interval is the median of the repeats' medians and its 95 % confidence
// interval (benchmath); the least and most with too few repeats.
func interval(medians []time.Duration) (mid, lo, hi time.Duration) {
	xs := make([]float64, len(medians))
	for i, m := range medians {
		xs[i] = float64(m)
	}
	s := benchmath.AssumeNothing.Summary(benchmath.NewSample(xs, &benchmath.DefaultThresholds), 0.95)
	mid = time.Duration(math.Round(s.Center))
	lo, hi = time.Duration(math.Round(s.Lo)), time.Duration(math.Round(s.Hi))
	if math.IsInf(s.Lo, 0) || math.IsInf(s.Hi, 0) || math.IsNaN(s.Lo) || math.IsNaN(s.Hi) {
		lo, hi = slices.Min(medians), slices.Max(medians)
	}
	return mid, min(lo, mid), max(hi, mid)
}

// percentiles returns the 0th to the 100th percentile of xs, nearest rank.
func percentiles(xs []time.Duration) []time.Duration {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	out := make([]time.Duration, 101)
	for q := range out {
		i := (q*(len(xs)-1) + 50) / 100
		out[q] = xs[i]
	}
	return out
}

// less is xs each less d, at least zero.
func less(xs []time.Duration, d time.Duration) []time.Duration {
	return collect.Mapped(xs, func(x time.Duration) time.Duration { return max(x-d, 0) })
}

// measureSpinWindow measures c's spin window, only where a spinning P
// wakes clearly cheaper: its bisection varies far more than its
// resolution, so it runs once a repeat and takes the repeats' interval.
func (c *Calibration) measureSpinWindow(ctx context.Context, opt Options, grace time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var windows []time.Duration
	if c.Hi.SpinWake < c.Lo.Wake && 2*c.Costs.SpinWake < c.Costs.Wake {
		for range opt.Repeats {
			lo, hi := spinWindow(ctx, max(opt.Samples/3, 5), c.Costs.SpinWake+grace, c.Costs.Wake+grace)
			windows = append(windows, (lo+hi)/2)
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if len(windows) > 0 {
		c.Costs.SpinWindow, c.Lo.SpinWindow, c.Hi.SpinWindow = interval(windows)
	}
	return nil
}

func median(xs []time.Duration) time.Duration {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// MeasureQuiet waits up to wait for a quiet machine (telling tell, if not
// nil, where it stayed busy), then measures. Others is the most other
// processes used before or while it measured.
func MeasureQuiet(ctx context.Context, opt Options, wait time.Duration, tell func(results.CalibrationEvent)) (Calibration, error) {
	before, waited, err := quiet.Wait(ctx, wait, 500*time.Millisecond, results.DisturbedCPUs)
	if err != nil {
		return Calibration{}, err
	}
	if before >= results.DisturbedCPUs && tell != nil {
		tell(results.CalibrationEvent{Kind: results.StayedBusy, Waited: waited, Others: before})
	}
	c, err := Measure(ctx, opt)
	if err != nil {
		return c, err
	}
	c.Others = max(c.Others, before)
	c.Waited = waited
	return c, nil
}

// ErrBusy is the error of Keep refusing a calibration measured while other
// processes used results.DisturbedCPUs CPUs or more.
var ErrBusy = errors.New("calibrate: the machine was busy")

// Keep returns c if it may be saved: measured on a quiet machine, or
// forced (and marked so); else an error wrapping ErrBusy.
func Keep(c Calibration, force bool) (Calibration, error) {
	switch {
	case c.Others < results.DisturbedCPUs:
		return c, nil
	case force:
		c.Forced = true
		return c, nil
	}
	return c, fmt.Errorf("not saved: other processes used %.2f CPUs while calibrating (quiet is under %.1f); run brewput calibrate again on a quiet machine, or keep this one with --force: %w", c.Others, results.DisturbedCPUs, ErrBusy)
}
