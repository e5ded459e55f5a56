package predict

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/coffee/shopsweep"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// study is finelocking on 1 and 2 CPUs, 1 ms steps, a short window.
func study(t *testing.T) *shopsweep.Batch {
	t.Helper()
	m, err := coffee.ParseMode("finelocking")
	if err != nil {
		t.Fatal(err)
	}
	base := shopsweep.Spec{Load: sweep.Load{Load: results.Load{Dur: 200 * time.Millisecond, Warmup: 20 * time.Millisecond}},
		Steps: coffee.Steps{Grind: time.Millisecond, Press: time.Millisecond, Steam: time.Millisecond, Combine: time.Millisecond}}
	return &shopsweep.Batch{Specs: shopsweep.Plan([]coffee.Mode{m}, []int{1, 2}, base), Count: 1}
}

// Options that do not go together, or values out of range, are refused
// with an error naming the option, before any calibration is looked for.
func TestResolveRefuses(t *testing.T) {
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{Sched: "rr"}, `--sched "rr": want go or fifo`},
		{Options{Sched: "go", Machine: "c6g.metal"}, `--machine "c6g.metal": want this or unknown`},
		{Options{Sched: "fifo", Machine: "unknown"}, "--machine: applies to --sched go only"},
		{Options{Sched: "fifo", Given: []string{"wake"}}, "--wake: costs apply to --sched go only"},
		{Options{Sched: "fifo", Given: []string{"calibration"}}, "--calibration: costs apply to --sched go only"},
		{Options{Sched: "go", Given: []string{"switch"}, Costs: sim.Costs{Switch: -time.Microsecond}}, "--switch -1µs: want zero or a positive duration"},
		{Options{Sched: "go", Calibration: "/nonexistent/calibration.json"}, "--calibration: "},
	} {
		_, err := Resolve(context.Background(), c.o, func(string) { t.Error("told something: nothing is measured here") })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Resolve(%+v) = %v, want an error with %q", c.o, err, c.want)
		}
	}
}

// With every cost given no calibration is read: the costs are those
// given, and the source says so.
func TestResolveAllCostsGiven(t *testing.T) {
	o := Options{Sched: "go", Seed: 3, Given: CostNames()}
	for i, name := range CostNames() {
		*calibrateField(&o, name) = time.Duration(i+1) * time.Microsecond
	}
	pr, err := Resolve(context.Background(), o, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	// How long a word cores add to stays at a core is no flag's: the
	// point takes half its move.
	given := o.Costs
	given.Transfer.Stay = 0.5
	if pr.Source != "the cost flags" || pr.Costs != given || pr.Seed != 3 || pr.Cal == nil || pr.Range != nil {
		t.Errorf("Resolve = %+v, want the given costs from the cost flags, a word staying half its move, a calibration ref and no band", pr)
	}
	if !strings.Contains(pr.Describe(), "the cost flags") {
		t.Errorf("Describe() = %q, want it to say where the costs came from", pr.Describe())
	}
}

// The fifo policy needs no costs; a study's configurations carry the
// policy, and its prediction's points the stamp of pr.
func TestFifoStudy(t *testing.T) {
	pr, err := Resolve(context.Background(), Options{Sched: "fifo", Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pr.Host = results.Host{Name: "here"}
	st := study(t)
	cfgs := pr.configs(st, nil)
	if len(cfgs) != 2 || cfgs[1].CPUs != 2 || cfgs[0].Policy.Sched != "fifo" || cfgs[0].Policy.Seed != 1 || cfgs[0].Steps.Grind != time.Millisecond {
		t.Fatalf("Configs = %+v, want finelocking on 1 and 2 CPUs under fifo", cfgs)
	}
	var added int
	points, err := pr.Run(context.Background(), st, nil, func(p *results.Point) error {
		added++
		if p.Host.Name != "here" {
			t.Errorf("point handed on without pr's host: %+v", p.Host)
		}
		return nil
	})
	if err != nil || len(points) != 2 || added != 2 {
		t.Fatalf("Run = %d points, %d added, %v; want 2", len(points), added, err)
	}
	if points[1].Throughput <= points[0].Throughput {
		t.Errorf("finelocking on 2 CPUs made %v/s, on 1 %v/s: want more with more CPUs", points[1].Throughput, points[0].Throughput)
	}
	preds := pr.Study(context.Background(), st, 3, func(err error) { t.Errorf("skipped: %v", err) })
	if len(preds) != 3 || preds[2].CPUs != 3 || preds[0].Host.Name != "here" {
		t.Errorf("Study = %d points, want finelocking on 1 to 3 CPUs stamped with pr's host", len(preds))
	}
}

// Run simulates a study's rounds, each with the next seed, numbering
// them; Study leaves out a mode the model cannot simulate, saying so once.
func TestRoundsAndSkips(t *testing.T) {
	pr, err := Resolve(context.Background(), Options{Sched: "fifo", Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := study(t)
	st.Count = 2
	points, err := pr.Run(context.Background(), st, nil, func(*results.Point) error { return nil })
	if err != nil || len(points) != 4 {
		t.Fatalf("Run = %d points, %v; want 4", len(points), err)
	}
	for i, p := range points {
		if want := i/2 + 1; p.Rep != want || p.Seed != uint64(want) || p.CPUs != i%2+1 || p.Bottleneck == nil {
			t.Errorf("point %d: rep %d, seed %d, %d CPUs, bottleneck %v; want rep and seed %d, %d CPUs, a bottleneck", i, p.Rep, p.Seed, p.CPUs, p.Bottleneck, want, i%2+1)
		}
	}
	noop := st.Specs[0]
	noop.Mode = coffee.MustParseMode("noop")
	st.Specs = append([]shopsweep.Spec{noop}, st.Specs...)
	var skipped []error
	preds := pr.Study(context.Background(), st, 2, func(err error) { skipped = append(skipped, err) })
	if len(preds) != 2 || preds[0].Mode != "finelocking" || len(skipped) != 1 || !strings.Contains(skipped[0].Error(), "no prediction for noop") {
		t.Errorf("Study = %d points, skipped %v; want finelocking's 2 and noop's error", len(preds), skipped)
	}
}

// A study larger than the memory budget is refused before it starts,
// naming the budget.
func TestCheckSize(t *testing.T) {
	st := study(t)
	if err := CheckSize(Options{Sched: "fifo", MaxMem: 1 << 30}, st, nil, st.Total()); err != nil {
		t.Errorf("CheckSize of a small study in 1 GiB: %v", err)
	}
	err := CheckSize(Options{Sched: "fifo", MaxMem: 1000}, st, nil, st.Total())
	if err == nil || !strings.Contains(err.Error(), "--max-mem is") {
		t.Errorf("CheckSize in 1000 bytes = %v, want it refused naming --max-mem", err)
	}
}

// calibrateField is the cost of o that name names.
func calibrateField(o *Options, name string) *time.Duration { return calibrate.Field(&o.Costs, name) }

// Check counts a study's points and refuses it over the budget; Run
// simulates it; Advise says what would help its first point, naming the
// model, after CheckAdvice has accepted it.
func TestCheckRunAdvise(t *testing.T) {
	st := study(t)
	o := Options{Sched: "fifo", Seed: 1, MaxMem: 1 << 30}
	n, err := Check(o, st, nil, "--modes")
	if err != nil || n != 2 {
		t.Fatalf("Check = %d, %v; want 2 points", n, err)
	}
	pr, err := Resolve(context.Background(), o, nil)
	if err != nil {
		t.Fatal(err)
	}
	points, err := pr.Run(context.Background(), st, nil, func(*results.Point) error { return nil })
	if err != nil || len(points) != 2 {
		t.Fatalf("Run = %d points, %v; want 2", len(points), err)
	}
	s := st.Specs[1]
	if err := CheckAdvice(o, s, nil); err != nil {
		t.Fatalf("CheckAdvice: %v", err)
	}
	o.MaxMem = 1000
	if err := CheckAdvice(o, s, nil); err == nil {
		t.Errorf("CheckAdvice in 1000 bytes: accepted")
	}
	a, err := pr.Advise(context.Background(), s, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Calibration != pr.Describe() {
		t.Errorf("advice's model %q, want %q", a.Calibration, pr.Describe())
	}
}

// WhyConfig gives the point why explains a 1 s window; its profile under
// the fifo policy names a bottleneck.
func TestWhyConfigProfile(t *testing.T) {
	cfg, err := WhyConfig(study(t).Specs[1], 7)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Dur != time.Second || cfg.Warmup != 100*time.Millisecond || cfg.Policy.Seed != 7 || cfg.CPUs != 2 {
		t.Errorf("WhyConfig = %+v, want 2 CPUs, 100ms + 1s, seed 7", cfg)
	}
	pr, err := Resolve(context.Background(), Options{Sched: "fifo", Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := pr.CausalProfile(context.Background(), cfg)
	if err != nil || p == nil {
		t.Fatalf("Profile = %v, %v", p, err)
	}
}

// TestResolveSetsBusyAside: a calibration file kept with --force on a busy
// machine is set aside wherever it is loaded: for the quiet one it carries,
// this machine's costs and band; where it carries none, for the reference
// machine's costs on an unknown machine of this one's CPUs. The points'
// calibration names what was set aside, and the model's description
// (captions, advise) says it in the same words.
func TestResolveSetsBusyAside(t *testing.T) {
	dir := t.TempDir()
	quiet := calibrate.Calibration{Samples: 100, Repeats: 6, Others: 0.02, Date: time.Date(2026, 11, 25, 4, 0, 0, 0, time.UTC),
		Host: results.Host{Name: "vm", CPUModel: "EPYC", GoVersion: "go1.26"}}
	quiet.Costs = sim.Costs{Wake: 22 * time.Microsecond, MutexHandoff: 500, Transfer: sim.Transfer{Socket: 27}}
	quiet.Lo, quiet.Hi = quiet.Costs, quiet.Costs
	busy := quiet
	busy.Date, busy.Others, busy.Forced = quiet.Date.Add(time.Hour), 1.99, true
	busy.Costs = sim.Costs{Wake: 4700, MutexHandoff: 11200 * time.Nanosecond, Transfer: sim.Transfer{Socket: 152}}
	busy.Lo, busy.Hi = busy.Costs, busy.Costs
	ref := calibrate.Reference()
	for _, c := range []struct {
		name      string
		cal       calibrate.Calibration
		wake      time.Duration
		transfer  time.Duration // the point's
		source    string
		reference bool
	}{
		{"after a quiet one", busy.After(quiet), 22 * time.Microsecond, 27, "the last quiet calibration in ", false},
		{"alone", busy, ref.Costs.Wake, model.UnknownHardware(1).Transfer.Socket, "the reference calibration", true},
	} {
		file := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".json")
		if err := calibrate.Save(file, c.cal); err != nil {
			t.Fatal(err)
		}
		pr, err := Resolve(context.Background(), Options{Sched: "go", Calibration: file, Band: true, MaxCPUs: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if pr.Costs.Wake != c.wake || pr.Costs.MutexHandoff == busy.Costs.MutexHandoff || pr.Costs.Transfer.Socket != c.transfer {
			t.Errorf("%s: wake %v, handoff %v, transfer %v; want wake %v, transfer %v, not the busy handoff",
				c.name, pr.Costs.Wake, pr.Costs.MutexHandoff, pr.Costs.Transfer.Socket, c.wake, c.transfer)
		}
		if (pr.Range != nil && pr.Range.Machine != nil) != c.reference || pr.Hardware.Known == c.reference {
			t.Errorf("%s: machine band %v, known %v; want a band over an unknown machine's costs %v", c.name, pr.Range != nil && pr.Range.Machine != nil, pr.Hardware.Known, c.reference)
		}
		a := pr.Cal.SetAside
		if a == nil || !a.Forced || a.Others != 1.99 || a.Reference != c.reference || !strings.HasPrefix(pr.Source, c.source) {
			t.Fatalf("%s: set aside %+v, source %q", c.name, a, pr.Source)
		}
		if d := pr.Describe(); !strings.Contains(d, text.SetAsideLine(*a)) {
			t.Errorf("%s: the description %q does not say %q", c.name, d, text.SetAsideLine(*a))
		}
	}
}

// TestCalibratedSetsBusyAside: the main job's prediction, where the first
// calibration of this machine is measured on a busy machine (not saved),
// sets it aside for the reference machine's costs on an unknown machine,
// as Resolve does.
func TestCalibratedSetsBusyAside(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	busy := calibrate.Calibration{Samples: 100, Repeats: 6, Others: 1.5, Date: time.Date(2026, 11, 25, 23, 0, 0, 0, time.UTC),
		Host: results.Host{Name: "vm", CPUModel: "EPYC", GoVersion: "go1.26"}}
	busy.Costs = sim.Costs{Wake: 4700, MutexHandoff: 11200 * time.Nanosecond}
	busy.Lo, busy.Hi = busy.Costs, busy.Costs
	measure := func(context.Context, func(results.CalibrationEvent)) (calibrate.Calibration, error) { return busy, nil }
	var told []string
	pr, err := Calibrated(context.Background(), measure, func(line string) { told = append(told, line) })
	if err != nil {
		t.Fatal(err)
	}
	ref := calibrate.Reference()
	if pr.Costs.Wake != ref.Costs.Wake || pr.Costs.MutexHandoff != ref.Costs.MutexHandoff || pr.Hardware.Known {
		t.Errorf("wake %v, handoff %v, known machine %v; want the reference's %v and %v on an unknown machine",
			pr.Costs.Wake, pr.Costs.MutexHandoff, pr.Hardware.Known, ref.Costs.Wake, ref.Costs.MutexHandoff)
	}
	a := pr.Cal.SetAside
	if a == nil || !a.Unsaved || !a.Reference || a.Others != 1.5 || pr.Source != "the reference calibration" {
		t.Fatalf("set aside %+v, source %q", a, pr.Source)
	}
	if !strings.Contains(strings.Join(told, "\n"), "using "+calibrate.ReferenceHost+"'s costs.") || !strings.Contains(pr.Describe(), text.SetAsideLine(*a)) {
		t.Errorf("told %q; described %q", told, pr.Describe())
	}
}
