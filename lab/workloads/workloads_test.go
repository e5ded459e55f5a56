package workloads

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/lab/labtest"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// goleak checks after all tests that every concurrent variant waited for
// its goroutines.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// small is a configuration that runs in a moment, for correctness rather
// than timing.
func small() Config {
	return Config{AddSize: 10_001, SortSize: 501, Docs: 60, Wait: 0, Topic: "gopher", Workers: 7, Goroutines: 3, Reps: 2, Workloads: Workloads()}
}

func TestAdd(t *testing.T) {
	for _, n := range []int{1, 2, 3, 10, 1001} {
		numbers := addInput(n)
		want := addWant(n)
		if got := add(numbers); got != want {
			t.Errorf("add of 0..%d = %d, want %d", n-1, got, want)
		}
		for _, g := range []int{1, 2, 3, 7, 2000} { // more goroutines than numbers too
			if got := addConcurrent(g, numbers); got != want {
				t.Errorf("addConcurrent(%d) of 0..%d = %d, want %d", g, n-1, got, want)
			}
		}
	}
}

func TestSort(t *testing.T) {
	for _, n := range []int{1, 2, 3, 17, 500} {
		input, want := sortInput(n)
		if !slices.IsSorted(want) {
			t.Fatalf("reference for %d is not sorted", n)
		}
		a := slices.Clone(input)
		bubbleSort(a)
		if !slices.Equal(a, want) {
			t.Errorf("bubbleSort of %d integers: %v…, want %v…", n, a[:min(n, 5)], want[:min(n, 5)])
		}
		for _, g := range []int{1, 2, 3, 8, 600} {
			a := slices.Clone(input)
			sortConcurrent(g, a)
			if !slices.Equal(a, want) {
				t.Errorf("sortConcurrent(%d) of %d integers is not the sorted input", g, n)
			}
		}
	}
	// Duplicates, reversed and sorted input.
	for _, a := range [][]int{{3, 1, 3, 1, 2, 2}, {5, 4, 3, 2, 1}, {1, 2, 3}} {
		want := slices.Sorted(slices.Values(a))
		for _, sorter := range []func([]int){bubbleSort, func(a []int) { sortConcurrent(2, a) }} {
			b := slices.Clone(a)
			sorter(b)
			if !slices.Equal(b, want) {
				t.Errorf("sort of %v = %v, want %v", a, b, want)
			}
		}
	}
}

func TestFind(t *testing.T) {
	docs, want, err := findInput(200, "gopher")
	if err != nil {
		t.Fatal(err)
	}
	// The generator puts the topic into some documents, not all.
	if want == 0 || want == len(docs) {
		t.Fatalf("%d of %d documents mention the topic, want some but not all", want, len(docs))
	}
	// Independently of the parser: a document mentions the topic iff its
	// text does, as the topic appears only in descriptions.
	raw := 0
	for _, d := range docs {
		if strings.Contains(string(d), "gopher") {
			raw++
		}
	}
	if raw != want {
		t.Fatalf("generator counts %d documents, their text %d", want, raw)
	}
	got, err := find("gopher", docs, 0)
	if err != nil || got != want {
		t.Errorf("find = %d, %v; want %d", got, err, want)
	}
	for _, w := range []int{1, 2, 9, 500} {
		got, err := findConcurrent(w, "gopher", docs, 10*time.Microsecond)
		if err != nil || got != want {
			t.Errorf("findConcurrent(%d) = %d, %v; want %d", w, got, err, want)
		}
	}
	// A topic with XML's special characters survives the round trip.
	docs, want, err = findInput(50, "<a&b>")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := findConcurrent(4, "<a&b>", docs, 0); err != nil || got != want || want == 0 {
		t.Errorf("findConcurrent of <a&b> = %d, %v; want %d (>0)", got, err, want)
	}
	// A broken document is an error, and the pool still stops.
	docs[7] = []byte("<rss><channel>")
	if _, err := find("gopher", docs, 0); err == nil {
		t.Error("find of a broken document: no error")
	}
	if _, err := findConcurrent(3, "gopher", docs, 0); err == nil || !strings.Contains(err.Error(), "document 7") {
		t.Errorf("findConcurrent of a broken document: %v, want an error naming document 7", err)
	}
}

func TestValidate(t *testing.T) {
	labtest.Invalid(t, DefaultConfig, Run, []labtest.Case[Config]{
		{Flag: "add-size", Edit: func(c *Config) { c.AddSize = 0 }},
		{Flag: "add-size", Edit: func(c *Config) { c.AddSize = 2_000_000_000 }},
		{Flag: "sort-size", Edit: func(c *Config) { c.SortSize = -1 }},
		{Flag: "sort-size", Edit: func(c *Config) { c.SortSize = 1_000_000 }},
		{Flag: "docs", Edit: func(c *Config) { c.Docs = 0 }},
		{Flag: "docs", Edit: func(c *Config) { c.Docs = 2_000_000 }},
		{Flag: "wait", Edit: func(c *Config) { c.Wait = -time.Millisecond }},
		{Flag: "wait", Edit: func(c *Config) { c.Wait = time.Minute }},
		{Flag: "topic", Edit: func(c *Config) { c.Topic = "" }},
		{Flag: "workers", Edit: func(c *Config) { c.Workers = -1 }},
		{Flag: "workers", Edit: func(c *Config) { c.Workers = 1_000_000 }},
		{Flag: "goroutines", Edit: func(c *Config) { c.Goroutines = -2 }},
		{Flag: "goroutines", Edit: func(c *Config) { c.Goroutines = 100_000 }},
		{Flag: "reps", Edit: func(c *Config) { c.Reps = 0 }},
		{Flag: "reps", Edit: func(c *Config) { c.Reps = 5000 }},
	})
}

// The flags set the configuration's fields, and a bad value is an error
// that names its flag.
func TestBind(t *testing.T) {
	want := Config{AddSize: 7, SortSize: 9, Docs: 3, Wait: 2 * time.Millisecond, Topic: "x", Workers: 4, Goroutines: 5, Reps: 6, MinRun: 3 * time.Millisecond, Workloads: []string{"find", "add"}}
	labtest.Binds(t, NewLab(), want, "--add-size", "7", "--sort-size", "9", "--docs", "3", "--wait", "2ms", "--topic", "x",
		"--workers", "4", "--goroutines", "5", "--reps", "6", "--min-run", "3ms", "--workloads", "find,add")
	if err := labtest.Bind(NewLab(), "--add-size", "0"); err == nil || err.Error() != "--add-size 0: want at least 1 integer" {
		t.Errorf("--add-size 0: %v", err)
	}
	if err := labtest.Bind(NewLab(), "--workloads", "add,mul"); err == nil || err.Error() != `--workloads "mul": want some of add, sort, find` {
		t.Errorf("--workloads add,mul: %v", err)
	}
}

// TestRunSome: with some workloads chosen, Run measures those alone, in
// its own order.
func TestRunSome(t *testing.T) {
	c := small()
	c.Workloads = []string{"find", "add"}
	ps, err := Run(context.Background(), c, []int{1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ps {
		got = append(got, p.Variant())
	}
	if want := []string{"add/sequential", "add/concurrent", "find/sequential", "find/concurrent"}; !slices.Equal(got, want) {
		t.Errorf("variants %v, want %v", got, want)
	}
}

func TestRunPoints(t *testing.T) {
	c := small()
	c.Reps = lab.IntervalRuns() // for the speedup's interval
	variants := []string{"add/sequential", "add/concurrent", "sort/sequential", "sort/concurrent", "find/sequential", "find/concurrent"}
	ps, told := labtest.RunLab(t, labtest.With(NewLab(), c), []int{1, 2}, 2*len(variants), "",
		[]results.Metric{MetricSpeedup, lab.Lo(MetricSpeedup), lab.Hi(MetricSpeedup), MetricMedianMs, MetricPasses})
	lines := labtest.Lines(told, text.LabEvent)
	host := ps[0].Host
	for i, p := range ps {
		v, n := variants[i%len(variants)], 1+i/len(variants)
		if p.Variant() != v || p.CPUs != n {
			t.Errorf("point %d: variant %q cpus %d, want %s cpus %d", i, p.Variant(), p.CPUs, v, n)
		}
		wantPar := map[string]int{"sequential": 1, "concurrent": 3}[v[strings.Index(v, "/")+1:]]
		if strings.HasPrefix(v, "find/c") {
			wantPar = 7
		}
		if p.Par != wantPar {
			t.Errorf("%s: par %d, want %d", v, p.Par, wantPar)
		}
		wantOps := map[string]int64{"add": 10_001, "sort": 501, "find": 60}[v[:strings.Index(v, "/")]]
		if p.Ops != wantOps {
			t.Errorf("%s: ops %d, want %d", v, p.Ops, wantOps)
		}
		if p.Dur.Seconds() <= 0 || p.Throughput <= 0 || p.Unit == "" || p.Latency.Max < p.Latency.Min || p.Latency.P50 <= 0 {
			t.Errorf("%s: dur %v throughput %v %q latency %+v", v, p.Dur.Seconds(), p.Throughput, p.Unit, p.Latency)
		}
		if med := p.Metrics["median_ms"]; !near(med/1000, p.Dur.Seconds()) || !near(p.Latency.P50, med) {
			t.Errorf("%s: median %v ms, dur %v s, p50 %v ms: want one median", v, p.Metrics["median_ms"], p.Dur.Seconds(), p.Latency.P50)
		}
		if strings.HasSuffix(v, "/sequential") && p.Metrics["speedup"] != 1 {
			t.Errorf("%s: speedup %v, want 1", v, p.Metrics["speedup"])
		}
		if m := p.Metrics; strings.HasSuffix(v, "/concurrent") {
			// The median of the runs' paired ratios, inside its interval.
			lo, sp, hi := m[lab.Lo(MetricSpeedup)], m[MetricSpeedup], m[lab.Hi(MetricSpeedup)]
			if !(0 < lo && lo <= sp && sp <= hi) || !strings.Contains(strings.ReplaceAll(lines[i], "\n  ", " "), fmt.Sprintf("×%.2f [%.2f, %.2f]", sp, lo, hi)) {
				t.Errorf("%s: speedup %v in [%v, %v]; line %q", v, sp, lo, hi, lines[i])
			}
		}
		if p.Host != host {
			t.Errorf("%s: host %+v, want %+v", v, p.Host, host)
		}
		if !strings.Contains(lines[i], v) {
			t.Errorf("progress line %q does not name %s", lines[i], v)
		}
	}
}

// near reports whether a and b agree to a nanosecond in a second: the
// median of an even count of runs is rounded to the nanosecond.
func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))+1e-12 }

func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	c := small()
	c.Reps = 3
	var ps []results.Point
	var err error
	ps, err = Run(ctx, c, []int{1, 1, 1}, func(ev results.LabEvent) {
		if ev.Measured != nil && ev.Measured.Point.Variant() == "sort/concurrent" {
			cancel() // after two workloads
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if len(ps) != 4 {
		t.Errorf("%d points kept, want the 4 measured before the cancel", len(ps))
	}
}

func TestRunBadConfig(t *testing.T) {
	c := small()
	c.Reps = 0
	if _, err := Run(context.Background(), c, []int{1}, nil); err == nil || !strings.HasPrefix(err.Error(), "reps 0") {
		t.Errorf("reps 0: error %v", err)
	}
}

// With MinRun, a run repeats a short workload, as many times both ways,
// and its operations count every pass.
func TestMinRun(t *testing.T) {
	c := small()
	c.SortSize, c.Docs = 2, 1
	c.Reps, c.MinRun = 1, 200*time.Millisecond // a pass of 10,001 additions would have to take 0.1 s for one pass
	ps, err := Run(context.Background(), c, []int{1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps[:2] { // add, sequential and concurrent
		passes := p.Metrics[MetricPasses]
		if passes < 2 || p.Ops != int64(passes)*int64(c.AddSize) || passes != ps[0].Metrics[MetricPasses] {
			t.Errorf("%s: %v passes, %d ops of %d integers; the sequential way %v passes", p.Variant(), passes, p.Ops, c.AddSize, ps[0].Metrics[MetricPasses])
		}
	}
	if err := (Config{AddSize: 1, SortSize: 1, Docs: 1, Topic: "x", Reps: 1, MinRun: -time.Second, Workloads: Workloads()}).Validate(); err == nil || !strings.HasPrefix(err.Error(), "min-run -1s:") {
		t.Errorf("negative --min-run: %v", err)
	}
}
