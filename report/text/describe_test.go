package text

import (
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// TestDescribe: a study's point is described by its meters, as measured
// — held, waited, per use, most used first, copies as one pool — and its
// CPUs, with no verdict and no change recommended: brewput has no model
// of the user's code. A shop's point gets no such description.
func TestDescribe(t *testing.T) {
	p := results.Point{Kind: results.KindStudy, Source: results.SourceMeasured, Spec: results.Spec{Mode: "mutex-write", CPUs: 2, Load: results.Load{Par: 2, Dur: time.Second}}, Study: &results.Study{Name: "cache", Meters: []results.Machine{
		{Name: "log", Kind: "chan send", Uses: 1000, MeanWaitMs: 0.002},
		{Name: "cache", Kind: "mutex", Uses: 4e6, BusyFrac: 0.7, MeanWaitMs: 0.00016}}},
		Ops: 4e6, Throughput: 4e6, Unit: "ops/s", Metrics: map[results.Metric]float64{results.Util: 0.86},
		// Held 70 % of the time; 4 M uses waiting 0.16 µs each is 0.64 s
		// of the 2 workers' 2 s: 32 % of their time.
	}
	d := Describe(p)
	want := NoCausalProfile + " Measured over the window: mutex cache held 70 % of the time, 4.0 M uses, callers waiting 32 % of their time (160 ns per use); " +
		"chan log 1000 uses, callers waiting 0 % of their time (2.0 µs per use); CPUs 86 % used."
	if d != want {
		t.Errorf("description\n%s\nwant\n%s", d, want)
	}
	for _, never := range []string{"limit", "shard", "split", "hold it for less", "bound"} {
		if strings.Contains(strings.TrimPrefix(d, NoCausalProfile), never) {
			t.Errorf("description says %q: %s", never, d)
		}
	}

	shards := p
	shards.Study = &results.Study{Name: p.Study.Name}
	for _, name := range []string{"shard#1", "shard#2"} {
		shards.Study.Meters = append(shards.Study.Meters, results.Machine{Name: name, Kind: "mutex", Uses: 1e6, BusyFrac: 0.95, MeanWaitMs: 0.001})
	}
	if d := Describe(shards); !strings.Contains(d, "2 mutexes shard held 95 % of the time each, on average, 2.0 M uses") {
		t.Errorf("two shards: %s", d)
	}

	// Uncontended, and measured while other processes took CPU.
	quiet := p
	quiet.Shop = &results.Shop{Machines: []results.Machine{{Name: "cache", Kind: "mutex", Uses: 10, BusyFrac: 0.1}}}
	quiet.OthersCPUs, quiet.Host.Cores = 0.61, 2
	if d := Describe(quiet); !strings.HasSuffix(d, "mutex cache held 10 % of the time, 10 uses, no caller waiting for it; CPUs 86 % used; other processes used 0.61 CPUs of the machine's 2 meanwhile.") {
		t.Errorf("uncontended, disturbed: %s", d)
	}

	// A variant named like a coffee mode is still the user's code.
	named := p
	named.Mode = "locking"
	if d := Describe(named); !strings.Contains(d, "mutex cache held 70 %") {
		t.Errorf("a variant named locking: %s", d)
	}
	if rs := analysis.Resources(named); len(rs) != 3 || rs[1].Meter != "chan send" || rs[2].Meter != "mutex" {
		t.Errorf("a variant named locking: resources %+v", rs)
	}

	bench := results.Point{Kind: results.KindBench, Spec: results.Spec{Mode: "Get", CPUs: 2, Load: results.Load{Par: 2}}, Throughput: 1e6, Bench: &results.Benchmark{Name: "BenchmarkGet"}}
	if d := Describe(bench); d != NoCausalProfile {
		t.Errorf("a Go benchmark: %q", d)
	}
	if d := Describe(results.Point{Source: results.SourceModel, Spec: results.Spec{Mode: "locking", CPUs: 2, Load: results.Load{Par: 2}}, Shop: &results.Shop{}}); d != "" {
		t.Errorf("the shop's point described as user code: %q", d)
	}
}
