package compare_test

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/explain/compare"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results/comparison"

	"github.com/brewput/brewput/results"
)

// metric finds a metric of the only row.
func metric(t *testing.T, c comparison.Comparison, name string) compare.Metric {
	t.Helper()
	if len(c.Rows) != 1 {
		t.Fatalf("%d rows, want 1", len(c.Rows))
	}
	for _, m := range c.Rows[0].Metrics {
		if m.Name == name {
			return m
		}
	}
	t.Fatalf("no %s in %+v", name, c.Rows[0])
	return compare.Metric{}
}

func table(t *testing.T, c comparison.Comparison) string {
	t.Helper()
	var b bytes.Buffer
	if err := text.WriteComparison(&b, c); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestSameDistributionIsNoDifference(t *testing.T) {
	c := compare.Compare(measured("a", "locking", 2, 500, 502, 498, 505, 495, 501),
		measured("a", "locking", 2, 501, 499, 503, 497, 500, 504), compare.Options{})
	for _, name := range []string{"throughput", "p50", "p99"} {
		m := metric(t, c, name)
		if m.Significant || m.TooFew || m.Change != 0 || text.MetricVerdict(m) != "~" || m.P < 0.05 {
			t.Errorf("%s: %+v, want no significant difference", name, m)
		}
		if m.Old.N != 6 || m.New.N != 6 || math.IsInf(m.Old.Lo, 0) || math.IsInf(m.New.Hi, 0) {
			t.Errorf("%s: six runs a side should give bounded intervals: %+v", name, m)
		}
	}
	if out := table(t, c); !strings.Contains(out, "  6  ~\n") {
		t.Errorf("table lacks the ~ verdict:\n%s", out)
	}
}

func TestShiftIsSignificantWithTheRightSign(t *testing.T) {
	slow := measured("a", "finelocking", 4, 250, 252, 248, 251, 249, 250)
	fast := measured("a", "finelocking", 4, 500, 504, 496, 502, 498, 500)
	for _, c := range []struct {
		name     string
		old, new []results.Point
		change   int
		tp, p50  string
	}{
		{"faster", slow, fast, 1, "+100.0% better", "-50.0% better"},
		{"slower", fast, slow, -1, "-50.0% worse", "+100.0% worse"},
	} {
		cmp := compare.Compare(c.old, c.new, compare.Options{})
		tp, p50 := metric(t, cmp, "throughput"), metric(t, cmp, "p50")
		for _, m := range []compare.Metric{tp, p50} {
			if !m.Significant || m.TooFew || m.Change != c.change || m.P >= 0.05 {
				t.Errorf("%s %s: %+v, want significant with change %d", c.name, m.Name, m, c.change)
			}
		}
		if text.MetricVerdict(tp) != c.tp || text.MetricVerdict(p50) != c.p50 {
			t.Errorf("%s: verdicts %q and %q, want %q and %q", c.name, text.MetricVerdict(tp), text.MetricVerdict(p50), c.tp, c.p50)
		}
		if tp.Better != "higher" || p50.Better != "lower" || tp.Unit != "lattes/s" || p50.Unit != "ms" {
			t.Errorf("%s: better %s/%s, units %s/%s", c.name, tp.Better, p50.Better, tp.Unit, p50.Unit)
		}
	}
	out := table(t, compare.Compare(slow, fast, compare.Options{}))
	for _, want := range []string{"throughput, lattes/s (higher is better)", "p50 latency, ms (lower is better)",
		"p99 latency, ms (lower is better)", "+100.0%", "-50.0%", "0.002", "better"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestTooFewRunsGetNoVerdict(t *testing.T) {
	t.Setenv("COLUMNS", "120") // each verdict beside its row
	c := compare.Compare(measured("a", "locking", 1, 250), measured("b", "locking", 1, 500), compare.Options{})
	m := metric(t, c, "throughput")
	if m.Significant || !m.TooFew || m.Change != 0 || m.Need != 6 || math.Abs(m.DeltaPct-100) > 1e-9 {
		t.Errorf("n=1: %+v, want the delta and no verdict", m)
	}
	if want := "~ (n=1: too few runs for a verdict; use --count 6)"; text.MetricVerdict(m) != want {
		t.Errorf("verdict %q, want %q", text.MetricVerdict(m), want)
	}
	out := table(t, compare.Compare(measured("a", "locking", 1, 250), measured("b", "locking", 1, 500), compare.Options{All: true}))
	for _, want := range []string{"+100.0%", "  1  ~ (too few runs) ²\n", "² n=1: too few runs for a verdict, as no difference could reach p < 0.05; use --count 6",
		"250.0 ± ∞ ¹", "¹ need >= 6 samples for confidence interval at level 0.95"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}

	// Whether a verdict is possible depends on both sizes, as the U test's.
	for _, s := range []struct {
		old, new int
		tooFew   bool
	}{{3, 3, true}, {1, 10, true}, {2, 5, true}, {4, 4, false}, {3, 6, false}} {
		old := measured("a", "locking", 1, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109)[:s.old]
		new := measured("a", "locking", 1, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109)[:s.new]
		if m := metric(t, compare.Compare(old, new, compare.Options{}), "throughput"); m.TooFew != s.tooFew {
			t.Errorf("n=%d+%d: too few %v, want %v", s.old, s.new, m.TooFew, s.tooFew)
		}
	}
}

func TestKeysOnlyInOneSide(t *testing.T) {
	old := append(measured("a", "locking", 1, 250), measured("a", "multi-2", 2, 400)...)
	open := measured("b", "locking", 1, 300)
	open[0].Rate, open[0].MaxQ = 800, 1000
	new := append(measured("b", "locking", 1, 260), open...)
	c := compare.Compare(old, new, compare.Options{})
	if len(c.Rows) != 1 || c.Rows[0].Key.Mode != "locking" {
		t.Errorf("rows %+v, want locking only", c.Rows)
	}
	if len(c.OnlyOld) != 1 || c.OnlyOld[0].String() != "multi-2 cpus=2 par=2" {
		t.Errorf("only old: %v", c.OnlyOld)
	}
	if len(c.OnlyNew) != 1 || c.OnlyNew[0].String() != "locking cpus=1 par=1 rate=800 maxq=1000" {
		t.Errorf("only new: %v", c.OnlyNew)
	}
	out := table(t, c)
	for _, want := range []string{"only in old (1):\n  multi-2 cpus=2 par=2\n", "only in new (1):\n  locking cpus=1 par=1 rate=800 maxq=1000\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if out := table(t, compare.Compare(old[1:], new[:1], compare.Options{})); !strings.Contains(out, "no configuration is in both old and new") {
		t.Errorf("disjoint sides not said so:\n%s", out)
	}
	// One mode on several counts, as many customers as CPUs: one line.
	many := slices.Concat(new, measured("b", "finelocking", 3, 700), measured("b", "finelocking", 4, 900), measured("b", "finelocking", 6, 930))
	if out := table(t, compare.Compare(old, many, compare.Options{})); !strings.Contains(out, "only in new (4):\n  locking cpus=1 par=1 rate=800 maxq=1000\n  finelocking cpus=3,4,6 par=cpus\n") {
		t.Errorf("the counts of one configuration not on one line:\n%s", out)
	}
}

func TestSourceIsNotPartOfTheKey(t *testing.T) {
	old := measured("laptop", "locking", 2, 250, 251, 249)
	fromBefore := measured("vm", "locking", 2, 302)
	fromBefore[0].Source = "server2" // a file from before the model: a --source label
	new := append(measured("server", "locking", 2, 300, 301), fromBefore...)
	c := compare.Compare(old, new, compare.Options{})
	if len(c.Rows) != 1 || len(c.OnlyOld)+len(c.OnlyNew) != 0 {
		t.Fatalf("points from different sources did not match: %+v", c)
	}
	out := table(t, c)
	if want := "old: laptop (3 points, count 3)   new: server, server2 (3 points, count 3)\n"; !strings.HasPrefix(out, want) {
		t.Errorf("header is not %q:\n%s", want, out)
	}
}

func TestStepsArePartOfTheKey(t *testing.T) {
	def := measured("a", "locking", 1, 250)
	noClock := measured("a", "locking", 1, 250)
	noClock[0].Shop.Steps.Clock = "" // as from an older file
	slowGrind := measured("a", "locking", 1, 200)
	slowGrind[0].Shop.Steps.Grind = 2 * time.Millisecond
	c := compare.Compare(append(def, slowGrind...), noClock, compare.Options{})
	if len(c.Rows) != 1 || len(c.OnlyOld) != 1 || c.OnlyOld[0].String() != "locking cpus=1 par=1 grind=2ms" {
		t.Errorf("rows %v, only old %v", c.Rows, c.OnlyOld)
	}
	c = compare.Compare(slowGrind, slowGrind, compare.Options{All: true})
	if out := table(t, c); !strings.Contains(out, "steps") || !strings.Contains(out, "grind=2ms") {
		t.Errorf("table lacks the steps:\n%s", out)
	}
}

func TestLatencyLeavesOutPointsWithNoOperations(t *testing.T) {
	old := measured("a", "locking", 1, 250, 0, 251)
	c := compare.Compare(old, measured("a", "locking", 1, 250), compare.Options{})
	if tp, p50 := metric(t, c, "throughput"), metric(t, c, "p50"); tp.Old.N != 3 || p50.Old.N != 2 {
		t.Errorf("throughput n=%d, p50 n=%d; want 3 and 2", tp.Old.N, p50.Old.N)
	}
	c = compare.Compare(measured("a", "locking", 1, 0), measured("a", "locking", 1, 250), compare.Options{All: true})
	if ms := c.Rows[0].Metrics; len(ms) != 1 || ms[0].Name != "throughput" || !math.IsNaN(ms[0].DeltaPct) {
		t.Errorf("a stalled configuration: %+v; want only throughput, with no ratio", ms)
	}
	if out := table(t, c); !strings.Contains(out, "?") {
		t.Errorf("table lacks ? for a change from 0:\n%s", out)
	}
}

func TestAlpha(t *testing.T) {
	old := measured("a", "locking", 1, 100, 101, 102, 103)
	new := measured("a", "locking", 1, 104, 105, 106, 107)
	if m := metric(t, compare.Compare(old, new, compare.Options{}), "throughput"); !m.Significant || compare.Compare(old, new, compare.Options{}).Alpha != 0.05 {
		t.Errorf("alpha 0.05: %+v", m)
	}
	if m := metric(t, compare.Compare(old, new, compare.Options{Alpha: 0.01}), "throughput"); m.Significant || !m.TooFew || m.Need != 6 {
		t.Errorf("alpha 0.01, n=4: %+v, want too few", m)
	}
	for _, a := range []float64{-0.1, 1, 5} {
		if err := (compare.Options{Alpha: a}).Check(); err == nil || !strings.Contains(err.Error(), "between 0 and 1") {
			t.Errorf("Check(alpha %v) = %v", a, err)
		}
	}
	if err := (compare.Options{}).Check(); err != nil {
		t.Error(err)
	}
}

func TestGeomean(t *testing.T) {
	old := append(measured("a", "locking", 1, 100), measured("a", "locking", 2, 400)...)
	new := append(measured("a", "locking", 1, 200), measured("a", "locking", 2, 800)...)
	c := compare.Compare(old, new, compare.Options{All: true})
	g := c.Geomeans[0]
	if g.Name != "throughput" || g.Rows != 2 || math.Abs(g.Old-200) > 1e-9 || math.Abs(g.DeltaPct-100) > 1e-9 {
		t.Errorf("geomean %+v, want 200 -> 400 over 2 rows", g)
	}
	if out := table(t, c); !strings.Contains(out, "geomean") {
		t.Errorf("table lacks the geomean:\n%s", out)
	}
}

func TestTableFitsAndHasARowPerConfiguration(t *testing.T) {
	var old, new []results.Point
	for _, mode := range []string{"locking", "finelocking", "linearpipe-1"} {
		for _, cpus := range []int{1, 2, 16} {
			old = append(old, measured("a", mode, cpus, 250, 251, 252, 253, 254, 255)...)
			new = append(new, measured("a", mode, cpus, 1000, 1001, 1002, 1003, 1004, 1005)...)
		}
	}
	open := measured("a", "multi-2", 2, 1)
	open[0].Rate, open[0].MaxQ = 833.3333333333334, 1000
	c := compare.Compare(append(old, open...), append(new, open...), compare.Options{All: true})
	out := table(t, c)
	for _, line := range strings.Split(out, "\n") {
		if n := len([]rune(line)); n > 80 {
			t.Errorf("line of %d columns:\n%s", n, line)
		}
	}
	// 10 rows in each of 3 tables.
	if n := strings.Count(out, "linearpipe-1    16"); n != 3 {
		t.Errorf("%d rows for linearpipe-1 cpus=16, want one per table:\n%s", n, out)
	}
	if !strings.Contains(out, "multi-2          2  833.333  1000") {
		t.Errorf("open-loop row lacks rate and maxq:\n%s", out)
	}
}

func TestWriteJSON(t *testing.T) {
	c := compare.Compare(measured("a", "locking", 1, 0, 250), measured("b", "locking", 1, 500), compare.Options{})
	var b bytes.Buffer
	if err := c.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Alpha float64
		Rows  []struct {
			Key     comparison.Key
			Metrics []map[string]any
		}
		OnlyOld []comparison.Key `json:"only_old"`
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	tp := got.Rows[0].Metrics[0]
	if got.Alpha != 0.05 || got.Rows[0].Key.Mode != "locking" || tp["change"] == nil || tp["verdict"] != nil || tp["too_few"] != true {
		t.Errorf("JSON lacks the comparison:\n%s", b.String())
	}
	if old := tp["old"].(map[string]any); old["lo"] != nil || old["median"] != 125.0 {
		t.Errorf("an unbounded interval should be null: %v", old)
	}
	if got.OnlyOld == nil {
		t.Errorf("empty lists should be [], not null:\n%s", b.String())
	}
}

func TestJSONIsReadable(t *testing.T) {
	var b bytes.Buffer
	compare.Compare(measured("a", "locking", 1, 250), measured("b", "locking", 1, 500), compare.Options{}).WriteJSON(&b)
	if !strings.Contains(b.String(), "need >= 6 samples") {
		t.Errorf("JSON escapes what needs no escaping:\n%s", b.String())
	}
}

// TestCompareAcrossChangedSteps checks that two runs that differ only in
// their steps (--grind 2ms against the default) are compared point by
// point, and that the table says what changed.
func TestCompareAcrossChangedSteps(t *testing.T) {
	var old, new []results.Point
	for rep := 1; rep <= 6; rep++ {
		o := results.Point{Spec: results.Spec{Mode: "finelocking", CPUs: 2, Load: results.Load{Par: 2, Dur: time.Second}}, Ops: 500, Throughput: 500 + float64(rep), Unit: "lattes/s",
			Latency: results.Latency{P50: 4, P99: 4.2}, Shop: &results.Shop{Steps: results.Steps{Grind: time.Millisecond, Press: time.Millisecond, Steam: time.Millisecond, Combine: time.Millisecond, Clock: "wall"}}}
		n := o
		shop := *o.Shop // a copy shares its shop part: change one of its own
		n.Shop = &shop
		n.Shop.Steps.Grind = 2 * time.Millisecond
		n.Throughput, n.Latency = 400+float64(rep), results.Latency{P50: 5, P99: 5.2}
		old, new = append(old, o), append(new, n)
	}
	c := compare.Compare(old, new, compare.Options{})
	if len(c.Rows) != 1 || len(c.OnlyOld) != 0 || len(c.OnlyNew) != 0 {
		t.Fatalf("got %d rows, %d only old, %d only new; want the one configuration matched", len(c.Rows), len(c.OnlyOld), len(c.OnlyNew))
	}
	if c.Changed != "steps: old default steps, new grind=2ms" {
		t.Errorf("Changed = %q", c.Changed)
	}
	if m := c.Rows[0].Metrics[0]; !m.Significant || m.DeltaPct > -15 {
		t.Errorf("throughput 500 → 400 over 6 runs: delta %.1f%%, significant %v; want about -20%%, significant", m.DeltaPct, m.Significant)
	}
	var b strings.Builder
	if err := text.WriteComparison(&b, c); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "compared across a change of steps: old default steps, new grind=2ms") {
		t.Errorf("table does not say what changed:\n%s", b.String())
	}
}

// predicted makes points the model's, under a scheduling policy, a seed
// per point.
func predicted(sched string, points []results.Point) []results.Point {
	for i := range points {
		points[i].Source, points[i].Sched, points[i].Seed = results.SourceModel, sched, uint64(i+1)
		points[i].Bounds = &results.Bounds{CPU: 500, ThroughputMax: 500, LatencyMinMs: 4}
	}
	return points
}

func TestMeasurementsAloneDoNotMentionTheModel(t *testing.T) {
	c := compare.Compare(measured("laptop", "locking", 2, 250, 251, 249), measured("server", "locking", 2, 300, 301, 302), compare.Options{})
	if out := table(t, c); strings.Contains(out, "model") {
		t.Errorf("measurements alone mention the model:\n%s", out)
	}
	var b bytes.Buffer
	if err := c.WriteJSON(&b); err != nil || strings.Contains(b.String(), "model") || strings.Contains(b.String(), "sched") {
		t.Errorf("JSON of measurements has model fields (%v):\n%s", err, b.String())
	}
}

// TestModelIsNotComparedWithMeasurements checks that a prediction never
// matches a measurement of the same configuration, and that the table says
// why nothing matched.
func TestModelIsNotComparedWithMeasurements(t *testing.T) {
	meas := measured("laptop", "locking", 2, 250, 251, 249, 252, 248, 250)
	model := predicted("fifo", measured("", "locking", 2, 250, 250, 250, 250, 250, 250))
	c := compare.Compare(meas, model, compare.Options{})
	if len(c.Rows) != 0 || len(c.OnlyOld) != 1 || len(c.OnlyNew) != 1 {
		t.Fatalf("rows %+v, only old %v, only new %v; want nothing matched", c.Rows, c.OnlyOld, c.OnlyNew)
	}
	if k := c.OnlyNew[0]; !k.Model || k.Sched != "fifo" || k.String() != "locking (model fifo) cpus=2 par=2" {
		t.Errorf("model key %+v, %q", k, k)
	}
	if c.Old.ModelPoints != 0 || c.New.ModelPoints != 6 || strings.Join(c.New.Sources, ",") != "model" {
		t.Errorf("sides %+v, %+v", c.Old, c.New)
	}
	out := table(t, c)
	for _, want := range []string{"old: laptop (6 points, count 6)   new: model (6 points, count 6)\n",
		"predictions are matched only with predictions, measurements with measurements\n",
		"no configuration is in both old and new", "only in new (1):\n  locking (model fifo) cpus=2 par=2\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}

	// Both sides holding both: each kind is compared with its own.
	both := compare.Compare(append(measured("laptop", "locking", 2, 250, 251, 249), predicted("fifo", measured("", "locking", 2, 250, 250))...),
		append(measured("server", "locking", 2, 260, 261, 259), predicted("fifo", measured("", "locking", 2, 255, 255))...), compare.Options{All: true})
	if len(both.Rows) != 2 || both.Rows[0].Key.Model || !both.Rows[1].Key.Model {
		t.Fatalf("rows %+v; want the measurement's, then the model's", both.Rows)
	}
	if tp := both.Rows[1].Metrics[0]; tp.Old.N != 2 || tp.New.N != 2 || tp.New.Median != 255 {
		t.Errorf("model row compares %+v; want the model's two points a side", tp)
	}
	if out := table(t, both); !strings.Contains(out, "locking (model fifo)     2") {
		t.Errorf("table does not mark the model's row:\n%s", out)
	}

	// Two runs of the model compare as two runs of anything, policy by
	// policy, and need no note.
	runs := compare.Compare(predicted("fifo", measured("", "locking", 2, 250)), append(predicted("fifo", measured("", "locking", 2, 240)),
		predicted("go", measured("", "locking", 2, 230))...), compare.Options{})
	if len(runs.Rows) != 1 || len(runs.OnlyNew) != 1 || runs.OnlyNew[0].Sched != "go" {
		t.Errorf("model against model: rows %+v, only new %v", runs.Rows, runs.OnlyNew)
	}
	if out := table(t, runs); strings.Contains(out, "matched only") {
		t.Errorf("model against model notes a mismatch:\n%s", out)
	}
}

// A change is called better or worse only where its range, from the
// medians' intervals, lies on one side of 0: over many random pairs of
// samples, every significant one has such a range, and some pairs that
// the test alone would call significant are not, for their range holds
// both a gain and a loss.
func TestVerdictFollowsTheRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	vetoed := 0
	for range 300 {
		var o, n []float64
		shift := rng.Float64() * 8
		for range 6 + rng.IntN(6) {
			o = append(o, 100+rng.NormFloat64()*4)
			n = append(n, 100+shift+rng.NormFloat64()*4)
		}
		m := metric(t, compare.Compare(measured("a", "locking", 1, o...), measured("a", "locking", 1, n...), compare.Options{}), "throughput")
		if m.Significant && m.GainLo <= 0 && m.GainHi >= 0 {
			t.Fatalf("significant with a range %.3f to %.3f that holds 0: %+v", m.GainLo, m.GainHi, m)
		}
		if m.Significant != (text.MetricVerdict(m) != "~" && !strings.HasPrefix(text.MetricVerdict(m), "~ ")) {
			t.Fatalf("verdict %q with Significant %v", text.MetricVerdict(m), m.Significant)
		}
		if !m.Significant && m.P < 0.05 {
			vetoed++
		}
	}
	if vetoed == 0 {
		t.Errorf("no pair had p < 0.05 with a range holding 0: the test exercises nothing")
	}
}

// TestDisturbedSamplesGiveNoVerdict: a change the test would call is left
// inconclusive where either side has a disturbed sample, and called where
// neither has.
func TestDisturbedSamplesGiveNoVerdict(t *testing.T) {
	t.Setenv("COLUMNS", "120") // each verdict beside its row
	slow := measured("a", "finelocking", 2, 250, 252, 248, 251, 249, 250)
	fast := measured("a", "finelocking", 2, 500, 504, 496, 502, 498, 500)
	disturb := func(points []results.Point, n int) []results.Point {
		out := append([]results.Point(nil), points...)
		for i := range n {
			out[i].Host.Cores = 2
			out[i].OthersCPUs = 1.5
		}
		return out
	}
	for _, c := range []struct {
		name               string
		old, new           []results.Point
		oldN, newN         int
		significant        bool
		inconclusive, word string
	}{
		{"clean", slow, fast, 0, 0, true, "", "better"},
		{"old disturbed", disturb(slow, 6), fast, 6, 0, false, "disturbed", "inconclusive"},
		{"one new run disturbed", slow, disturb(fast, 1), 0, 1, false, "disturbed", "inconclusive"},
	} {
		cmp := compare.Compare(c.old, c.new, compare.Options{})
		m := metric(t, cmp, "throughput")
		if m.Significant != c.significant || m.Inconclusive != c.inconclusive || m.Old.Disturbed != c.oldN || m.New.Disturbed != c.newN {
			t.Errorf("%s: %+v", c.name, m)
		}
		if m.Inconclusive != "" && (m.Change != 0 || m.TooFew || !strings.HasPrefix(text.MetricVerdict(m), "inconclusive: disturbed")) {
			t.Errorf("%s: change %d, too few %v, verdict %q", c.name, m.Change, m.TooFew, text.MetricVerdict(m))
		}
		if out := table(t, cmp); !strings.Contains(out, "  6  "+c.word) {
			t.Errorf("%s: the table lacks %q:\n%s", c.name, c.word, out)
		}
		if cmp.Old.Disturbed != c.oldN || cmp.New.Disturbed != c.newN {
			t.Errorf("%s: sides %d and %d disturbed, want %d and %d", c.name, cmp.Old.Disturbed, cmp.New.Disturbed, c.oldN, c.newN)
		}
	}
}
