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
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/brewput/brewput/host"
	"github.com/brewput/brewput/internal/quiet"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/sim"
)

// Calibration is what Measure found on one machine.
type Calibration struct {
	Host    results.Host `json:"host"`
	Costs   sim.Costs    `json:"costs"`
	Samples int          `json:"samples"` // per microbenchmark; each cost is a median
	// Others is how many CPUs' worth of time other processes used while
	// Measure ran: above a few tenths, the wake-up cost in particular reads
	// high, because the woken thread waits for a core.
	Others float64 `json:"others_cpus"`
	// Note says what could not be measured and what was used instead.
	Note string `json:"note,omitempty"`
}

// Samples is how many times each microbenchmark runs by default.
const Samples = 300

// Measure runs the microbenchmarks, samples times each, and returns their
// medians, with this machine as the Host. It sets GOMAXPROCS to 1 or 2
// while it measures and restores it.
// On a machine with one CPU the wake-up of an idle P cannot happen, so Wake
// is 0 and the Note says so.
func Measure(ctx context.Context, samples int) (Calibration, error) {
	if samples < 5 {
		return Calibration{}, fmt.Errorf("calibrate: %d samples; want at least 5", samples)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	c := Calibration{Samples: samples}
	before := quiet.Take()

	runtime.GOMAXPROCS(1)
	c.Costs.Switch = median(switches(samples))

	procs := min(2, runtime.NumCPU())
	runtime.GOMAXPROCS(procs)
	steps := []struct {
		into *time.Duration
		run  func(int) []time.Duration
	}{
		{&c.Costs.MutexHandoff, mutexHandoffs},
		{&c.Costs.ChanHandoff, func(n int) []time.Duration { return chanHandoffs(n, 0) }},
		{&c.Costs.BufChanHandoff, func(n int) []time.Duration { return chanHandoffs(n, 1) }},
		{&c.Costs.Wake, func(n int) []time.Duration { return wakes(n, deepIdle) }},
		{&c.Costs.SpinWake, func(n int) []time.Duration { return wakes(n, 0) }},
	}
	for _, st := range steps {
		if err := ctx.Err(); err != nil {
			return Calibration{}, err
		}
		*st.into = median(st.run(samples))
	}
	if procs >= 2 {
		if err := ctx.Err(); err != nil {
			return Calibration{}, err
		}
		c.Costs.SpinWindow = spinWindow(samples, c.Costs.SpinWake, c.Costs.Wake)
	}
	if procs < 2 {
		c.Costs.Wake, c.Costs.SpinWake = 0, 0
		c.Note = "one CPU: an idle P cannot be woken here, so the wake-up cost is 0"
	}
	c.Others = quiet.Since(before)
	c.Host = host.Detect()
	return c, nil
}

// switches times runtime.Gosched between two goroutines on one P: each
// call parks one goroutine and runs the other.
func switches(n int) []time.Duration {
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
func mutexHandoffs(n int) []time.Duration {
	out := make([]time.Duration, n)
	var mu sync.Mutex
	got := make(chan struct{})
	for i := range out {
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

// chanHandoffs times a send to a goroutine asleep in a receive, on a
// channel of the given capacity.
func chanHandoffs(n, capacity int) []time.Duration {
	out := make([]time.Duration, n)
	ch := make(chan int, capacity)
	got := make(chan struct{})
	for i := range out {
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

// wakes times how long a goroutine readied by a send takes to start running
// while its readier keeps its P busy: the readied one waits in the
// readier's runnext slot until the other P, idle for the given time, comes
// and steals it — at once if its thread is still spinning, after a wake-up
// if it has gone to sleep. The readier busy-waits through the idle time so
// that only the other P is idle.
func wakes(n int, idle time.Duration) []time.Duration {
	out := make([]time.Duration, n)
	ch := make(chan time.Time)
	got := make(chan time.Duration)
	for i := range out {
		go func() {
			sent := <-ch
			got <- time.Since(sent)
		}()
		spin(idle)
		ch <- time.Now()
		spin(wakeBurn)
		out[i] = <-got
	}
	return out
}

// spin busy-waits for d.
func spin(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}

// spinWindow finds how long an idle P's thread keeps spinning: the longest
// idle time, doubling from 5µs, after which a readied goroutine is still
// taken nearer the spinning cost than the sleeping one.
func spinWindow(samples int, spinning, sleeping time.Duration) time.Duration {
	mid := (spinning + sleeping) / 2
	window := time.Duration(0)
	for idle := 5 * time.Microsecond; idle <= deepIdle; idle *= 2 {
		if median(wakes(max(samples/3, 5), idle)) >= mid {
			break
		}
		window = idle
	}
	return window
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

// Default is the calibration kept at DefaultPath, and that path, so
// that an answer can say which calibration it came from. Where there is
// none yet, it measures this machine (Measure, Samples times) and saves
// the result there first, telling tell, if not nil, before and after.
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
	tell("measuring the Go runtime's costs for the go policy (once; brewput calibrate measures them again)…")
	if c, err = Measure(ctx, Samples); err != nil {
		return c, path, err
	}
	if err := Save(path, c); err != nil {
		return c, path, err
	}
	tell("saved the calibration to " + path)
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
	if c.Samples == 0 {
		return Calibration{}, fmt.Errorf("%s: not a brewput calibration (no samples recorded); run brewput calibrate --out %s", path, path)
	}
	for _, d := range []time.Duration{c.Costs.Switch, c.Costs.Wake, c.Costs.SpinWake, c.Costs.SpinWindow, c.Costs.MutexHandoff, c.Costs.ChanHandoff, c.Costs.BufChanHandoff} {
		if d < 0 {
			return Calibration{}, fmt.Errorf("%s: negative cost %v; run brewput calibrate again", path, d)
		}
	}
	return c, nil
}
