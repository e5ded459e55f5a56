package calibrate

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestMeasure checks what holds on any machine, loaded or not: every cost
// is positive (each microbenchmark does real work) and well under the
// millisecond steps the model simulates. The figures themselves vary by
// machine and load and are logged.
func TestMeasure(t *testing.T) {
	// The costs only: the contention curves (25 s of two CPUs here) are
	// model/curves' to test, and cmd/brewput/internal/driver's TestCalibrate measures them
	// through the command.
	c, err := Measure(context.Background(), Options{Samples: 30, Repeats: 2, NoCurves: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", c.Costs)
	costs := map[string]time.Duration{
		"switch": c.Costs.Switch, "mutex handoff": c.Costs.MutexHandoff,
		"chan handoff": c.Costs.ChanHandoff, "buffered chan handoff": c.Costs.BufChanHandoff,
	}
	for name, d := range costs {
		if d <= 0 || d > 500*time.Microsecond {
			t.Errorf("%s: %v, want between 0 and 500µs", name, d)
		}
	}
	// The wake-up needs a free core for the woken thread: on a busy
	// machine it can take as long as the readier keeps its P. It is what
	// is left after the runnext grace, which a woken thread may have spent
	// arriving: zero is possible.
	if c.Note == "" && (c.Costs.Wake < 0 || c.Costs.Wake > wakeBurn+time.Millisecond) {
		t.Errorf("wake: %v, want between 0 and %v", c.Costs.Wake, wakeBurn+time.Millisecond)
	}
	// A sleep asked for 3 µs lasts at least that.
	if g := c.Costs.RunnextGrace; g < 3*time.Microsecond || g > wakeBurn+time.Millisecond {
		t.Errorf("runnext grace: %v, want between 3µs and %v", g, wakeBurn+time.Millisecond)
	}
	if c.Lo.SpinWindow > c.Costs.SpinWindow || c.Costs.SpinWindow > c.Hi.SpinWindow || c.Hi.SpinWindow > deepIdle {
		t.Errorf("spin window %v [%v, %v], want inside its interval, at most %v", c.Costs.SpinWindow, c.Lo.SpinWindow, c.Hi.SpinWindow, deepIdle)
	}
}

func TestSaveLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "calibration.json")
	want := Calibration{Samples: 7, Repeats: 6, Date: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Format: fileFormat}
	want.Costs.Wake, want.Costs.RunnextGrace = 12*time.Microsecond, 56*time.Microsecond
	want.Lo.Wake, want.Hi.Wake = 10*time.Microsecond, 15*time.Microsecond
	want.Dists = map[string][]time.Duration{"wake_ns": {1, 2, 3}}
	want.Host.Name = "here"
	if err := Save(path, want); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("loaded %+v, want %+v", got, want)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("%d files beside the calibration, want none (temporary files removed)", len(entries)-1)
	}
}

// TestLoadOld: a calibration written before repeats has no intervals;
// Load gives each cost an interval of its median alone, so that it makes
// bands of no width rather than wrong ones.
func TestLoadOld(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.json")
	os.WriteFile(path, []byte(`{"samples": 300, "costs": {"wake_ns": 132000, "switch_ns": 150}}`), 0o644)
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if c.Lo != c.Costs || c.Hi != c.Costs || c.Costs.Wake != 132*time.Microsecond {
		t.Errorf("costs %+v, lo %+v, hi %+v; want lo = hi = costs", c.Costs, c.Lo, c.Hi)
	}
	// Nor a runnext grace: its note says the file needs measuring again.
	if !strings.Contains(c.Note, "runnext grace") || !strings.Contains(c.Note, "calibrate again") {
		t.Errorf("note %q; want it to say the runnext grace was not measured", c.Note)
	}
}

// TestIntervalAndPercentiles: six repeats give their least and most as
// the interval, around their median; the percentiles of 1..101 are the
// numbers themselves.
func TestIntervalAndPercentiles(t *testing.T) {
	mid, lo, hi := interval([]time.Duration{50, 10, 40, 20, 30, 60})
	if lo != 10 || hi != 60 || mid < 30 || mid > 40 {
		t.Errorf("interval %v [%v, %v], want [10, 60] around 30–40", mid, lo, hi)
	}
	var xs []time.Duration
	for i := 101; i >= 1; i-- {
		xs = append(xs, time.Duration(i))
	}
	p := percentiles(xs)
	if len(p) != 101 || p[0] != 1 || p[50] != 51 || p[100] != 101 {
		t.Errorf("percentiles %v", p)
	}
}

func TestLoadRejects(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"garbage":  "not json",
		"empty":    "{}",
		"negative": `{"samples": 3, "costs": {"wake_ns": -5}}`,
	} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(content), 0o644)
		_, err := Load(path)
		if err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: error %v, want one naming the file", name, err)
		}
	}
	if _, err := Measure(context.Background(), Options{Samples: 2}); err == nil {
		t.Error("Measure with 2 samples: no error")
	}
}

// TestKeep: a calibration measured while other processes used results.DisturbedCPUs
// CPUs or more is refused (ErrBusy, saying --force) unless forced, and a
// forced one is marked so; a quiet one is kept as it is.
func TestKeep(t *testing.T) {
	busy := Calibration{Samples: 5, Others: 0.5}
	if _, err := Keep(busy, false); !errors.Is(err, ErrBusy) || !strings.Contains(err.Error(), "not saved") || !strings.Contains(err.Error(), "--force") {
		t.Errorf("busy, not forced: %v, want ErrBusy saying it saved nothing and naming --force", err)
	}
	if c, err := Keep(busy, true); err != nil || !c.Forced {
		t.Errorf("busy, forced: %v, forced %v", err, c.Forced)
	}
	if c, err := Keep(Calibration{Samples: 5, Others: 0.05}, false); err != nil || c.Forced {
		t.Errorf("quiet: %v, forced %v", err, c.Forced)
	}
}

// TestDefault: with none saved, Default measures; a quiet machine's
// calibration is saved and read back by the next call, which measures
// nothing, while a busy one's is returned marked Unsaved with no path,
// nothing is written, and the next call measures again. Both are fake
// measurements, so the test holds however busy this machine is.
func TestDefault(t *testing.T) {
	for _, tc := range []struct {
		others float64
		saved  bool
	}{{0.05, true}, {results.DisturbedCPUs, false}, {1.5, false}} {
		config := t.TempDir()
		t.Setenv("XDG_CONFIG_HOME", config)
		calls := 0
		measure := func(context.Context, func(results.CalibrationEvent)) (Calibration, error) {
			calls++
			c := Calibration{Samples: 5, Repeats: 1, Others: tc.others, Date: time.Date(2026, 11, 23, 22, 0, 0, 0, time.UTC)}
			c.Host.Name = "vm"
			c.Costs.Wake = 20 * time.Microsecond
			c.Lo, c.Hi = c.Costs, c.Costs
			return c, nil
		}
		var told []string
		for range 2 {
			c, path, err := Default(context.Background(), measure, text.CalibrationTeller(func(line string) { told = append(told, line) }))
			if err != nil {
				t.Fatalf("others %.2f: %v", tc.others, err)
			}
			if c.Costs.Wake != 20*time.Microsecond || c.Unsaved == tc.saved || (path != "") != tc.saved {
				t.Errorf("others %.2f: wake %v, unsaved %v, path %q; want 20µs, unsaved %v", tc.others, c.Costs.Wake, c.Unsaved, path, !tc.saved)
			}
			if ref := c.Ref(); ref.Busy() == tc.saved {
				t.Errorf("others %.2f: its reference says busy %v", tc.others, ref.Busy())
			}
		}
		_, err := os.Stat(filepath.Join(config, "brewput", "calibration.json"))
		switch {
		case tc.saved && (err != nil || calls != 1):
			t.Errorf("others %.2f (quiet): %v, measured %d times; want it saved and measured once", tc.others, err, calls)
		case !tc.saved && (err == nil || calls != 2):
			t.Errorf("others %.2f (busy): saved (%v), measured %d times; want nothing saved and measured by each call", tc.others, err, calls)
		case !tc.saved && !strings.Contains(strings.Join(told, "\n"), "not kept"):
			t.Errorf("others %.2f (busy): told %q, want it said the calibration was not kept", tc.others, told)
		}
	}
}

// TestOverride: a cost given in place of the measured one is known
// exactly, and the calibration's reference says it was given; one that
// measured nothing names no host.
func TestOverride(t *testing.T) {
	c := Calibration{Samples: 5, Repeats: 6}
	c.Host.Name = "vm"
	c.Costs.Wake, c.Lo.Wake, c.Hi.Wake = 80*time.Microsecond, 70*time.Microsecond, 90*time.Microsecond
	if err := c.Override("wake", 10*time.Microsecond); err != nil {
		t.Fatal(err)
	}
	if c.Costs.Wake != 10*time.Microsecond || c.Lo.Wake != c.Costs.Wake || c.Hi.Wake != c.Costs.Wake {
		t.Errorf("wake %v [%v, %v], want 10µs exactly", c.Costs.Wake, c.Lo.Wake, c.Hi.Wake)
	}
	if ref := c.Ref(); ref.Host != "vm" || !strings.Contains(text.CalibrationLine(ref), "; given as flags: wake 10µs;") || !slices.Equal(ref.Given, []string{"wake"}) {
		t.Errorf("ref %+v", ref)
	}
	if err := c.Override("nope", 1); err == nil {
		t.Error("an unknown cost: no error")
	}
	var given Calibration
	given.Override("switch", 150)
	if ref := given.Ref(); ref.Host != "none" {
		t.Errorf("every cost given: host %q, want none", ref.Host)
	}
}

// TestMeasureStopsWhenCancelled: a calibration of a million samples,
// which would take minutes, returns the context's error once it is
// cancelled, before or while it measures, with no goroutine left behind.
func TestMeasureStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Measure(ctx, Options{Samples: 1_000_000, Repeats: 6}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before it started: %v, want context.Canceled", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := Measure(ctx, Options{Samples: 1_000_000, Repeats: 6})
		done <- err
	}()
	time.Sleep(50 * time.Millisecond) // let it get under way
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled while measuring: %v, want context.Canceled", err)
	}
}

// TestWakeWithinTheGrace: a wake-up timed less the runnext grace that came
// within the grace shows as no cost beyond it, never as a wake-up of 0 s;
// other costs of 0 stay 0 s.
func TestWakeWithinTheGrace(t *testing.T) {
	dist := make([]time.Duration, 101)
	for q := range dist {
		dist[q] = time.Duration(max(0, q-10)) * time.Microsecond
	}
	c := Calibration{Samples: 100, Repeats: 6, Dists: map[string][]time.Duration{"wake_ns": dist}}
	c.Costs.Wake, c.Hi.Wake = 20*time.Microsecond, 30*time.Microsecond
	var b bytes.Buffer
	text.WriteCalibrationTable(&b, c.Table())
	var wake, window string
	for _, line := range strings.Split(b.String(), "\n") {
		switch f := strings.Fields(line); {
		case len(f) > 0 && f[0] == "wake":
			wake = line
		case len(f) > 1 && f[0] == "spin" && f[1] == "window":
			window = line
		}
	}
	if !strings.Contains(wake, "≈0 (in the grace) – 30µs") || !strings.Contains(wake, "85µs") || strings.Contains(wake, "0s") {
		t.Errorf("wake row %q", wake)
	}
	if !strings.Contains(window, "0s") {
		t.Errorf("spin window row %q", window)
	}
}
