package limits_test

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/experiment/limits"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func fifo(mode string, cpus int) model.Config {
	cfg := model.DefaultConfig(cpus)
	cfg.Mode, cfg.Policy.Sched = mode, "fifo"
	return cfg
}

// profileOf is cfg's causal profile.
func profileOf(cfg model.Config) (*limits.CausalProfile, error) {
	var pr *limits.CausalProfile
	err := limits.CausalProfiles(context.Background(), []model.Config{cfg}, limits.EveryRelief, func(_ int, p *limits.CausalProfile, err error) error {
		pr = p
		return err
	})
	return pr, err
}

func profile(t *testing.T, cfg model.Config) *limits.CausalProfile {
	t.Helper()
	pr, err := profileOf(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

// predict is each configuration's point with its causal verdict.
func predict(cfgs []model.Config) ([]results.Point, error) {
	var ps []results.Point
	err := limits.CausalProfiles(context.Background(), cfgs, limits.EveryRelief, func(_ int, pr *limits.CausalProfile, err error) error {
		if err == nil {
			ps = append(ps, pr.Point())
		}
		return err
	})
	return ps, err
}

// simulate is cfg's point, and fails the test on an error.
func simulate(t *testing.T, cfg model.Config) results.Point {
	t.Helper()
	ps, err := model.Simulate(context.Background(), []model.Config{cfg}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ps[0]
}

func near(got, want, tol float64) bool { return got >= want-tol && got <= want+tol }

// example loads the YAML system examples/name, configured on cpus CPUs
// under the fifo policy.
func example(t *testing.T, name string, cpus int) model.Config {
	t.Helper()
	bp, err := blueprint.Load(filepath.Join("..", "..", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	cfg := model.SystemConfig(bp, cpus)
	cfg.Policy.Sched = "fifo"
	return cfg
}

// The verdicts of the talk's shop under the fifo policy, where the
// figures can be checked by hand.
func TestVerdicts(t *testing.T) {
	one := fifo("finelocking", 2)
	one.Par = 1
	for _, tc := range []struct {
		name      string
		cfg       model.Config
		resources []string
		gain      float64
		combined  bool
		words     []string
	}{
		// CPU-bound with one customer a CPU: neither more CPUs alone nor
		// more customers alone helps; one more of each does.
		{"ideal on 4 CPUs", fifo("ideal", 4), []string{"cpus", "customers"}, 0.25, false,
			[]string{"The CPUs and the customers limit it together: one more CPU and one more customer: +25 % (1250 lattes/s)", "one more CPU, the same 4 customers: +0.0 %", "twice the customers (4 → 8): +0.0 %"}},
		// The kitchen lock: combining outside it gains a third.
		{"locking on 2 CPUs", fifo("locking", 2), []string{"kitchen"}, 1.0 / 3, false,
			[]string{"The kitchen lock limits it: the kitchen lock held for less: combining outside it: +33 % (333 lattes/s", "The kitchen lock held 100 % of the time, working 100 %"}},
		// Three machines bind together: no single relief helps, another
		// of each gains half.
		{"finelocking on 6 CPUs", fifo("finelocking", 6), []string{"grinder", "espresso", "steamer"}, 0.5, true,
			[]string{"No single relief raises throughput: each gains under 0.1 %.", "The grinder, the espresso machine and the steamer bind together: another grinder + another espresso machine + another steamer: +50 % (1500 lattes/s", "without any one of them, 1 % or less"}},
		// The machines and the CPUs bind together at 4 CPUs.
		{"finelocking on 4 CPUs", fifo("finelocking", 4), []string{"grinder", "espresso", "steamer", "cpus", "customers"}, 0.25, true,
			[]string{"another grinder + another espresso machine + another steamer + one more CPU and one more customer: +25 %"}},
		// One customer on two CPUs: the customers alone, though one more
		// CPU with one more customer gains as much.
		{"one customer", one, []string{"customers"}, 1, false, []string{"The customers limit it: twice the customers (1 → 2): +100 %"}},
		// parsteam steams in a goroutine of its own: one more CPU helps
		// even with the same customers.
		{"parsteam on 3 CPUs", fifo("parsteam", 3), []string{"cpus"}, 1.0 / 3, false, []string{"The CPUs limit it"}},
	} {
		pr := profile(t, tc.cfg)
		b, said := pr.Bottleneck, text.BottleneckText(pr.Point())
		if !slices.Equal(b.Resources, tc.resources) || b.Resource != strings.Join(tc.resources, "+") || !near(b.Gain, tc.gain, 0.02) || (b.Combined != nil) != tc.combined {
			t.Errorf("%s: %v gaining %.3f (combined %v); want %v gaining %.3f (combined %v)\n%s", tc.name, b.Resources, b.Gain, b.Combined != nil, tc.resources, tc.gain, tc.combined, said)
		}
		for _, w := range tc.words {
			if !strings.Contains(said, w) {
				t.Errorf("%s: words lack %q:\n%s", tc.name, w, said)
			}
		}
		if b.Model != "model (fifo)" || len(b.Experiments) != len(pr.Trials) || len(b.Tier) == 0 && b.Combined == nil {
			t.Errorf("%s: model %q, %d experiments of %d trials, recommends %v", tc.name, b.Model, len(b.Experiments), len(pr.Trials), b.Tier)
		}
		for i := 1; i < len(b.Experiments); i++ {
			if b.Experiments[i].Gain > b.Experiments[i-1].Gain {
				t.Errorf("%s: experiment %d gains more than %d", tc.name, i+1, i)
			}
		}
	}
}

// Each relief changes what it says: a step, a machine, a lock, the CPUs,
// the customers, a channel — never the seed.
func TestReliefsChangeWhatTheySay(t *testing.T) {
	pr := profile(t, fifo("linearpipe-1", 2))
	base := *pr.Config
	for _, tr := range pr.Trials {
		c := *tr.Config
		c.Steps, c.Variant, c.CPUs, c.Par = base.Steps, base.Variant, base.CPUs, base.Par
		if !reflect.DeepEqual(c, base) {
			t.Errorf("%s changes more than the shop: %+v", text.ChangeText(tr.Experiment), *tr.Config)
		}
	}
	changes := map[string]func(model.Config) bool{
		"grinding 10 % faster":                                     func(c model.Config) bool { return c.Steps.Grind == base.Steps.Grind*9/10 },
		"another espresso machine":                                 func(c model.Config) bool { return c.Variant.Copies.Espresso == 2 },
		"twice the buffer of the order queue (1 → 2)":              func(c model.Config) bool { return c.Variant.Buffers.Grinder == 2 },
		"one more CPU, the same 2 customers":                       func(c model.Config) bool { return c.CPUs == 3 && c.Par == 2 },
		"one more CPU and one more customer":                       func(c model.Config) bool { return c.CPUs == 3 && c.Par == 3 },
		"twice the customers (2 → 4)":                              func(c model.Config) bool { return c.CPUs == 2 && c.Par == 4 },
		"twice the buffer of the channel into the steamer (1 → 2)": func(c model.Config) bool { return c.Variant.Buffers.Steamer == 2 },
	}
	for _, tr := range pr.Trials {
		if ok, known := changes[text.ChangeText(tr.Experiment)]; known && !ok(*tr.Config) {
			t.Errorf("%s: config %+v", text.ChangeText(tr.Experiment), *tr.Config)
		}
		delete(changes, text.ChangeText(tr.Experiment))
	}
	if len(changes) > 0 {
		t.Errorf("not tried: %v", changes)
	}
}

// An open loop that keeps up: the arrivals limit, and nothing raises
// throughput; with several lines of machines (multi-4) they are still "the
// arrivals", not counted as machines are ("the 4 arrivalss", issue 42).
func TestOpenLoopKeepsUp(t *testing.T) {
	for _, mode := range []string{"finelocking", "multi-4"} {
		cfg := fifo(mode, 2)
		cfg.Rate, cfg.MaxQ = 300, 10
		pr := profile(t, cfg)
		b, said := pr.Bottleneck, text.BottleneckText(pr.Point())
		if b.Resource != "arrivals" || text.BottleneckName(&b) != "the arrivals" || !strings.Contains(said, "The arrivals limit it: it keeps up with the 300 lattes/s arriving") {
			t.Errorf("%s: %v named %q: %s", mode, b.Resources, text.BottleneckName(&b), said)
		}
	}
}

// The same configuration and seed give the same profile.
func TestDeterministic(t *testing.T) {
	cfg := fifo("multi-2", 3)
	cfg.Steps.Jitter = cfg.Steps.Grind
	a, b := profile(t, cfg), profile(t, cfg)
	if !reflect.DeepEqual(a.Bottleneck, b.Bottleneck) {
		t.Errorf("two profiles differ:\n%+v\n%+v", a.Bottleneck, b.Bottleneck)
	}
}

func TestBlueprint(t *testing.T) {
	pr, err := profileOf(example(t, "cafe.yaml", 4))
	if err != nil {
		t.Fatal(err)
	}
	b, said := pr.Bottleneck, text.BottleneckText(pr.Point())
	if b.Resource != "barista" || !strings.HasPrefix(said, "The barista limits it: one more barista (2 → 3): +50 % (375 lattes/s") {
		t.Errorf("cafe on 4 CPUs: %v: %s", b.Resources, said)
	}
	// The pipeline's stages and channels are relieved too.
	pr, err = profileOf(example(t, "splitpipe.yaml", 4))
	if err != nil {
		t.Fatal(err)
	}
	var changes []string
	for _, tr := range pr.Trials {
		changes = append(changes, text.ChangeText(tr.Experiment))
	}
	for _, want := range []string{"one more worker at stage espresso (1 → 2)", "twice the buffer into stage steamer (1 → 2)", "combine 10 % faster"} {
		if !slices.Contains(changes, want) {
			t.Errorf("splitpipe.yaml: no %q among %v", want, changes)
		}
	}
}

// A measured point takes its bottleneck from the model's profile of its
// configuration, its own machines' times, and says how it compares with
// the model, or that other processes disturbed it.
func TestAnnotateMeasured(t *testing.T) {
	p := simulate(t, fifo("locking", 2))
	p.Source, p.Sched, p.Seed, p.Bounds = results.SourceMeasured, "", 0, nil
	p.Host.Cores = 2 // all of them the point's
	agree, off, noisy := p, p, p
	agree.Throughput = 248
	off.Throughput = 200
	noisy.Throughput, noisy.OthersCPUs = 120, 0.8
	noop := results.Point{Source: results.SourceMeasured, Spec: results.Spec{Mode: "noop", CPUs: 1, Load: results.Load{Par: 1, Dur: time.Second}}, Shop: &results.Shop{}}
	lab := results.Point{Kind: results.KindLab, Lab: &results.Lab{Name: "workloads"}, Spec: results.Spec{Mode: "workloads/add"}}
	ps := []results.Point{agree, off, noisy, noop, lab}
	if err := limits.Annotate(ps, limits.Fifo()); err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"Measured 248 lattes/s, as the model gives (250, -0.8 %).",
		"The measurement disagrees with the model: 200 lattes/s measured, the model gives 250 (-20 %)",
		"while other processes took 0.80 CPUs of the machine's 2: disturbed, it says nothing about the design"} {
		b, said := ps[i].Bottleneck, text.BottleneckText(ps[i])
		if b == nil || b.Resource != "kitchen" || strings.Count(said, want) != 1 {
			t.Errorf("point %d: %+v says %q; want the kitchen and %q once", i, b, said, want)
		}
	}
	if b := ps[3].Bottleneck; b == nil || b.Resource != "unknown" || !strings.Contains(text.BottleneckText(ps[3]), "no virtual time") {
		t.Errorf("noop in a closed loop: %+v", b)
	}
	if ps[4].Bottleneck != nil {
		t.Errorf("a lab's point got a bottleneck: %+v", ps[4].Bottleneck)
	}
	// Points with a profile are left as they are.
	before := *ps[0].Bottleneck
	if err := limits.Annotate(ps[:1], limits.Fifo()); err != nil || !reflect.DeepEqual(*ps[0].Bottleneck, before) {
		t.Errorf("annotated twice: %v", err)
	}
}

// CausalProfiles give the points of brewput model with their bottlenecks, in
// order; the point is the profile's own simulation as it is.
func TestPredict(t *testing.T) {
	cfgs := []model.Config{fifo("locking", 2), fifo("ideal", 3)}
	ps, err := predict(cfgs)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		want := simulate(t, cfgs[i])
		if p.Mode != want.Mode || p.Throughput != want.Throughput || p.Latency != want.Latency || p.Bottleneck == nil {
			t.Errorf("point %d: %+v, want %+v with a bottleneck", i, p, want)
		}
	}
}

// A go-policy point with a range of costs gets its band from its profile,
// the band model.Simulate gives it; its profile's reliefs are simulated with the
// medians alone (no band on their points, nor a Range on their
// configurations), so a relief's gain is measured against the estimate
// at the same costs, and the verdict is the one without the range.
func TestPredictBand(t *testing.T) {
	us := time.Microsecond
	costs := sim.Costs{Switch: 150, Wake: 75 * us, SpinWake: us, SpinWindow: 80 * us, MutexHandoff: 1200, ChanHandoff: 2900, BufChanHandoff: 2300}
	lo, hi := costs, costs
	lo.Wake, hi.Wake, lo.SpinWindow, hi.SpinWindow = 60*us, 90*us, 10*us, 200*us
	cfg := model.DefaultConfig(6)
	cfg.Mode, cfg.Costs, cfg.Range = "finelocking", costs, model.NewRange(lo, hi)
	ps, err := predict([]model.Config{cfg})
	if err != nil {
		t.Fatal(err)
	}
	want := simulate(t, cfg)
	p := ps[0]
	if p.Band == nil || !reflect.DeepEqual(p.Band, want.Band) || p.Throughput != want.Throughput {
		t.Errorf("band %+v around %v, want model.Simulate's %+v around %v", p.Band, p.Throughput, want.Band, want.Throughput)
	}
	pr := profile(t, cfg)
	if pr.Config == nil || pr.Config.Range != nil {
		t.Errorf("the profile's configuration carries the range: %+v", pr.Config)
	}
	for _, tr := range pr.Trials {
		if tr.Config == nil || tr.Config.Range != nil {
			t.Errorf("relief %q simulated with a band", text.ChangeText(tr.Experiment))
		}
	}
	noRange := cfg
	noRange.Range = nil
	if plain := profile(t, noRange); !reflect.DeepEqual(plain.Bottleneck, pr.Bottleneck) {
		t.Errorf("the verdict with a range differs from the one without:\n%+v\n%+v", pr.Bottleneck, plain.Bottleneck)
	}
}

// CausalProfiles hand each configuration's profile in order, the one the model
// cannot simulate with its error, and go on past it.
func TestProfilesInOrder(t *testing.T) {
	cfgs := []model.Config{fifo("locking", 2), fifo("noop", 1), fifo("ideal", 1)}
	var got []string
	err := limits.CausalProfiles(context.Background(), cfgs, limits.EveryRelief, func(i int, pr *limits.CausalProfile, err error) error {
		switch {
		case err != nil:
			got = append(got, fmt.Sprintf("%d: %v", i, err))
		case len(pr.Bottleneck.Experiments) == 0:
			t.Errorf("%s: no profile", pr.System)
		default:
			got = append(got, fmt.Sprintf("%d: %s", i, pr.System))
		}
		return nil
	})
	if err != nil || len(got) != 3 || got[0] != "0: locking on 2 CPUs" || !strings.Contains(got[1], "1: noop in a closed loop") || got[2] != "2: ideal on 1 CPU" {
		t.Errorf("profiles %q, %v", got, err)
	}
}

// ModelLabel says the policy and its costs.
func TestModelLabel(t *testing.T) {
	if label := limits.ModelLabel("go", sim.Costs{Wake: 132 * time.Microsecond}); !strings.HasPrefix(label, "model (go: wake 132µs, ") || !strings.HasSuffix(label, ")") {
		t.Errorf("label %q", label)
	}
}

// Other processes disturb a point only by taking CPU from it: a point on
// 1 CPU of 2 leaves a core to them.
func TestIsDisturbed(t *testing.T) {
	for _, tc := range []struct {
		cpus, cores int
		others      float64
		want        bool
	}{{1, 2, 0.9, false}, {1, 2, 1.3, true}, {2, 2, 0.3, true}, {2, 2, 0.1, false}, {2, 0, 0.3, true}} {
		p := results.Point{Spec: results.Spec{CPUs: tc.cpus}, Trust: results.Trust{OthersCPUs: tc.others}, Host: results.Host{Cores: tc.cores}}
		if got := p.IsDisturbed(); got != tc.want {
			t.Errorf("%d CPUs of %d, others %.1f: disturbed %v, want %v", tc.cpus, tc.cores, tc.others, got, tc.want)
		}
	}
}
