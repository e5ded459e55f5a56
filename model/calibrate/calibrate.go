// Package calibrate measures the Go runtime's own costs that the model's go
// scheduling policy charges (sim.Costs): switching goroutines on one P,
// waking an idle P, and the time a mutex Unlock or a channel operation that
// readies a waiting goroutine costs its caller. The model reads them from a
// file written here, so that its predictions rest on this machine's
// runtime, measured, rather than on guesses or on fits to results.
package calibrate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/brewput/brewput/internal/atomicfile"
	"github.com/brewput/brewput/internal/exitcode"
	"github.com/brewput/brewput/internal/host"
	"github.com/brewput/brewput/internal/quiet"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
	"golang.org/x/perf/benchmath"
)

// Calibration is what Measure found on one machine.
type Calibration struct {
	Host results.Host `json:"host"`
	// Date is when it was measured.
	Date time.Time `json:"date,omitzero"`
	// Costs are the point estimates: each cost's median over the repeats'
	// medians, the spin window the median of the repeats' bisections.
	Costs sim.Costs `json:"costs"`
	// Lo and Hi bound each cost: the 95 % confidence interval of its
	// median over the repeats (the least and the most of them with six
	// repeats), the spin window's over its repeated bisections. A file
	// from before repeats has neither; Load sets both to Costs.
	Lo sim.Costs `json:"costs_lo,omitzero"`
	Hi sim.Costs `json:"costs_hi,omitzero"`
	// Samples is how many times each microbenchmark ran per repeat,
	// Repeats how many repeats there were.
	Samples int `json:"samples"`
	Repeats int `json:"repeats,omitempty"`
	// Dists are the measured distributions, by cost (the JSON names of
	// sim.Costs' fields): the 0th, 1st, …, 100th percentiles of every
	// sample of every repeat.
	Dists map[string][]time.Duration `json:"distributions,omitempty"`
	// Others is how many CPUs' worth of time other processes used while
	// Measure ran: above a few tenths, the wake-up cost in particular reads
	// high, because the woken thread waits for a core. Waited is how long
	// the calibration waited for the machine to be quiet first.
	Others float64       `json:"others_cpus"`
	Waited time.Duration `json:"waited_ns,omitempty"`
	// Forced says it was saved although the machine was busy (--force).
	Forced bool `json:"forced,omitempty"`
	// Note says what could not be measured and what was used instead.
	Note string `json:"note,omitempty"`
	// Given lists the costs given in place of the measured ones
	// (Override), "wake 80µs"; it is not saved.
	Given []string `json:"-"`
	// Inferred, where not nil, says that the costs were inferred from
	// measured points (brewput calibrate --from, package infer) instead of
	// microbenchmarked: Samples is then 0, Host the points' machine where
	// they name one, and Lo and Hi each cost's range consistent with the
	// points.
	Inferred *Inference `json:"inferred,omitempty"`
}

// Inference is how a calibration's costs were inferred from measured
// points: which points, under which runtime, which costs they constrain,
// and the costs consistent with them.
type Inference struct {
	// From names the files of measured points; Points is how many of
	// their configurations it used and Runs how many runs of those.
	From   []string `json:"from"`
	Points int      `json:"points"`
	Runs   int      `json:"runs"`
	// CPUs are the CPU counts of the points used.
	CPUs []int `json:"cpus"`
	// Runtime is the Go runtime whose scheduler the model followed while
	// inferring ("" today's, "go1.9"): the costs are that scheduler's.
	Runtime string `json:"runtime,omitempty"`
	// Inferred names the costs the points constrain (as Rows' Flag), Kept
	// those they do not, which keep Base's values and intervals.
	Inferred []string `json:"inferred"`
	Kept     []string `json:"kept"`
	// Base names the calibration the kept costs come from, this machine's
	// unless another was given.
	Base results.Calibration `json:"base"`
	// Tolerance is how much farther from its runs' band (relative) than
	// the best fit's prediction a consistent set of costs may put any
	// point's throughput or median latency.
	Tolerance float64 `json:"tolerance"`
	// Sets are sets of costs consistent with the points: the inferred
	// costs with each constrained cost in turn at either edge of its
	// range, and with every kept cost at Base's low and high edges. A
	// band simulates them (model.Range.Sets).
	Sets []sim.Costs `json:"sets,omitempty"`
	// Fit says how close the inferred costs' predictions come to the
	// points: per point, the distance of each to its runs' band.
	Fit []PointFit `json:"fit,omitempty"`
	// Refused lists what it could not use, each with the reason.
	Refused []string `json:"refused,omitempty"`
	// Evaluations is how many sets of costs it simulated every point with.
	Evaluations int `json:"evaluations"`
}

// PointFit is how far the inferred costs' prediction of one point lies
// outside its runs' band, relative to the nearer edge (0 inside), for
// throughput and for the median latency.
type PointFit struct {
	Point      string  `json:"point"`
	Throughput float64 `json:"throughput"`
	P50        float64 `json:"p50"`
}

// Defaults: how many times each microbenchmark runs per repeat, and how
// many repeats give each cost its confidence interval. Six repeats are
// the fewest whose least and most bound a median with 95 % confidence.
const (
	Samples = 100
	Repeats = 6
)

// QuietBelow is the most CPUs' worth of time other processes may use while
// a calibration measures for it to be saved without --force.
const QuietBelow = 0.2

// Options say how Measure measures.
type Options struct {
	Samples int // per repeat; default Samples
	Repeats int // default Repeats
}

// Measure runs the microbenchmarks, opt.Repeats times over, each
// opt.Samples times per repeat, and returns each cost's median with its
// confidence interval and its distribution, with this machine as the Host.
// It sets GOMAXPROCS to 1 or 2 while it measures and restores it. On a
// machine with one CPU the wake-up
// of an idle P cannot happen, so Wake is 0 and the Note says so. It does
// not wait for a quiet machine (see WaitQuiet); Others says how busy it
// was.
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
	c := Calibration{Samples: opt.Samples, Repeats: opt.Repeats, Date: time.Now().UTC().Round(time.Second), Dists: map[string][]time.Duration{}}
	before := quiet.Take()
	procs := min(2, runtime.NumCPU())
	benches := []struct {
		name          string
		procs         int
		point, lo, hi *time.Duration
		run           func(context.Context, int) []time.Duration
	}{
		{"switch_ns", 1, &c.Costs.Switch, &c.Lo.Switch, &c.Hi.Switch, switches},
		{"mutex_handoff_ns", procs, &c.Costs.MutexHandoff, &c.Lo.MutexHandoff, &c.Hi.MutexHandoff, mutexHandoffs},
		{"chan_handoff_ns", procs, &c.Costs.ChanHandoff, &c.Lo.ChanHandoff, &c.Hi.ChanHandoff, func(ctx context.Context, n int) []time.Duration { return chanHandoffs(ctx, n, 0) }},
		{"buf_chan_handoff_ns", procs, &c.Costs.BufChanHandoff, &c.Lo.BufChanHandoff, &c.Hi.BufChanHandoff, func(ctx context.Context, n int) []time.Duration { return chanHandoffs(ctx, n, 1) }},
		{"runnext_grace_ns", 1, &c.Costs.RunnextGrace, &c.Lo.RunnextGrace, &c.Hi.RunnextGrace, graces},
		{"mutex_spin_ns", 1, &c.Costs.MutexSpin, &c.Lo.MutexSpin, &c.Hi.MutexSpin, mutexSpins},
		{"wake_ns", procs, &c.Costs.Wake, &c.Lo.Wake, &c.Hi.Wake, func(ctx context.Context, n int) []time.Duration { return wakes(ctx, n, deepIdle) }},
		{"spin_wake_ns", procs, &c.Costs.SpinWake, &c.Lo.SpinWake, &c.Hi.SpinWake, func(ctx context.Context, n int) []time.Duration { return wakes(ctx, n, spinIdle) }},
	}
	if procs < 2 {
		// No idle P to wake: the wake-ups are not measured (a receiver
		// waits for the readier's time slice to end before it can even
		// block, 10 ms a sample).
		benches = benches[:len(benches)-2]
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
	// A wake-up is timed from the readying to the readied goroutine
	// running, which takes the woken P's wait before it steals the
	// goroutine from its readier's runnext slot; the model charges that
	// wait apart (sim.Costs.RunnextGrace), so the wake-ups are what is
	// left of it.
	var grace time.Duration
	for i, b := range benches {
		if b.name == "runnext_grace_ns" {
			grace = median(pooled[i])
		}
	}
	for i, b := range benches {
		if b.name == "wake_ns" || b.name == "spin_wake_ns" {
			medians[i], pooled[i] = less(medians[i], grace), less(pooled[i], grace)
		}
		*b.point, *b.lo, *b.hi = interval(medians[i])
		c.Dists[b.name] = percentiles(pooled[i])
	}
	if procs >= 2 {
		if err := ctx.Err(); err != nil {
			return Calibration{}, err
		}
		runtime.GOMAXPROCS(procs)
		// A P idle a moment ago whose wake-up is not clearly cheaper
		// than a sleeping one's has no spin window to find. The
		// bisection's answers differ from one run to the next by far
		// more than its resolution (69, 161 and 222 µs in three
		// calibrations of one machine), so it runs once per repeat and the
		// window gets the repeats' interval, as the other costs do.
		var windows []time.Duration
		if c.Hi.SpinWake < c.Lo.Wake && 2*c.Costs.SpinWake < c.Costs.Wake {
			for range opt.Repeats {
				lo, hi := spinWindow(ctx, max(opt.Samples/3, 5), c.Costs.SpinWake+grace, c.Costs.Wake+grace)
				windows = append(windows, (lo+hi)/2)
			}
		}
		if err := ctx.Err(); err != nil {
			return Calibration{}, err
		}
		if len(windows) > 0 {
			c.Costs.SpinWindow, c.Lo.SpinWindow, c.Hi.SpinWindow = interval(windows)
		}
	} else {
		c.Costs.Wake, c.Costs.SpinWake = 0, 0
		c.Lo.Wake, c.Lo.SpinWake, c.Hi.Wake, c.Hi.SpinWake = 0, 0, 0, 0
		delete(c.Dists, "wake_ns")
		delete(c.Dists, "spin_wake_ns")
		c.Note = "one CPU: an idle P cannot be woken here, so the wake-up cost is 0"
	}
	c.Others = quiet.Since(before)
	c.Host = host.Detect()
	return c, nil
}

// interval returns the median of the repeats' medians and its 95 %
// confidence interval, by order statistics (x/perf's benchmath, as
// benchstat): with six repeats, their least and most. With too few repeats
// for 95 %, the interval is the least and the most.
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

// WaitQuiet waits until other processes use less than below CPUs over a
// probe of probe's length, for at most wait, and returns what the last
// probe read and how long it waited. It returns early with ctx's error.
func WaitQuiet(ctx context.Context, wait, probe time.Duration, below float64) (others float64, waited time.Duration, err error) {
	start := time.Now()
	for {
		before := quiet.Take()
		select {
		case <-ctx.Done():
			return 0, time.Since(start), ctx.Err()
		case <-time.After(probe):
		}
		others = quiet.Since(before)
		if others < below || time.Since(start) >= wait {
			return others, time.Since(start), nil
		}
	}
}

// switches times runtime.Gosched between two goroutines on one P: each
// call parks one goroutine and runs the other.
func switches(ctx context.Context, n int) []time.Duration {
	const batch = 1000
	out := make([]time.Duration, n)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
				runtime.Gosched()
			}
		}
	})
	for i := range out {
		if ctx.Err() != nil { // the caller drops what there is
			break
		}
		start := time.Now()
		for range batch {
			runtime.Gosched()
		}
		// Each of this goroutine's calls runs the other once: two switches.
		out[i] = time.Since(start) / (2 * batch)
	}
	close(stop)
	wg.Wait()
	return out
}

// settle is how long a measurement waits for a goroutine it has made wait
// to be parked for real, its thread asleep.
const settle = 300 * time.Microsecond

// mutexHandoffs times an Unlock that wakes a goroutine asleep in Lock.
func mutexHandoffs(ctx context.Context, n int) []time.Duration {
	out := make([]time.Duration, n)
	var mu sync.Mutex
	got := make(chan struct{})
	for i := range out {
		if ctx.Err() != nil { // the caller drops what there is
			break
		}
		mu.Lock()
		go func() {
			mu.Lock()
			mu.Unlock()
			got <- struct{}{}
		}()
		time.Sleep(settle)
		start := time.Now()
		mu.Unlock()
		out[i] = time.Since(start)
		<-got
	}
	return out
}

// spinsPerSample is how many of Lock's spins a sample of mutexSpins
// times: one lasts from tens of nanoseconds to about a microsecond
// (a PAUSE takes 10 to 140 cycles, by CPU), too near the clock's
// resolution to time alone.
const spinsPerSample = 100

// mutexSpins times one spin of a Lock that finds its sync.Mutex held:
// the runtime's procyield(30), spelled out in this package's assembly.
func mutexSpins(ctx context.Context, n int) []time.Duration {
	out := make([]time.Duration, 0, n)
	for range n {
		if ctx.Err() != nil {
			break
		}
		start := time.Now()
		for range spinsPerSample {
			procyield30()
		}
		out = append(out, time.Since(start)/spinsPerSample)
	}
	return out
}

// chanHandoffs times a send to a goroutine asleep in a receive, on a
// channel of the given capacity.
func chanHandoffs(ctx context.Context, n, capacity int) []time.Duration {
	out := make([]time.Duration, n)
	ch := make(chan int, capacity)
	got := make(chan struct{})
	for i := range out {
		if ctx.Err() != nil { // the caller drops what there is
			break
		}
		go func() {
			<-ch
			got <- struct{}{}
		}()
		time.Sleep(settle)
		start := time.Now()
		ch <- i
		out[i] = time.Since(start)
		<-got
	}
	return out
}

// wakeBurn is how long the readier keeps its P after readying: a wake-up
// that reads as long as this never happened (the readied goroutine ran
// only when its readier blocked).
const wakeBurn = time.Millisecond

// deepIdle is long enough idle for a P's thread to have stopped spinning
// and gone to sleep.
const deepIdle = 500 * time.Microsecond

// spinIdle is the least idle time a spinning wake-up is measured after: a
// receive that has marked itself about to block is parked by then.
const spinIdle = 10 * time.Microsecond

// wakes times how long a goroutine readied by a send takes to start running
// while its readier keeps its P busy: the readied one waits in the
// readier's runnext slot until the other P, idle for the given time, comes
// and steals it — sooner if its thread is still spinning, after a wake-up
// if it has gone to sleep. The readier busy-waits through the idle time so
// that only the other P is idle.
//
// The idle time counts from the receiver about to block in its receive,
// which it runs on the other P: counted from its go statement instead, a
// short idle time would end before the goroutine, itself waiting for the
// other P to wake, had reached its receive, and the send would find no
// receiver, block, and hand over on the readier's own P — a cheap
// "wake-up" that woke nothing.
func wakes(ctx context.Context, n int, idle time.Duration) []time.Duration {
	out := make([]time.Duration, n)
	ch := make(chan time.Time)
	got := make(chan time.Duration)
	var blocking atomic.Bool
	for i := range out {
		if ctx.Err() != nil { // the caller drops what there is
			break
		}
		blocking.Store(false)
		go func() {
			blocking.Store(true)
			sent := <-ch
			got <- time.Since(sent)
		}()
		for !blocking.Load() {
		}
		spin(idle)
		ch <- time.Now()
		spin(wakeBurn)
		out[i] = <-got
	}
	return out
}

// graces times what a 3 µs sleep of a thread lasts, as the runtime's
// usleep(3) before stealing a runnext goroutine does: the operating
// system's timer slack stretches it.
func graces(ctx context.Context, n int) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		if ctx.Err() != nil { // the caller drops what there is
			break
		}
		start := time.Now()
		threadSleep(3 * time.Microsecond)
		out[i] = time.Since(start)
	}
	return out
}

// less is xs each less d, at least zero.
func less(xs []time.Duration, d time.Duration) []time.Duration {
	out := make([]time.Duration, len(xs))
	for i, x := range xs {
		out[i] = max(x-d, 0)
	}
	return out
}

// spin busy-waits for d.
func spin(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}

// spinWindow finds how long an idle P's thread keeps spinning, by
// bisection of the idle time between spinIdle (spinning for sure) and deepIdle
// (asleep for sure): a readied goroutine taken nearer the spinning cost
// than the sleeping one means the thread was still spinning after that
// idle time. It returns the interval the bisection ended with, about 4 µs
// wide.
func spinWindow(ctx context.Context, samples int, spinning, sleeping time.Duration) (lo, hi time.Duration) {
	mid := (spinning + sleeping) / 2
	lo, hi = spinIdle, deepIdle
	for hi-lo > 5*time.Microsecond && ctx.Err() == nil {
		idle := (lo + hi) / 2
		if median(wakes(ctx, samples, idle)) < mid {
			lo = idle
		} else {
			hi = idle
		}
	}
	return lo, hi
}

func median(xs []time.Duration) time.Duration {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// DefaultPath is where brewput keeps this machine's calibration: the user's
// configuration directory ($XDG_CONFIG_HOME/brewput/calibration.json on
// Linux).
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("calibrate: no configuration directory to keep the calibration in: %w", err)
	}
	return filepath.Join(dir, "brewput", "calibration.json"), nil
}

// How says how a calibration is measured on purpose: the microbenchmarks'
// Options, how long to wait at most for a quiet machine first, and
// whether to keep one measured while the machine was busy anyway.
type How struct {
	Options
	Wait  time.Duration
	Force bool
}

// DefaultHow is how the model and the main job measure the calibration
// they need when there is none yet: the default samples and repeats, at
// most 2 s of waiting for a quiet machine.
func DefaultHow() How {
	return How{Options: Options{Samples: Samples, Repeats: Repeats}, Wait: 2 * time.Second}
}

// MeasureQuiet waits for a quiet machine (WaitQuiet, at most how.Wait,
// probing every half second), telling tell, if not nil, when it stayed
// busy, then measures (Measure). Others is the larger of what other
// processes used just before and while it measured; Waited how long it
// waited.
func MeasureQuiet(ctx context.Context, how How, tell func(line string)) (Calibration, error) {
	before, waited, err := WaitQuiet(ctx, how.Wait, 500*time.Millisecond, QuietBelow)
	if err != nil {
		return Calibration{}, err
	}
	if before >= QuietBelow && tell != nil {
		tell(fmt.Sprintf("calibrate: the machine stayed busy for %v (other processes used %.2f CPUs); measuring anyway", waited.Round(time.Second), before))
	}
	c, err := Measure(ctx, how.Options)
	if err != nil {
		return c, err
	}
	c.Others = max(c.Others, before)
	c.Waited = waited
	return c, nil
}

// ErrBusy is the error of Keep refusing a calibration measured while other
// processes used QuietBelow CPUs or more.
var ErrBusy = errors.New("calibrate: the machine was busy")

// Keep returns c if it may be saved: measured on a quiet machine, or
// forced, and then marked so. A busy one, not forced, gets an error that
// wraps ErrBusy and says what to do.
func Keep(c Calibration, force bool) (Calibration, error) {
	switch {
	case c.Others < QuietBelow:
		return c, nil
	case force:
		c.Forced = true
		return c, nil
	}
	return c, fmt.Errorf("not saved: other processes used %.2f CPUs while calibrating (quiet is under %.1f); run brewput calibrate again on a quiet machine, or keep this one with --force: %w", c.Others, QuietBelow, ErrBusy)
}

// Default is the calibration kept at DefaultPath, and that path, so
// that an answer can say which calibration it came from. Where there is
// none yet, it measures this machine (MeasureQuiet, DefaultHow) and saves
// the result there first, telling tell, if not nil, before and after. That
// first use keeps what it measured even on a busy machine, marked as
// forced, and says so, so that every later run does not measure again;
// brewput calibrate, run on purpose, is the one that refuses.
func Default(ctx context.Context, tell func(line string)) (Calibration, string, error) {
	if tell == nil {
		tell = func(string) {}
	}
	path, err := DefaultPath()
	if err != nil {
		return Calibration{}, "", err
	}
	c, err := Load(path)
	switch {
	case err == nil:
		return c, path, nil
	case !errors.Is(err, fs.ErrNotExist):
		return c, path, fmt.Errorf("calibration: %w", err)
	}
	if c, err = measureDefault(ctx, tell); err != nil {
		return c, path, err
	}
	c, _ = Keep(c, true)
	if err := Save(path, c); err != nil {
		return c, path, err
	}
	tell("saved the calibration to " + path)
	if c.Forced {
		tell(fmt.Sprintf("other processes used %.2f CPUs while it measured: run brewput calibrate on a quiet machine for costs to trust", c.Others))
	}
	return c, path, nil
}

// Save writes c to path as JSON, creating its directory, atomically: a
// reader sees the old file or the new one, never half of it.
func Save(path string, c Calibration) error {
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("calibrate: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".calibration-*")
	if err != nil {
		return fmt.Errorf("calibrate: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("calibrate: writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("calibrate: writing %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("calibrate: %w", err)
	}
	return os.Rename(tmp.Name(), path)
}

// Load reads a calibration written by Save. A file that is not one gets an
// error naming it.
func Load(path string) (Calibration, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Calibration{}, err
	}
	var c Calibration
	if err := json.Unmarshal(data, &c); err != nil {
		return Calibration{}, fmt.Errorf("%s: not a brewput calibration: %v", path, err)
	}
	if c.Samples == 0 && c.Inferred == nil {
		return Calibration{}, fmt.Errorf("%s: not a brewput calibration (no samples recorded); run brewput calibrate --out %s", path, path)
	}
	for _, cs := range []sim.Costs{c.Costs, c.Lo, c.Hi} {
		for _, d := range []time.Duration{cs.Switch, cs.Wake, cs.SpinWake, cs.SpinWindow, cs.MutexHandoff, cs.ChanHandoff, cs.BufChanHandoff, cs.RunnextGrace, cs.MutexSpin} {
			if d < 0 {
				return Calibration{}, fmt.Errorf("%s: negative cost %v; run brewput calibrate again", path, d)
			}
		}
	}
	if c.Inferred != nil {
		return c, nil
	}
	if c.Repeats == 0 { // written before repeats: no intervals
		c.Lo, c.Hi = c.Costs, c.Costs
	}
	if c.Costs.RunnextGrace == 0 && c.Costs.Wake > 0 && c.Note == "" {
		c.Note = "measured before the runnext grace was: the model waits the 3 µs the runtime asks for, its wake-ups include what the OS made of them, and its spin window may be the time a new goroutine took to start; run brewput calibrate again"
	}
	return c, nil
}

// Cost is one of the go policy's costs with its interval, as Rows lists
// them.
type Cost struct {
	Name           string // as brewput calibrate prints it, "wake"
	Flag           string // brewput model's flag for it, "wake"
	Median, Lo, Hi time.Duration
}

// costs name the costs, in the order brewput calibrate prints them, as
// it prints them and as brewput model's flags do.
var costs = []struct{ name, flag string }{
	{"wake", "wake"}, {"spin wake", "spin-wake"}, {"spin window", "spin-window"}, {"switch", "switch"},
	{"mutex handoff", "mutex-handoff"}, {"chan handoff", "chan-handoff"}, {"buf chan handoff", "buf-chan-handoff"},
	{"runnext grace", "runnext-grace"}, {"mutex spin", "mutex-spin"},
}

// Field is the cost of c that flag names (as Rows names them); nil for
// no cost.
func Field(c *sim.Costs, flag string) *time.Duration {
	return map[string]*time.Duration{"wake": &c.Wake, "spin-wake": &c.SpinWake, "spin-window": &c.SpinWindow, "switch": &c.Switch,
		"mutex-handoff": &c.MutexHandoff, "chan-handoff": &c.ChanHandoff, "buf-chan-handoff": &c.BufChanHandoff, "runnext-grace": &c.RunnextGrace,
		"mutex-spin": &c.MutexSpin}[flag]
}

// Rows lists c's costs in the order brewput calibrate prints them.
func (c Calibration) Rows() []Cost {
	var out []Cost
	for _, n := range costs {
		out = append(out, Cost{Name: n.name, Flag: n.flag, Median: *Field(&c.Costs, n.flag), Lo: *Field(&c.Lo, n.flag), Hi: *Field(&c.Hi, n.flag)})
	}
	return out
}

// Override puts d in place of the cost that flag names (as Rows names
// them), known exactly — its interval is d alone — and Ref then says it
// was given. An unknown flag is an error.
func (c *Calibration) Override(flag string, d time.Duration) error {
	if Field(&c.Costs, flag) == nil {
		return fmt.Errorf("calibrate: no cost %q", flag)
	}
	for _, cs := range []*sim.Costs{&c.Costs, &c.Lo, &c.Hi} {
		*Field(cs, flag) = d
	}
	if c.Inferred != nil {
		in := *c.Inferred
		in.Sets = slices.Clone(in.Sets)
		for i := range in.Sets {
			*Field(&in.Sets[i], flag) = d
		}
		c.Inferred = &in
	}
	c.Given = append(c.Given, fmt.Sprintf("%s %v", flag, d))
	return nil
}

// Ref names c for the model points that use it: host, date, how busy the
// machine was, and every cost with its interval in one line, then those
// given instead of measured (Override). A calibration that measured
// nothing (every cost given) names no host.
func (c Calibration) Ref() results.Calibration {
	var parts []string
	for _, r := range c.Rows() {
		if r.Lo == r.Hi {
			parts = append(parts, fmt.Sprintf("%s %v", r.Name, r.Median))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %v [%v, %v]", r.Name, r.Median, r.Lo, r.Hi))
	}
	line := strings.Join(parts, ", ")
	if len(c.Given) > 0 {
		line += "; given as flags: " + strings.Join(c.Given, ", ")
	}
	host := c.Host.Name
	switch {
	case c.Inferred != nil:
	case c.Samples == 0:
		host = "none"
	case host == "":
		host = "an unnamed host"
	}
	ref := results.Calibration{Host: host, Date: c.Date, Others: c.Others, Forced: c.Forced, Costs: line}
	if in := c.Inferred; in != nil {
		for _, f := range in.From {
			ref.InferredFrom = append(ref.InferredFrom, filepath.Base(f))
		}
		ref.Points = in.Points
	}
	return ref
}

// Range is the uncertainty of c's costs for a band: the edges of their
// intervals, or, for inferred costs, the sets of costs consistent with
// the points they came from (Inference.Sets). nil where there is none.
func (c Calibration) Range() *model.Range {
	if c.Inferred != nil && len(c.Inferred.Sets) > 0 {
		return &model.Range{Lo: c.Lo, Hi: c.Hi, Sets: c.Inferred.Sets}
	}
	return model.NewRange(c.Lo, c.Hi)
}

// Limits of How's samples and repeats, past which a typo would measure for
// hours: a sample of the slowest microbenchmark takes about 1.5 ms.
const (
	MaxSamples = 100_000
	MaxRepeats = 1_000
)

// Check refuses how's samples and repeats out of range, before anything
// is measured; its errors name them as brewput calibrate's flags do.
func (how How) Check() error {
	for _, c := range []struct {
		flag           string
		v, least, most int
		why            string
	}{{"samples", how.Samples, 5, MaxSamples, ""}, {"repeats", how.Repeats, 1, MaxRepeats, " (6 or more for a 95 % interval)"}} {
		if c.v < c.least || c.v > c.most {
			return fmt.Errorf("--%s %d: want at least %d%s, at most %d", c.flag, c.v, c.least, c.why, c.most)
		}
	}
	return nil
}

// CheckOut tells, before anything is measured, whether a calibration can
// be saved at path: not a folder, and its folder one that exists and is
// writable, or can be made (Save makes it).
func CheckOut(path string) error {
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return fmt.Errorf("is a folder; want a file for the calibration")
	}
	return atomicfile.CheckDir(filepath.Dir(path), "the calibration")
}

// Show writes the calibration saved at path to w: the path, then its
// table. A missing or unreadable one is an exitcode.Failure.
func Show(w io.Writer, path string) error {
	c, err := Load(path)
	if errors.Is(err, fs.ErrNotExist) {
		return exitcode.Failure{Err: fmt.Errorf("no calibration at %s; run brewput calibrate", path)}
	}
	if err != nil {
		return exitcode.Failure{Err: err}
	}
	fmt.Fprintf(w, "%s\n", path)
	c.WriteTable(w)
	return nil
}

// MeasureAndSave measures this machine as how says (MeasureQuiet, telling
// tell), writes the table to w, and saves the calibration at path unless
// other processes disturbed it and how does not force it (Keep); then w
// hears where it went. Its errors are as Failed says, or Failures.
func MeasureAndSave(ctx context.Context, how How, path string, w io.Writer, tell func(line string)) error {
	c, err := MeasureQuiet(ctx, how, tell)
	if err != nil {
		return Failed(ctx, err)
	}
	c.WriteTable(w)
	if c, err = Keep(c, how.Force); err != nil {
		return exitcode.Failure{Err: err}
	}
	if err := Save(path, c); err != nil {
		return exitcode.Failure{Err: err}
	}
	fmt.Fprintf(w, "saved: %s\n", path)
	return nil
}

// Failed is the error of a calibration that failed: an
// exitcode.Interruption where ctx ended, after which nothing is saved, or
// an exitcode.Failure.
func Failed(ctx context.Context, err error) error {
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return exitcode.Interruption{Err: fmt.Errorf("interrupted while calibrating; nothing saved")}
	}
	return exitcode.Failure{Err: err}
}
