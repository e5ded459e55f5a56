package scaling_test

import (
	"math"
	"strings"
	"testing"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/explain/scaling"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// modelPoint simulates mode on cpus under the fifo policy, the talk's
// shop with every step 1 ms.
func modelPoint(t *testing.T, mode string, cpus int, edit func(*model.Config)) results.Point {
	t.Helper()
	cfg := model.DefaultConfig(cpus)
	cfg.Mode, cfg.Sched = coffee.MustParseMode(mode), "fifo"
	if edit != nil {
		edit(&cfg)
	}
	r, err := model.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r.Point(cfg)
}

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol*want }

// Resources lists the CPUs and each kind of machine the mode holds, copies
// as one pool, with the time held and working and the bound of the
// model's structure.
func TestResources(t *testing.T) {
	rs := scaling.Resources(modelPoint(t, "finelocking", 6, nil))
	if len(rs) != 4 || rs[0].Name != "cpus" || rs[1].Name != "grinder" {
		t.Fatalf("finelocking: %+v", rs)
	}
	if !near(rs[0].Bound, 1500, 0.001) || !near(rs[1].Bound, 1000, 0.001) || !near(rs[1].Utilization, 1, 0.01) || !near(rs[1].Working, 1, 0.01) {
		t.Errorf("finelocking on 6 CPUs: %+v", rs)
	}
	rs = scaling.Resources(modelPoint(t, "parsteam", 2, nil))
	if es := rs[2]; es.Name != "espresso" || es.Utilization < 0.9 || es.Working > 0.55 {
		t.Errorf("parsteam on 2 CPUs: espresso %+v, want held nearly always and working half the time", es)
	}
	rs = scaling.Resources(modelPoint(t, "multi-2", 4, nil))
	if rs[1].Name != "grinder" || rs[1].Copies != 2 || !near(rs[1].Bound, 2000, 0.001) {
		t.Errorf("multi-2: %+v", rs[1])
	}
	// ideal holds nothing: only the CPUs.
	if rs := scaling.Resources(modelPoint(t, "ideal", 2, nil)); len(rs) != 1 {
		t.Errorf("ideal: %+v", rs)
	}
	// Unknown to the model (a YAML system): the empirical bound.
	p := results.Point{Mode: "cafe", Throughput: 1900, Util: 0.5, Shop: &results.Shop{Machines: []results.Machine{{Name: "barista", Uses: 10, BusyFrac: 0.95}}}}
	if rs := scaling.Resources(p); len(rs) != 2 || !near(rs[1].Bound, 2000, 0.001) {
		t.Errorf("unknown mode: %+v", rs)
	}
}

// TestDescribe: a study's point is described by its meters, as measured
// — held, waited, per use, most used first, copies as one pool — and its
// CPUs, with no verdict and no change recommended: brewput has no model
// of the user's code. A shop's point gets no such description.
func TestDescribe(t *testing.T) {
	p := results.Point{Source: results.SourceMeasured, Study: "cache", Mode: "mutex-write", CPUs: 2, Par: 2, DurS: 1,
		Ops: 4e6, Throughput: 4e6, Unit: "ops/s", Util: 0.86,
		// Held 70 % of the time; 4 M uses waiting 0.16 µs each is 0.64 s
		// of the 2 workers' 2 s: 32 % of their time.
		Shop: &results.Shop{Machines: []results.Machine{
			{Name: "log", Kind: "chan send", Uses: 1000, MeanWaitMs: 0.002},
			{Name: "cache", Kind: "mutex", Uses: 4e6, BusyFrac: 0.7, MeanWaitMs: 0.00016}}}}
	d := scaling.Describe(p)
	want := scaling.NoProfile + " Measured over the window: mutex cache held 70 % of the time, 4.0 M uses, callers waiting 32 % of their time (160 ns per use); " +
		"chan log 1000 uses, callers waiting 0 % of their time (2.0 µs per use); CPUs 86 % used."
	if d != want {
		t.Errorf("description\n%s\nwant\n%s", d, want)
	}
	for _, never := range []string{"limit", "shard", "split", "hold it for less", "bound"} {
		if strings.Contains(strings.TrimPrefix(d, scaling.NoProfile), never) {
			t.Errorf("description says %q: %s", never, d)
		}
	}

	shards := p
	shards.Shop = &results.Shop{}
	for _, name := range []string{"shard#1", "shard#2"} {
		shards.Machines = append(shards.Machines, results.Machine{Name: name, Kind: "mutex", Uses: 1e6, BusyFrac: 0.95, MeanWaitMs: 0.001})
	}
	if d := scaling.Describe(shards); !strings.Contains(d, "2 mutexes shard held 95 % of the time each, on average, 2.0 M uses") {
		t.Errorf("two shards: %s", d)
	}

	// Uncontended, and measured while other processes took CPU.
	quiet := p
	quiet.Shop = &results.Shop{Machines: []results.Machine{{Name: "cache", Kind: "mutex", Uses: 10, BusyFrac: 0.1}}}
	quiet.OthersCPUs, quiet.Host.Cores = 0.61, 2
	if d := scaling.Describe(quiet); !strings.HasSuffix(d, "mutex cache held 10 % of the time, 10 uses, no caller waiting for it; CPUs 86 % used; other processes used 0.61 CPUs of the machine's 2 meanwhile.") {
		t.Errorf("uncontended, disturbed: %s", d)
	}

	// A variant named like a coffee mode is still the user's code.
	named := p
	named.Mode = "locking"
	if d := scaling.Describe(named); !strings.Contains(d, "mutex cache held 70 %") {
		t.Errorf("a variant named locking: %s", d)
	}
	if rs := scaling.Resources(named); len(rs) != 3 || rs[1].Meter != "chan send" || rs[2].Meter != "mutex" {
		t.Errorf("a variant named locking: resources %+v", rs)
	}

	bench := results.Point{Mode: "Get", CPUs: 2, Par: 2, Throughput: 1e6, Bench: &results.Benchmark{Name: "BenchmarkGet"}}
	if d := scaling.Describe(bench); d != scaling.NoProfile {
		t.Errorf("a Go benchmark: %q", d)
	}
	if d := scaling.Describe(modelPoint(t, "locking", 2, nil)); d != "" {
		t.Errorf("the shop's point described as user code: %q", d)
	}
}
