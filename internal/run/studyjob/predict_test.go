package studyjob

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/explain/verdict"
	"github.com/brewput/brewput/internal/run/predict"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// measuredPoint is a study's point of variant on cpus CPUs, one worker a
// CPU, at thr ops/s over 1 s, with the given meters.
func measuredPoint(variant string, cpus int, thr float64, machines ...results.Machine) results.Point {
	return results.Point{Kind: results.KindStudy, Source: results.SourceMeasured, Spec: results.Spec{Mode: variant, CPUs: cpus, Load: results.Load{Par: cpus, Dur: time.Second}}, Study: &results.Study{Name: "demo", Meters: machines},
		Ops: int64(thr), Throughput: thr, Unit: "calls/s", CPUUsed: float64(cpus),
	}
}

// mutexAt is a mutex's machine over 1 s of ops operations, each holding
// it for hold.
func mutexAt(name string, ops float64, hold time.Duration) results.Machine {
	return results.Machine{Name: name, Kind: "mutex", Uses: int64(ops), BusyFrac: ops * hold.Seconds()}
}

// A variant's model is its meters' figures per operation: the shards of
// one design a resource of as many locks, each held as long as measured,
// the work outside what is left of a worker's time per operation (its
// lock waits taken out), and a channel counted as work; the blueprint it
// writes parses and adds up to the operation's time.
func TestModelOf(t *testing.T) {
	const ops = 8e6 // 125 ns an operation on one CPU
	machines := []results.Machine{mutexAt("index", ops, 20*time.Nanosecond)}
	for i := range 4 {
		machines = append(machines, mutexAt(fmt.Sprintf("shard#%d", i+1), ops/4, 30*time.Nanosecond))
	}
	machines = append(machines, results.Machine{Name: "jobs send", Kind: "chan send", Uses: int64(ops), MeanWaitMs: 1e-5})
	m, err := modelOf(measuredPoint("two-locks", 1, ops, machines...))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Locks) != 2 {
		t.Fatalf("lock groups %+v, want index and shard", m.Locks)
	}
	idx, sh := m.Locks[0], m.Locks[1]
	if idx.Name != "index" || idx.Locks != 1 || idx.UsesPerOp != 1 || idx.HeldPerUse != 20*time.Nanosecond {
		t.Errorf("index %+v, want one lock held 20 ns once an operation", idx)
	}
	if sh.Name != "shard" || sh.Locks != 4 || sh.UsesPerOp != 1 || sh.HeldPerUse != 30*time.Nanosecond {
		t.Errorf("shard %+v, want 4 locks, one held 30 ns once an operation", sh)
	}
	if m.Outside != 75*time.Nanosecond {
		t.Errorf("outside %v, want 125 - 20 - 30 = 75 ns", m.Outside)
	}
	if len(m.Unmodelled) != 1 || m.Unmodelled[0] != "chan jobs send" {
		t.Errorf("unmodelled %v, want the channel", m.Unmodelled)
	}
	bp, err := m.blueprint()
	if err != nil {
		t.Fatalf("%v\n%s", err, m.yaml())
	}
	if len(bp.Resources) != 2 || bp.Resources[1].Name != "shard" || bp.Resources[1].Capacity != 4 || bp.Unit != "calls" {
		t.Errorf("blueprint resources %+v, unit %q\n%s", bp.Resources, bp.Unit, m.yaml())
	}

	// Waits for a lock are contention, not work: on 2 CPUs a worker's
	// 250 ns an operation less 100 ns of waiting and 20 ns held.
	w := mutexAt("index", ops, 20*time.Nanosecond)
	w.MeanWaitMs = 100e-6
	m, err = modelOf(measuredPoint("waits", 2, ops, w))
	if err != nil {
		t.Fatal(err)
	}
	if m.Outside != 130*time.Nanosecond {
		t.Errorf("outside %v, want 250 - 100 - 20 = 130 ns", m.Outside)
	}

	for _, bad := range []results.Point{
		measuredPoint("none", 1, 0),
		func() results.Point { p := measuredPoint("open", 1, ops); p.Rate = 1000; return p }(),
	} {
		if _, err := modelOf(bad); err == nil {
			t.Errorf("modelOf(%s) made a model", bad.Mode)
		}
	}
}

// On idealized CPUs (fifo) the prediction reproduces the point the model
// was read from, scales with the CPUs while they bound it, and then
// stays at the lock's structural bound, which it names.
func TestPredictFifo(t *testing.T) {
	const ops = 10e6 // 100 ns an operation, 40 of them holding the lock
	measured := []results.Point{measuredPoint("one-lock", 1, ops, mutexAt("table", ops, 40*time.Nanosecond))}
	models, err := modelsOf([]string{"one-lock"}, measured)
	if err != nil {
		t.Fatal(err)
	}
	pr := predict.Prediction{Policy: model.Policy{Policy: results.Policy{Sched: "fifo", Seed: 1}}}
	points, err := predictAll(context.Background(), pr, "demo", models, []int{1, 2, 8}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(points) != 3 {
		t.Fatalf("%d points, want 3", len(points))
	}
	for i, want := range []struct {
		thr   float64
		limit string
	}{{10e6, "cpus"}, {20e6, "cpus"}, {25e6, "table"}} {
		p := points[i]
		if p.Source != results.SourceModel || p.StudyName() != "demo" || p.Mode != "one-lock" || p.Unit != "calls/s" || p.Bounds == nil {
			t.Fatalf("point %+v", p)
		}
		if p.Bounds.SetBy != want.limit || p.Throughput > p.Bounds.ThroughputMax*1.001 || p.Throughput < want.thr*0.95 {
			t.Errorf("%d CPUs: %.4g ops/s, bound %.4g set by %s; want about %.4g set by %s", p.CPUs, p.Throughput, p.Bounds.ThroughputMax, p.Bounds.SetBy, want.thr, want.limit)
		}
	}
	cs := verdict.Checks(append(points, measured...))
	if len(cs) != 1 || cs[0].CPUs != 1 || !cs[0].Within() || text.CheckVerdict(cs[0]) != "within its band" {
		t.Errorf("checks %+v, want the 1-CPU point within its band", cs)
	}
}

// Each CPU count measured is predicted from its own readings, a count
// between or past them from those on the most CPUs measured up to it,
// and one below them all from the fewest.
func TestModelPerCount(t *testing.T) {
	const ops = 10e6
	measured := []results.Point{
		measuredPoint("one-lock", 2, ops, mutexAt("table", ops, 40*time.Nanosecond)),
		measuredPoint("one-lock", 4, ops, mutexAt("table", ops, 60*time.Nanosecond)),
		measuredPoint("one-lock", 2, 2*ops, mutexAt("table", 2*ops, 40*time.Nanosecond)),
		measuredPoint("one-lock", 2, ops/2, mutexAt("table", ops/2, 40*time.Nanosecond)),
	}
	models, err := modelsOf([]string{"one-lock"}, measured)
	if err != nil {
		t.Fatal(err)
	}
	if len(models) != 2 || models[0].From.CPUs != 2 || models[1].From.CPUs != 4 {
		t.Fatalf("models on %v; want one on 2 CPUs, one on 4", models)
	}
	if models[0].From.Ops != int64(ops) {
		t.Errorf("2-CPU model read from the run of %d operations; want the median run's %d", models[0].From.Ops, int64(ops))
	}
	for n, want := range map[int]int{1: 2, 2: 2, 3: 2, 4: 4, 64: 4} {
		if got := modelFor(models, "one-lock", n).From.CPUs; got != want {
			t.Errorf("%d CPUs predicted from the model read on %d; want %d", n, got, want)
		}
	}
}

// Each watched lock is modelled as what it is: locks each taken by one of
// several goroutines a copy per customer, an RWMutex taken by writers and
// readers one rwmutex they hold and share, a lock held for a negligible
// share of the time no part of the model; and the model adds up to the
// operation's time.
func TestModelOfWatchedLocks(t *testing.T) {
	const ops = 10e6 // 200 ns an operation on two CPUs
	private := func(i int) results.Machine {
		m := mutexAt(fmt.Sprintf("hist#%d", i), ops/2, 20*time.Nanosecond)
		m.Goroutines, m.Takers = 2, 1
		return m
	}
	rw := mutexAt("table", ops, 0)
	rw.Kind, rw.Reads, rw.BusyFrac, rw.Goroutines, rw.Takers = "rwmutex", ops*3/4, ops/4*40e-9, 2, 2
	pool := mutexAt("pool", 10, 100*time.Nanosecond)
	m, err := modelOf(measuredPoint("watched", 2, ops, private(1), private(2), rw, pool))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Locks) != 2 || len(m.Negligible) != 1 || m.Negligible[0] != "pool" {
		t.Fatalf("locks %+v, left out %v; want hist and table, pool left out", m.Locks, m.Negligible)
	}
	hist, table := m.Locks[0], m.Locks[1]
	if !hist.Private || table.Private || !table.rwShares() || table.HeldPerUse != 40*time.Nanosecond || table.ReadPerUse != 40*time.Nanosecond {
		t.Errorf("hist %+v, table %+v: want hist private, table an RWMutex written 40 ns, read 40 ns", hist, table)
	}
	y := m.yaml()
	for _, want := range []string{`"hist": {kind: mutex, per: customer}`, `"table": {kind: rwmutex}`,
		`{name: "table write", duration: 10ns, holds: ["table"]}`, `{name: "table read", duration: 30ns, shares: ["table"]}`} {
		if !strings.Contains(y, want) {
			t.Errorf("blueprint lacks %s:\n%s", want, y)
		}
	}
	// 200 ns: 20 of hist, 10 written, 30 read, the rest outside.
	if m.Outside != 140*time.Nanosecond {
		t.Errorf("outside %v, want 140 ns", m.Outside)
	}
	if _, err := m.blueprint(); err != nil {
		t.Error(err)
	}
}

// One shared lock's predicted curve past the CPUs measured does not rise
// again once it has fallen, nor pass its bound; the band keeps what was
// simulated; a lock per goroutine's is left as simulated.
func TestShapeSingleLocks(t *testing.T) {
	one := variantModel{Variant: "one", From: results.Point{Spec: results.Spec{CPUs: 2}}, Locks: []lockGroup{{Name: "mu", Locks: 1}}}
	own := variantModel{Variant: "own", From: results.Point{Spec: results.Spec{CPUs: 2}}, Locks: []lockGroup{{Name: "mu", Locks: 2, Private: true}}}
	var points []results.Point
	for _, v := range []string{"one", "own"} {
		for i, thr := range []float64{9, 7, 10, 8, 9.5, 6, 7} {
			points = append(points, results.Point{Kind: results.KindStudy, Source: results.SourceModel, Spec: results.Spec{Mode: v, CPUs: i + 1},
				Throughput: thr, Band: &results.Band{Throughput: [2]float64{thr * 0.9, thr * 1.1}}, Bounds: &results.Bounds{ThroughputMax: 9.8}})
		}
	}
	shaped := shapeSingleLocks(points, []variantModel{one, own})
	var got, kept []float64
	for _, p := range points {
		if p.Mode == "one" {
			got = append(got, p.Throughput)
		} else {
			kept = append(kept, p.Throughput)
		}
	}
	// 1 and 2 CPUs measured: as simulated, and fallen from 1 to 2 (as a
	// shared limiter's model did: 13.3, 4.59, then 6.65M on 4 CPUs); from
	// then on at most the lowest so far.
	if want := []float64{9, 7, 7, 7, 7, 6, 6}; !slices.Equal(got, want) || !slices.Equal(shaped, []string{"one"}) {
		t.Errorf("shaped %v: %v, want %v", shaped, got, want)
	}
	if !slices.Equal(kept, []float64{9, 7, 10, 8, 9.5, 6, 7}) {
		t.Errorf("a lock per goroutine's curve changed: %v", kept)
	}
	if b := points[4].Band.Throughput; b[0] != 7 || b[1] < 10.449 || b[1] > 10.451 {
		t.Errorf("band at 5 CPUs %v, want [7, 10.45]: down to the shaped value, up to what was simulated", b)
	}
	// Not fallen on the CPUs measured: it may rise past them, to its bound,
	// then not again once it falls.
	for i := range points {
		if points[i].Mode == "one" {
			points[i].Throughput = []float64{7, 9, 10, 8, 9.5, 6, 7}[points[i].CPUs-1]
		}
	}
	shapeSingleLocks(points, []variantModel{one, own})
	got = got[:0]
	for _, p := range points {
		if p.Mode == "one" {
			got = append(got, p.Throughput)
		}
	}
	if want := []float64{7, 9, 9.8, 8, 8, 6, 6}; !slices.Equal(got, want) {
		t.Errorf("risen on the CPUs measured: %v, want %v", got, want)
	}
}

// A variant whose lock one goroutine took on one CPU, and never measured
// on more, could share it or have its own: not predicted, with the way to
// tell. Seen on two CPUs, or taken by goroutines not counted (a meter's),
// it is predicted.
func TestOneGoroutineOnlyNotPredicted(t *testing.T) {
	const ops = 10e6
	lock := func(goroutines int) results.Machine {
		m := mutexAt("hist", ops, 20*time.Nanosecond)
		m.Goroutines, m.Takers = goroutines, 1
		return m
	}
	modelTaken := func(cpus, goroutines int, takers float64) variantModel {
		l := lock(goroutines)
		l.Takers = takers
		m, err := modelOf(measuredPoint("v", cpus, ops, l))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	model := func(cpus, goroutines int) variantModel { return modelTaken(cpus, goroutines, 1) }
	for _, c := range []struct {
		name   string
		models []variantModel
		want   bool // not predicted
	}{
		{"one CPU, one goroutine", []variantModel{model(1, 1)}, true},
		{"one and two CPUs", []variantModel{model(1, 1), model(2, 2)}, false},
		{"one CPU, takers not known", []variantModel{model(1, 0)}, false},
		// One worker, and a setup goroutine seen at a few of the locks.
		{"one CPU, one worker, another goroutine at some locks", []variantModel{modelTaken(1, 2, 1.06)}, true},
		{"one CPU, every lock taken by two goroutines", []variantModel{modelTaken(1, 2, 2)}, false},
	} {
		kept, out := predictable(c.models, "")
		if got := len(out) == 1 && len(kept) == 0; got != c.want {
			t.Errorf("%s: kept %d models, not predicted %+v; want not predicted %v", c.name, len(kept), out, c.want)
		}
		if c.want && len(out) == 1 && !strings.Contains(out[0].Reason, "--measure 1,2") {
			t.Errorf("%s: reason %q does not say how to tell", c.name, out[0].Reason)
		}
	}
}

// Of an even count of runs, the median the check holds the model against
// lies between the middle two: the model is read at that throughput, its
// hold per use scaled to it, so that a model that reproduces its runs is
// within its band where they were measured (it was 2–4 % off, read from
// the lower of the two).
func TestModelOfEvenCount(t *testing.T) {
	const ops = 10e6
	var measured []results.Point
	for _, thr := range []float64{8e6, 9e6, 11e6, 12e6} {
		measured = append(measured, measuredPoint("v", 1, thr, mutexAt("table", ops, 20*time.Nanosecond)))
	}
	models, err := modelsOf([]string{"v"}, measured)
	if err != nil {
		t.Fatal(err)
	}
	if len(models) != 1 || models[0].From.Throughput != 10e6 {
		t.Fatalf("models %+v; want one, at the median 10M ops/s", models)
	}
	// The 9M run's lock busy 0.2 of the window its 9M operations take at
	// the median's rate (0.9 s), over its 10M uses: 18 ns a hold (20 ns
	// at its own rate).
	if got := models[0].Locks[0].HeldPerUse; got != 18*time.Nanosecond {
		t.Errorf("hold %v a use; want 18ns", got)
	}
}

// A variant with no lock that did not scale is not predicted, and where
// other processes took CPU from its runs the reason says they may be
// what flattened it.
func TestNoLockFlatDisturbed(t *testing.T) {
	flat := func(disturbed bool) []variantModel {
		var out []variantModel
		for _, n := range []int{1, 2} {
			p := measuredPoint("v", n, 1e6)
			p.Disturbed = disturbed
			m, err := modelOf(p)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, m)
		}
		return out
	}
	for _, disturbed := range []bool{false, true} {
		kept, out := predictable(flat(disturbed), "taken while its timer ran")
		if len(kept) != 0 || len(out) != 1 {
			t.Fatalf("disturbed %v: kept %d, not predicted %+v; want not predicted", disturbed, len(kept), out)
		}
		if got := strings.Contains(out[0].Reason, "quiet machine"); got != disturbed {
			t.Errorf("disturbed %v: reason %q", disturbed, out[0].Reason)
		}
	}
}

// A model read on more CPUs takes its work outside the locks as read on
// one, where that was less: the rest is what contention cost the locks'
// callers, which the engine charges itself. Where it was more on one CPU,
// the holds on more took the time, and it stays as read there.
func TestOutsideReadOnOneCPU(t *testing.T) {
	const ops = 10e6 // over 1 s: 100 ns a worker's operation on 1 CPU, 200 ns on 2
	for _, c := range []struct {
		what             string
		hold1, hold2     time.Duration
		wantOutside      time.Duration
		wantOn           int
		wantHoldOnTwoCPU time.Duration
	}{
		{"contention outside", 40 * time.Nanosecond, 50 * time.Nanosecond, 60 * time.Nanosecond, 1, 50 * time.Nanosecond},
		{"holds grew more", 40 * time.Nanosecond, 170 * time.Nanosecond, 30 * time.Nanosecond, 0, 170 * time.Nanosecond},
	} {
		measured := []results.Point{
			measuredPoint("one-lock", 1, ops, mutexAt("table", ops, c.hold1)),
			measuredPoint("one-lock", 2, ops, mutexAt("table", ops, c.hold2)),
		}
		models, err := modelsOf([]string{"one-lock"}, measured)
		if err != nil {
			t.Fatal(err)
		}
		two := modelFor(models, "one-lock", 2)
		if two.From.CPUs != 2 || two.Outside != c.wantOutside || two.OutsideOn != c.wantOn || two.Locks[0].HeldPerUse != c.wantHoldOnTwoCPU {
			t.Errorf("%s: 2-CPU model outside %v (read on %d), held %v; want %v (on %d), %v", c.what,
				two.Outside, two.OutsideOn, two.Locks[0].HeldPerUse, c.wantOutside, c.wantOn, c.wantHoldOnTwoCPU)
		}
		if c.wantOn == 1 && !strings.Contains(two.describe(), "read on 1 CPU") {
			t.Errorf("%s: the model's line does not say where its work outside was read: %s", c.what, two.describe())
		}
	}
}

// A lock each goroutine has to itself is never contended: what an
// operation gained on more CPUs is the machine's (go-metrics' histogram
// per goroutine, read at 1 CPU's outside time, was predicted 62.5M on 2
// CPUs against 51.9M measured), and the 2-CPU model keeps its own.
func TestOutsidePrivateLocks(t *testing.T) {
	const ops = 10e6 // over 1 s: 100 ns a worker's operation on 1 CPU, 200 ns on 2
	own := func(cpus int, hold time.Duration) results.Machine {
		m := mutexAt("hist", ops, hold)
		m.Goroutines, m.Takers = max(cpus, 2), 1 // on 1 CPU, the benchmark's setup took them too
		return m
	}
	var measured []results.Point
	for n := 1; n <= 2; n++ {
		p := measuredPoint("per-goroutine", n, ops)
		for range n {
			p.Study.Meters = append(p.Study.Meters, own(n, 40*time.Nanosecond))
		}
		measured = append(measured, p)
	}
	models, err := modelsOf([]string{"per-goroutine"}, measured)
	if err != nil {
		t.Fatal(err)
	}
	if modelFor(models, "per-goroutine", 1).Locks[0].Private {
		t.Errorf("1-CPU model, one worker: its lock is private; want shared (one worker takes every lock there is)")
	}
	two := modelFor(models, "per-goroutine", 2)
	if !two.Locks[0].Private || two.OutsideOn != 0 || two.Outside <= modelFor(models, "per-goroutine", 1).Outside {
		t.Errorf("2-CPU model of private locks: outside %v (read on %d), private %v; want its own reading, above 1 CPU's",
			two.Outside, two.OutsideOn, two.Locks[0].Private)
	}
}

// A study's meters do not say who took them: a group of which the window
// took exactly one lock for each worker, of more made, none waited for,
// is a lock per worker (validation/truth's, from a sync.Pool: 2 of 16 on 2
// CPUs), modelled as each customer's own; locks taken by key, all of them
// taken, or one waited for, stay shared.
func TestPerWorkerLocks(t *testing.T) {
	const ops = 4e6
	group := func(cpus, used int, wait float64) results.Point {
		p := measuredPoint("own", cpus, ops)
		for i := range 16 {
			m := mutexAt(fmt.Sprintf("own#%d", i+1), 0, 0)
			if i < used {
				m = mutexAt(fmt.Sprintf("own#%d", i+1), ops/float64(used), 100*time.Nanosecond)
				m.MeanWaitMs = wait
			}
			p.Study.Meters = append(p.Study.Meters, m)
		}
		return p
	}
	for _, c := range []struct {
		cpus, used int
		wait       float64
		private    bool
		locks      int
	}{
		{2, 2, 0, true, 2},
		{4, 4, 0, true, 4},
		{1, 1, 0, false, 1},    // one worker: every lock there is is its own
		{2, 16, 0, false, 16},  // taken at random or by key: shards
		{2, 2, 1e-7, true, 2},  // a wait of a tenth of a nanosecond an operation: none to speak of
		{2, 2, 1e-4, false, 2}, // waited for: shared
		{4, 3, 0, false, 3},    // fewer than the workers: shared
		{2, 3, 0, true, 3},     // a worker given another by its pool
		{2, 4, 0, false, 4},    // twice the workers: shared
	} {
		m, err := modelOf(group(c.cpus, c.used, c.wait))
		if err != nil {
			t.Fatal(err)
		}
		g := m.Locks[0]
		if g.Private != c.private || g.Locks != c.locks || g.Unused != 16-c.used {
			t.Errorf("%d of 16 taken on %d CPUs, waited %v ms: private %v, %d locks, %d unused; want private %v, %d locks",
				c.used, c.cpus, c.wait, g.Private, g.Locks, g.Unused, c.private, c.locks)
		}
		if d := m.describe(); c.private != strings.Contains(d, fmt.Sprintf("%d of its 16 taken by %d workers, about one each", c.used, c.cpus)) {
			t.Errorf("%d of 16 taken on %d CPUs: described %q", c.used, c.cpus, d)
		}
	}
}

// failingWriter refuses every write, as a closed pipe does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, fmt.Errorf("write: broken pipe") }

// A JSON answer that cannot be written fails the command, also when no
// variant could be predicted (one with no lock that did not scale): it
// did not, its error shadowed, and brewput exited 0 with nothing written.
func TestPredictFromFailedWriteWithNothingPredicted(t *testing.T) {
	measured := []results.Point{measuredPoint("nolock", 1, 1e6), measuredPoint("nolock", 2, 1.05e6)}
	f := Predict{Plan: Plan{Variants: []string{"nolock"}}, CPUs: []int{1, 2, 4}, JSON: true}
	_, unseen, err := PredictFrom(context.Background(), "demo", f, measured, failingWriter{}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "broken pipe") {
		t.Errorf("PredictFrom with stdout refusing writes: error %v, not predicted %+v; want the write's error", err, unseen)
	}
	_, unseen, err = PredictFrom(context.Background(), "demo", f, measured, io.Discard, io.Discard)
	if err != nil || len(unseen) != 1 || unseen[0].Mode != "nolock" {
		t.Errorf("PredictFrom: error %v, not predicted %+v; want nolock not predicted, no error", err, unseen)
	}
}

// A sharded RWMutex, its shards taken by writers and readers, is as many
// RWMutexes, each use taking one, its readers sharing theirs, not as many
// mutexes that readers hold alone (orcaman/concurrent-map's 32 shards so
// modelled were predicted 2.2× one CPU's throughput on 16 CPUs, where
// three 16-vCPU machines measured 0.39–0.60×).
func TestModelOfShardedRWMutex(t *testing.T) {
	const ops, shards = 8e6, 32 // 250 ns an operation on two CPUs
	var machines []results.Machine
	for i := range shards {
		m := mutexAt(fmt.Sprintf("shard#%d", i+1), ops/shards, 0)
		m.Kind, m.Reads, m.BusyFrac, m.Goroutines, m.Takers = "rwmutex", ops/shards*3/4, ops/shards/4*40e-9, 2, 2
		machines = append(machines, m)
	}
	m, err := modelOf(measuredPoint("sharded", 2, ops, machines...))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Locks) != 1 || !m.Locks[0].rwShares() || m.Locks[0].Locks != shards {
		t.Fatalf("locks %+v; want one group of %d RWMutexes that readers share", m.Locks, shards)
	}
	y := m.yaml()
	for _, want := range []string{`"shard": {kind: rwmutex, locks: 32}`,
		`{name: "shard write", duration: 10ns, holds: ["shard"]}`, `{name: "shard read", duration: 30ns, shares: ["shard"]}`} {
		if !strings.Contains(y, want) {
			t.Errorf("blueprint lacks %s:\n%s", want, y)
		}
	}
	if d := m.describe(); !strings.Contains(d, "one of 32 RWMutexes shard held 40 ns by a writer") {
		t.Errorf("the model's line does not say it is 32 RWMutexes: %s", d)
	}
	if _, err := m.blueprint(); err != nil {
		t.Error(err)
	}
}

// A reader's hold, which is not timed, is what the operation's time
// leaves; on more CPUs that holds what contention cost, which the engine
// charges itself, so a model read on more CPUs takes it as read on one,
// where that was less, and says so.
func TestReaderHoldReadOnOneCPU(t *testing.T) {
	const ops = 10e6 // over 1 s: 100 ns a worker's operation on 1 CPU, 200 ns on 2
	rw := func(cpus int, write time.Duration) results.Machine {
		m := mutexAt("table", ops, 0)
		m.Kind, m.Reads, m.BusyFrac, m.Goroutines, m.Takers = "rwmutex", ops*3/4, ops/4*write.Seconds(), cpus, float64(cpus)
		return m
	}
	measured := []results.Point{
		measuredPoint("rw", 1, ops, rw(1, 40*time.Nanosecond)),
		measuredPoint("rw", 2, ops, rw(2, 60*time.Nanosecond)),
	}
	models, err := modelsOf([]string{"rw"}, measured)
	if err != nil {
		t.Fatal(err)
	}
	one, two := modelFor(models, "rw", 1), modelFor(models, "rw", 2)
	if r1, r2 := one.Locks[0].ReadPerUse, two.Locks[0].ReadPerUse; r1 != 40*time.Nanosecond || r2 != r1 || two.Locks[0].ReadOn != 1 ||
		two.Locks[0].HeldPerUse != 60*time.Nanosecond {
		t.Errorf("reader's hold on 1 CPU %v, on 2 %v (read on %d), writer's on 2 %v; want 40 ns on both, read on 1, the writer's 60 ns as timed",
			r1, r2, two.Locks[0].ReadOn, two.Locks[0].HeldPerUse)
	}
	if !strings.Contains(two.describe(), "leaves on 1 CPU, where nothing contends") {
		t.Errorf("the model's line does not say where the reader's hold was read: %s", two.describe())
	}
}

// A lock taken once in many operations (sync.Pool's pinSlow: once in 2825
// of logrus's, 2.5 µs each) is held on one operation in as many, for its
// whole hold, not for its time spread over every operation: so spread, 16
// CPUs each took it at every operation and the model of a logger with no
// lock of its own stopped at 3× one CPU where three 16-vCPU machines
// measured 6.8–7.5×. The operation's time is what it was.
func TestRareLockOnOneOperationInMany(t *testing.T) {
	const ops = 1e6 // over 1 s on one CPU: 1 µs an operation
	pool := mutexAt("pool", ops/1000, 2*time.Microsecond)
	m, err := modelOf(measuredPoint("logger", 1, ops, pool))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Locks) != 1 {
		t.Fatalf("locks %+v; want the pool's (held 0.2 %% of the time)", m.Locks)
	}
	if n, d, every := uses(m.Locks[0]); n != 1 || d != 2*time.Microsecond || every != 1000 {
		t.Errorf("uses: %d of %v on one operation in %d; want 1 of 2µs in 1000", n, d, every)
	}
	if y := m.yaml(); !strings.Contains(y, `{name: "pool", duration: 2µs, holds: ["pool"], every: 1000}`) {
		t.Errorf("blueprint lacks the hold on one operation in 1000:\n%s", y)
	}
	if m.Outside != 998*time.Nanosecond {
		t.Errorf("outside %v; want 998 ns, 2 ns of each operation's 1 µs the pool's", m.Outside)
	}
	if _, err := m.blueprint(); err != nil {
		t.Error(err)
	}
}
