package analysis_test

import (
	"math"
	"strings"
	"testing"

	"github.com/brewput/brewput/analysis"
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
	cfg.Mode, cfg.Sched = mode, "fifo"
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

func TestBottleneckOfModes(t *testing.T) {
	for _, tc := range []struct {
		mode     string
		cpus     int
		resource []string // any of these
		bound    float64
	}{
		{"finelocking", 6, []string{"grinder", "espresso", "steamer"}, 1000},
		{"multi-2", 6, []string{"cpus"}, 1500},
		{"locking", 2, []string{"kitchen"}, 250},
		{"locking", 1, []string{"kitchen"}, 250}, // binds with the CPU: the lock is named
		{"ideal", 4, []string{"cpus"}, 1000},
		{"linearpipe-1", 6, []string{"grinder", "espresso", "steamer"}, 1000},
		{"multipipe-2", 8, []string{"grinder", "espresso", "steamer"}, 2000},
		{"finelocking", 2, []string{"cpus"}, 500},
	} {
		p := modelPoint(t, tc.mode, tc.cpus, nil)
		b := analysis.Bottleneck(p)
		found := false
		for _, r := range tc.resource {
			found = found || b.Resource == r
		}
		if !found {
			t.Errorf("%s on %d CPUs: bottleneck %q, want one of %v (%s)", tc.mode, tc.cpus, b.Resource, tc.resource, b.Text)
		}
		if b.Utilization < analysis.Saturated || b.Utilization > 1.0001 {
			t.Errorf("%s on %d CPUs: utilization %.3f, want saturated", tc.mode, tc.cpus, b.Utilization)
		}
		if !near(b.Bound, tc.bound, 0.001) {
			t.Errorf("%s on %d CPUs: bound %.1f, want %.0f", tc.mode, tc.cpus, b.Bound, tc.bound)
		}
		if !strings.Contains(b.Text, "%") || !strings.Contains(b.Text, "allows") {
			t.Errorf("%s on %d CPUs: text %q says no utilization or bound", tc.mode, tc.cpus, b.Text)
		}
	}
}

func TestBottleneckWords(t *testing.T) {
	b := analysis.Bottleneck(modelPoint(t, "finelocking", 6, nil))
	for _, want := range []string{"busy 100 % of the time", "multi-2", "CPUs 67 % used", "1000 lattes/s"} {
		if !strings.Contains(b.Text, want) {
			t.Errorf("finelocking on 6 CPUs: %q lacks %q", b.Text, want)
		}
	}
	b = analysis.Bottleneck(modelPoint(t, "locking", 4, nil))
	if !strings.Contains(b.Text, "kitchen lock held 100 %") || !strings.Contains(b.Text, "finelocking") {
		t.Errorf("locking: %q", b.Text)
	}
	b = analysis.Bottleneck(modelPoint(t, "linearpipe-0", 6, nil))
	if !strings.Contains(b.Text, "multipipe") {
		t.Errorf("linearpipe-0: %q does not suggest another line", b.Text)
	}
}

func TestBottleneckLoad(t *testing.T) {
	// One customer on two CPUs: nothing is saturated, the customer limits.
	b := analysis.Bottleneck(modelPoint(t, "ideal", 2, func(c *model.Config) { c.Customers = 1 }))
	if b.Resource != "customers" || !near(b.Bound, 250, 0.001) || !near(b.Utilization, 1, 0.01) {
		t.Errorf("ideal with 1 customer on 2 CPUs: %+v, want customers bounding at 250", b)
	}
	if !strings.Contains(b.Text, "1 customer at a time limits it") {
		t.Errorf("text %q", b.Text)
	}
	// An open loop below capacity keeps up with its arrivals.
	b = analysis.Bottleneck(modelPoint(t, "finelocking", 2, func(c *model.Config) { c.Rate, c.MaxQ = 300, 10 }))
	if b.Resource != "arrivals" || b.Bound != 300 {
		t.Errorf("finelocking at 300/s on 2 CPUs: %+v, want arrivals", b)
	}
}

// A measured point is judged from its meters and CPU time: copies of a
// machine are one pool, and the model's structure gives the bound.
func TestBottleneckMeasured(t *testing.T) {
	p := results.Point{
		Source: results.SourceMeasured, Mode: "multi-2", CPUs: 8, Par: 8, Throughput: 1900, Unit: "lattes/s",
		Util: 0.7,
		Machines: []results.Machine{
			{Name: "grinder#1", Uses: 950, BusyFrac: 0.97, MeanWaitMs: 1},
			{Name: "grinder#2", Uses: 950, BusyFrac: 0.95, MeanWaitMs: 3},
			{Name: "espresso#1", Uses: 950, BusyFrac: 0.5},
			{Name: "espresso#2", Uses: 950, BusyFrac: 0.5},
		},
		Steps: results.Steps{GrindMs: 1, PressMs: 0.5, SteamMs: 0.5, LatteMs: 1},
	}
	b := analysis.Bottleneck(p)
	if b.Resource != "grinder" || !near(b.Utilization, 0.96, 0.001) || !near(b.Bound, 2000, 0.001) {
		t.Fatalf("got %+v, want the 2 grinders at 96 %% bounding at 2000", b)
	}
	for _, want := range []string{"2 grinders busy 96 %", "2 ms wait per use", "add a grinder", "95 % of that"} {
		if !strings.Contains(b.Text, want) {
			t.Errorf("%q lacks %q", b.Text, want)
		}
	}
	// Unknown to the model (a YAML system): the empirical bound.
	p.Mode = "cafe"
	p.Machines = []results.Machine{{Name: "barista", Uses: 10, BusyFrac: 0.95}}
	b = analysis.Bottleneck(p)
	if b.Resource != "barista" || !near(b.Bound, 1900/0.95, 0.001) {
		t.Errorf("unknown mode: %+v, want barista bounding at throughput/utilization", b)
	}
}

func TestAnnotateKeepsWhatIsThere(t *testing.T) {
	ps := []results.Point{modelPoint(t, "locking", 2, nil), modelPoint(t, "ideal", 2, nil)}
	ps[1].Bottleneck = &results.Bottleneck{Resource: "given"}
	analysis.Annotate(ps)
	if ps[0].Bottleneck == nil || ps[0].Bottleneck.Resource != "kitchen" {
		t.Errorf("first point: %+v", ps[0].Bottleneck)
	}
	if ps[1].Bottleneck.Resource != "given" {
		t.Errorf("Annotate replaced a bottleneck already there: %+v", ps[1].Bottleneck)
	}
}

// TestBottleneckUserLock: a lock metered by package meter is the limit
// when it is held, or waited for, nearly all the time, even when it is
// held less than that (a contended lock passes slowly between goroutines),
// and it is named as a lock, with the advice to split it; a lock used
// little leaves the CPUs named; Go benchmarks' points get no bottleneck.
func TestBottleneckUserLock(t *testing.T) {
	p := results.Point{Source: results.SourceMeasured, Study: "cache", Mode: "mutex-write", CPUs: 2, Par: 2, DurS: 1,
		Ops: 4e6, Throughput: 4e6, Unit: "ops/s", Util: 0.86,
		// Held 70 % of the time; 4 M uses waiting 0.16 µs each is 0.64 s
		// of the 2 workers' 2 s: 32 % of their time.
		Machines: []results.Machine{{Name: "cache", Kind: "mutex", Uses: 4e6, BusyFrac: 0.7, MeanWaitMs: 0.00016}}}
	b := analysis.Bottleneck(p)
	if b.Resource != "cache" || b.Utilization != 1 {
		t.Errorf("resource %s at %v, want the mutex cache at 1: %s", b.Resource, b.Utilization, b.Text)
	}
	for _, want := range []string{"mutex cache held 70 % of the time", "its callers waiting 32 % of theirs (160 ns per use)", "shard it", "CPUs 86 % used"} {
		if !strings.Contains(b.Text, want) {
			t.Errorf("text lacks %q: %s", want, b.Text)
		}
	}

	p.Util, p.Machines[0].BusyFrac, p.Machines[0].MeanWaitMs = 1, 0.4, 0
	if b := analysis.Bottleneck(p); b.Resource != "cpus" || !strings.Contains(b.Text, "mutex cache 40 % busy") {
		t.Errorf("an uncontended lock on busy CPUs: %+v", b)
	}

	shards := p
	shards.Machines = nil
	for _, name := range []string{"shard#1", "shard#2"} {
		shards.Machines = append(shards.Machines, results.Machine{Name: name, Kind: "mutex", Uses: 1e6, BusyFrac: 0.95, MeanWaitMs: 0.001})
	}
	if b := analysis.Bottleneck(shards); b.Resource != "shard" || !strings.Contains(b.Text, "2 mutexes shard held 95 %") {
		t.Errorf("two shards: %+v", b)
	}

	bench := []results.Point{{Mode: "Get", CPUs: 2, Par: 2, Throughput: 1e6, Bench: &results.Benchmark{Name: "BenchmarkGet"}}}
	analysis.Annotate(bench)
	if bench[0].Bottleneck != nil {
		t.Errorf("a Go benchmark's point got a bottleneck: %+v", bench[0].Bottleneck)
	}
}
