package coffee

import (
	"context"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/internal/base/race"
	"github.com/brewput/brewput/measure/harness"
	"github.com/brewput/brewput/results"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// quickSteps keeps tests fast: 100 µs steps, a little jitter.
func quickSteps() Steps {
	d := 100 * time.Microsecond
	return Steps{Grind: d, Press: d, Steam: d, Combine: d, Jitter: 50 * time.Microsecond}
}

// everyMode has one mode of each family, with buffers of 0 and 1 for the
// pipelines, whose unbuffered form is the one most likely to deadlock.
func everyMode(t *testing.T) []Mode {
	var modes []Mode
	for _, f := range Families() {
		names := []string{f.Name}
		if f.Param() != "" {
			names = []string{f.Name + "-" + "1", f.Name + "-" + "2"}
			if f.minN() == 0 {
				names = append(names, f.Name+"-0")
			}
		}
		for _, n := range names {
			m, err := ParseMode(n)
			if err != nil {
				t.Fatal(err)
			}
			modes = append(modes, m)
		}
	}
	return modes
}

// brew runs a shop with several concurrent customers for a short while.
func brew(t *testing.T, m Mode, customers int, d time.Duration) (harness.Result, []*Meter) {
	t.Helper()
	shop, err := OpenVariant(m, quickSteps(), Variant{})
	if err != nil {
		t.Fatal(err)
	}
	defer shop.Close()
	res, err := harness.Run(context.Background(), results.Load{Par: customers, Dur: d}, shop.Brew, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res, shop.Meters()
}

// TestEveryModeBrewsAndShutsDown makes drinks in every mode with four
// customers on all CPUs; goleak (TestMain) checks that Close left no
// goroutine behind, and under -race the detector checks that no mode but
// ideal races.
func TestEveryModeBrewsAndShutsDown(t *testing.T) {
	for _, m := range everyMode(t) {
		t.Run(m.String(), func(t *testing.T) {
			if m.Races() && race.Enabled {
				t.Skip("ideal races by design; TestIdealRaces runs it under the detector in a subprocess")
			}
			// A busy machine may not let a short window see a drink: the
			// window grows until it does (or a few seconds have passed).
			res, meters := brew(t, m, 4, 50*time.Millisecond)
			for d := 100 * time.Millisecond; res.Ops == 0 && d <= 3*time.Second; d *= 2 {
				res, meters = brew(t, m, 4, d)
			}
			if res.Ops == 0 {
				t.Fatal("no drinks made in windows of up to 3 s")
			}
			if m.Family == "noop" {
				return
			}
			if len(meters) == 0 {
				t.Fatal("no machines metered")
			}
			// Working is read off the thread's CPU clock, which a use that
			// moves to another thread (a busy machine preempts) reads as 0:
			// one machine's few uses may show none, all machines' many not.
			var uses int64
			var working time.Duration
			for _, mt := range meters {
				r := mt.Read()
				if r.Uses > 0 && r.Held <= 0 {
					t.Errorf("%s: %d uses but held %v", mt.Name(), r.Uses, r.Held)
				}
				if r.Working > r.Held {
					t.Errorf("%s: working %v, more than held %v", mt.Name(), r.Working, r.Held)
				}
				uses += r.Uses
				working += r.Working
			}
			if uses < res.Ops {
				t.Errorf("machines used %d times for %d drinks", uses, res.Ops)
			}
			if uses >= 20 && working <= 0 {
				t.Errorf("machines used %d times, working 0s in all", uses)
			}
		})
	}
}

// TestIdealRaces runs ideal under the race detector in a subprocess and
// expects the detector to report its unsynchronized machines.
func TestIdealRaces(t *testing.T) {
	if !race.Enabled {
		t.Skip("needs the race detector: go test -race ./coffee (.ci/run does)")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestIdealHelper$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "BREWPUT_IDEAL_HELPER=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("ideal ran clean under the race detector; want a data race report:\n%s", out)
	}
	if !strings.Contains(string(out), "WARNING: DATA RACE") || !strings.Contains(string(out), "(*Machine).use") {
		t.Fatalf("want a data race on a machine, got:\n%s", out)
	}
}

// TestIdealHelper is TestIdealRaces's subprocess.
func TestIdealHelper(t *testing.T) {
	if os.Getenv("BREWPUT_IDEAL_HELPER") != "1" {
		t.Skip("helper for TestIdealRaces")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	brew(t, Mode{Family: "ideal"}, 2, 50*time.Millisecond)
}

func TestMetersCountUsesBusyAndWait(t *testing.T) {
	// finelocking with 3 customers on 1 ms steps: every latte uses each
	// machine once, and with more customers than machines someone waits.
	shop, err := OpenVariant(Mode{Family: "finelocking"}, DefaultSteps(), Variant{})
	if err != nil {
		t.Fatal(err)
	}
	defer shop.Close()
	res, err := harness.Run(context.Background(), results.Load{Par: 3, Dur: 100 * time.Millisecond}, shop.Brew, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range shop.Meters() {
		r := m.Read()
		if r.Uses < res.Ops {
			t.Errorf("%s used %d times for %d lattes", m.Name(), r.Uses, res.Ops)
		}
		// each use burns 1 ms of wall time holding the machine, so the
		// time held is at least uses × 1 ms
		if r.Held < time.Duration(r.Uses)*time.Millisecond {
			t.Errorf("%s: held %v for %d uses of 1 ms", m.Name(), r.Held, r.Uses)
		}
	}
	if w := shop.Meters()[0].Read().Waited; w <= 0 && runtime.GOMAXPROCS(0) > 1 {
		t.Errorf("grinder: no waiting with 3 customers on %d CPUs", runtime.GOMAXPROCS(0))
	}
}

func TestParseMode(t *testing.T) {
	for _, name := range []string{"ideal", "locking", "finelocking", "parsteam", "americano", "espresso", "noop",
		"multi-1", "multi-4", "linearpipe-0", "linearpipe-10", "splitpipe-1", "multipipe-2", "americanopipe-0", "espressopipe-3"} {
		m, err := ParseMode(name)
		if err != nil {
			t.Errorf("ParseMode(%q): %v", name, err)
			continue
		}
		if m.String() != name {
			t.Errorf("ParseMode(%q).String() = %q", name, m.String())
		}
	}
	for name, want := range map[string]string{
		"foo":           `unknown mode "foo"; accepted: ideal, locking,`,
		"":              `unknown mode ""`,
		"multi-0":       `mode "multi-0": N (copies of each machine) must be a whole number ≥ 1`,
		"multi-x":       `mode "multi-x": N`,
		"multi":         `mode "multi": N`,
		"multi-02":      `mode "multi-02": N`,
		"linearpipe--1": `mode "linearpipe--1": N (channel buffer) must be a whole number ≥ 0`,
		"locking-2":     `mode "locking-2": locking takes no number`,
	} {
		_, err := ParseMode(name)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseMode(%q) error = %v, want it to contain %q", name, err, want)
		}
	}
}

func TestStepsValidate(t *testing.T) {
	s := DefaultSteps()
	s.Steam = -time.Millisecond
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "steam") {
		t.Errorf("negative steam: err = %v, want it named", err)
	}
	if _, err := OpenVariant(Mode{Family: "finelocking"}, s, Variant{}); err == nil {
		t.Error("Open accepted a negative step")
	}
}

func TestJitterStaysInRange(t *testing.T) {
	s := Steps{Jitter: 400 * time.Microsecond}
	base := time.Millisecond
	lo, hi := base, base
	for range 10_000 {
		d := s.machine(base)
		lo, hi = min(lo, d), max(hi, d)
	}
	if lo < 800*time.Microsecond || hi > 1200*time.Microsecond {
		t.Errorf("jittered 1 ms ± 200 µs ranged over [%v, %v]", lo, hi)
	}
	if hi-lo < 300*time.Microsecond {
		t.Errorf("jitter hardly varied: [%v, %v]", lo, hi)
	}
}

// A mode reads and writes as its name, in JSON as in flags, and a mode
// made by hand is checked as ParseMode checks a name.
func TestModeText(t *testing.T) {
	for _, name := range []string{"finelocking", "multi-2", "linearpipe-0"} {
		m := MustParseMode(name)
		text, err := m.MarshalText()
		var back Mode
		if err != nil || string(text) != name || back.UnmarshalText(text) != nil || back != m || m.Validate() != nil {
			t.Errorf("%s: text %q, %v; read back %v", name, text, err, back)
		}
	}
	var m Mode
	if err := m.UnmarshalText([]byte("multi-0")); err == nil {
		t.Error("UnmarshalText(multi-0) accepted it")
	}
	for _, bad := range []Mode{{}, {Family: "nope"}, {Family: "multi"}, {Family: "locking", N: 2}, {Family: "linearpipe", N: -1}} {
		if bad.Validate() == nil {
			t.Errorf("Validate(%+v) accepted it", bad)
		}
	}
}
