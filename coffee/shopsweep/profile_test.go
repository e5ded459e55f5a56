package shopsweep

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/internal/testkit"
	"github.com/brewput/brewput/measure/record"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/results"
)

// TestMeasureProfilesTheWindow measures finelocking with more customers
// than CPUs, through the child's side of a Runner (a Spec as JSON in, a
// point as JSON out), with a profile: the four files are written, and
// the point's waits name the machines' locks by their call sites, leave
// out the harness's clock and agree with the machines' own wait meters.
func TestMeasureProfilesTheWindow(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "finelocking-2cpu")
	spec := Spec{
		Mode: coffee.MustParseMode("finelocking"), Load: sweep.Load{CPUs: min(2, runtime.NumCPU()), Profile: base, Load: results.Load{Par: 3, Warmup: 50 * time.Millisecond, Dur: 300 * time.Millisecond}},
		Steps: coffee.DefaultSteps(),
	}
	in, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(in, []byte(`"profile":"`+base+`"`)) {
		t.Errorf("the spec's JSON does not carry the profile: %s", in)
	}
	var out bytes.Buffer
	if err := ServeChild(context.Background(), bytes.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	var p results.Point
	if err := json.Unmarshal(out.Bytes(), &p); err != nil {
		t.Fatal(err)
	}

	if p.Profile != base {
		t.Errorf("point's profile is %q, want %q", p.Profile, base)
	}
	files := record.FilesFor(base)
	parseProfiles(t, files.CPU, files.Block, files.Mutex)
	if info, err := os.Stat(files.Trace); err != nil || info.Size() == 0 {
		t.Errorf("trace %s: %v, %v; want a non-empty file", files.Trace, info, err)
	}

	if len(p.Waits) == 0 {
		t.Fatalf("3 customers on %d CPUs and no waits: %+v", spec.CPUs, p)
	}
	var machineWaits int
	for _, w := range p.Waits {
		t.Logf("%-12s %8.3f ms %6d waits %7.4f ms/latte  %s", w.Kind, w.TotalMs, w.Count, w.PerOpMs, w.Site)
		if strings.Contains(w.Site, "harness.watch") || strings.Contains(w.Site, "run.go") && w.Kind == record.KindSelect {
			t.Errorf("the harness's clock is among the waits: %+v", w)
		}
		if math.Abs(w.PerOpMs*float64(p.Ops)-w.TotalMs) > 1e-6*w.TotalMs {
			t.Errorf("%s: %.4f ms per latte × %d lattes ≠ %.3f ms", w.Site, w.PerOpMs, p.Ops, w.TotalMs)
		}
		for _, m := range []struct{ name, call string }{
			{"grinder", "s.grinder.use(s.steps.grind())"},
			{"espresso", "s.espresso.use(s.steps.press())"},
			{"steamer", "s.steamer.use(s.steps.steam())"},
		} {
			if !strings.HasPrefix(w.Site, m.call+" in coffee.(*fineLocking).Brew at coffee/finelocking.go:") {
				continue
			}
			machineWaits++
			if w.Kind != record.KindMutex {
				t.Errorf("%s: kind %q, want mutex", w.Site, w.Kind)
			}
			// The meter times each wait from asking for the lock until
			// running with it; the profile from parking until woken, which
			// leaves out spinning and, with more customers than CPUs, the
			// time a woken customer waits for a CPU: never more. Two clocks
			// read apart (the profile's in CPU ticks) agree only on a
			// machine left to the point: a disturbed one is not compared.
			if p.IsDisturbed() {
				t.Logf("%s: not compared with its meter: others took %.2f CPUs", m.name, p.OthersCPUs)
				continue
			}
			for _, mc := range p.Machines() {
				if metered := mc.MeanWaitMs * float64(mc.Uses); mc.Name == m.name && w.TotalMs > 1.1*metered+1 {
					t.Errorf("%s: the profile says %.1f ms of waits, more than its meter's %.1f ms", m.name, w.TotalMs, metered)
				}
			}
		}
	}
	if machineWaits == 0 {
		t.Errorf("no wait names a machine's lock by its call in Brew: %+v", p.Waits)
	}
}

// TestMeasureWithoutProfileHasNoWaits: profiling is only on request.
func TestMeasureWithoutProfileHasNoWaits(t *testing.T) {
	p, err := Measure(context.Background(), Spec{Mode: coffee.MustParseMode("finelocking"), Load: sweep.Load{CPUs: 1, Load: results.Load{Par: 2, Dur: 50 * time.Millisecond}}, Steps: coffee.DefaultSteps()})
	if err != nil {
		t.Fatal(err)
	}
	if p.Waits != nil || p.Profile != "" {
		t.Errorf("a point measured without a profile has waits %v, profile %q", p.Waits, p.Profile)
	}
}

// TestProfileSpecIsChecked: a profile path that cannot name files is
// refused before measuring, as any bad spec is.
func TestProfileSpecIsChecked(t *testing.T) {
	for base, want := range testkit.BadProfileBases(t, t.TempDir()) {
		s := Spec{Mode: coffee.MustParseMode("finelocking"), Load: sweep.Load{CPUs: 1, Profile: base, Load: results.Load{Dur: time.Second}}, Steps: coffee.DefaultSteps()}
		start := time.Now()
		_, err := Measure(context.Background(), s)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("profile %q: %v; want an error saying %q", base, err, want)
		}
		if time.Since(start) > 500*time.Millisecond {
			t.Errorf("profile %q was refused only after measuring", base)
		}
	}
}

// TestProfileFailureFailsThePoint: when the profilers cannot start (here,
// a CPU profile is already running in the process), the point fails,
// saying why, and leaves no files.
func TestProfileFailureFailsThePoint(t *testing.T) {
	if err := pprof.StartCPUProfile(io.Discard); err != nil {
		t.Fatal(err)
	}
	defer pprof.StopCPUProfile()
	dir := t.TempDir()
	_, err := Measure(context.Background(), Spec{
		Mode: coffee.MustParseMode("finelocking"), Load: sweep.Load{CPUs: 1, Profile: filepath.Join(dir, "finelocking-1cpu"), Load: results.Load{Dur: 50 * time.Millisecond}}, Steps: coffee.DefaultSteps(),
	})
	if err == nil || !strings.Contains(err.Error(), "CPU profile") || !strings.Contains(err.Error(), "finelocking cpus=1") {
		t.Errorf("Measure with the CPU profiler taken: %v; want an error naming the point and the CPU profile", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a failed point left %d files", len(entries))
	}
}

// parseProfiles fails t for each path that is not a profile pprof parses.
func parseProfiles(t testing.TB, paths ...string) {
	t.Helper()
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		_, err = profile.Parse(f)
		f.Close()
		if err != nil {
			t.Errorf("%s: %v", path, err)
		}
	}
}
