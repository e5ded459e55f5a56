package infer

import (
	"context"
	"math"
	"reflect"
	"slices"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// truth are the costs the test's points are simulated with, base the
// calibration the inference starts from and keeps where the points say
// nothing: its wake-up is far cheaper than the truth's.
var (
	truth = sim.Costs{Switch: 200 * time.Nanosecond, Wake: 150 * time.Microsecond, SpinWake: 10 * time.Microsecond,
		MutexHandoff: 2 * time.Microsecond, ChanHandoff: 3 * time.Microsecond, BufChanHandoff: 2 * time.Microsecond, RunnextGrace: 60 * time.Microsecond}
	base = calibrate.Calibration{Samples: 100, Repeats: 6,
		Costs: sim.Costs{Switch: 100 * time.Nanosecond, Wake: 10 * time.Microsecond, SpinWake: 5 * time.Microsecond,
			MutexHandoff: 500 * time.Nanosecond, ChanHandoff: 500 * time.Nanosecond, BufChanHandoff: 500 * time.Nanosecond, RunnextGrace: 60 * time.Microsecond},
		Lo: sim.Costs{Switch: 90 * time.Nanosecond, Wake: 8 * time.Microsecond, SpinWake: 4 * time.Microsecond,
			MutexHandoff: 400 * time.Nanosecond, ChanHandoff: 400 * time.Nanosecond, BufChanHandoff: 400 * time.Nanosecond, RunnextGrace: 55 * time.Microsecond},
		Hi: sim.Costs{Switch: 110 * time.Nanosecond, Wake: 12 * time.Microsecond, SpinWake: 6 * time.Microsecond,
			MutexHandoff: 600 * time.Nanosecond, ChanHandoff: 600 * time.Nanosecond, BufChanHandoff: 600 * time.Nanosecond, RunnextGrace: 65 * time.Microsecond}}
)

// simulated makes points as if measured: each mode on each CPU count
// simulated under the truth's costs, one run each.
func simulated(t *testing.T, modes []string, cpus []int) Points {
	t.Helper()
	var ps Points
	for _, m := range modes {
		for _, n := range cpus {
			cfg := model.Config{Spec: results.Spec{Mode: m, CPUs: n, Load: results.Load{Warmup: 50 * time.Millisecond, Dur: 300 * time.Millisecond},
				Policy: results.Policy{Seed: 1, Burn: "cpu"}}, Steps: coffee.DefaultSteps()}
			sim := cfg
			sim.Policy.Sched, sim.Costs = "go", truth
			r, err := model.Simulate(context.Background(), []model.Config{sim}, nil)
			if err != nil {
				t.Fatal(err)
			}
			p50 := time.Duration(math.Round(r[0].Latency.P50 * float64(time.Millisecond)))
			ps.Points = append(ps.Points, Point{Name: name(cfg), Runs: []Run{{Config: cfg, Throughput: r[0].Throughput, P50: p50}}})
		}
	}
	ps.Files = []string{"simulated"}
	return ps
}

// TestInferRecoversCosts: points simulated with known costs, inferred from
// a base whose wake-up is 15 times too cheap, give ranges that hold the
// known costs the points constrain; the wake-up is one of them, moved off
// the base's value, which its range excludes; the costs left
// unconstrained keep the base's value and interval; and the inferred
// costs reproduce the points.
func TestInferRecoversCosts(t *testing.T) {
	ps := simulated(t, []string{"finelocking", "linearpipe-0", "locking"}, []int{2})
	start := time.Now()
	cal, err := Infer(context.Background(), ps, Options{Base: base})
	if err != nil {
		t.Fatal(err)
	}
	in := cal.Inferred
	t.Logf("%v: %d sets of costs in %v; %s", in.Inferred, in.Evaluations, time.Since(start), cal.Ref().Costs)
	if !slices.Contains(in.Inferred, "wake") {
		t.Fatalf("wake not inferred (inferred %v, kept %v): the points turn on it", in.Inferred, in.Kept)
	}
	for _, name := range in.Inferred {
		lo, hi, want := *calibrate.Field(&cal.Lo, name), *calibrate.Field(&cal.Hi, name), *calibrate.Field(&truth, name)
		if want < lo || want > hi {
			t.Errorf("%s: range [%v, %v] misses the points' %v", name, lo, hi, want)
		}
	}
	if cal.Hi.Wake < 2*base.Costs.Wake || cal.Lo.Wake <= base.Hi.Wake {
		t.Errorf("wake %v [%v, %v]: does not exclude the base's %v", cal.Costs.Wake, cal.Lo.Wake, cal.Hi.Wake, base.Costs.Wake)
	}
	for _, name := range in.Kept {
		for _, pair := range [][2]sim.Costs{{cal.Costs, base.Costs}, {cal.Lo, base.Lo}, {cal.Hi, base.Hi}} {
			if got, want := *calibrate.Field(&pair[0], name), *calibrate.Field(&pair[1], name); got != want {
				t.Errorf("%s, not constrained: %v, want the base's %v", name, got, want)
			}
		}
	}
	for _, f := range in.Fit {
		if f.Throughput > 0.01 || f.P50 > 0.01 {
			t.Errorf("%s: the inferred costs miss it by %.1f %% (throughput), %.1f %% (p50)", f.Point, 100*f.Throughput, 100*f.P50)
		}
	}
	if len(in.Sets) == 0 {
		t.Errorf("no sets of costs for the band")
	}
}

// TestFixedHeld: a cost held by Options.Fixed keeps its value in the
// costs, their range and every set of the band, and is neither inferred
// nor kept; held at the base's wake-up, 15 times too cheap, it leaves the
// points that turn on the wake-up missed, which no other cost makes up.
func TestFixedHeld(t *testing.T) {
	ps := simulated(t, []string{"finelocking", "linearpipe-0", "locking"}, []int{2})
	held := base.Costs.Wake
	cal, err := Infer(context.Background(), ps, Options{Base: base, Fixed: map[string]time.Duration{"wake": held}})
	if err != nil {
		t.Fatal(err)
	}
	in := cal.Inferred
	if !reflect.DeepEqual(in.Fixed, []string{"wake"}) || slices.Contains(in.Inferred, "wake") || slices.Contains(in.Kept, "wake") {
		t.Errorf("fixed %v, inferred %v, kept %v: want wake fixed only", in.Fixed, in.Inferred, in.Kept)
	}
	for _, c := range append([]sim.Costs{cal.Costs, cal.Lo, cal.Hi}, in.Sets...) {
		if c.Wake != held {
			t.Errorf("wake %v in %+v, want the %v held", c.Wake, c, held)
		}
	}
	missed := false
	for _, f := range in.Fit {
		missed = missed || f.Throughput > 0.01 || f.P50 > 0.01
	}
	if !missed {
		t.Errorf("every point within 1 %% with the wake-up held 15 times too cheap: %+v", in.Fit)
	}
}

// TestBeyond: inferred from points on 1 and 2 CPUs, a calibration carries
// the model's error predicting the 2-CPU points from the 1-CPU ones. Where
// the model made the points and the base holds their costs, nothing is
// missing and the error is 0; where the base's wake-up is 15 times too
// cheap and the 1-CPU points cannot tell (no P is ever idle there), the
// 2-CPU points that turn on it are missed, and the error is the
// nearest-rank 4-in-5 of the misses. Points on one CPU count carry none.
func TestBeyond(t *testing.T) {
	ps := simulated(t, []string{"finelocking", "linearpipe-0", "locking", "multi-2", "ideal"}, []int{1, 2})
	exact := calibrate.Calibration{Samples: 100, Repeats: 6, Costs: truth, Lo: truth, Hi: truth}
	for _, c := range []struct {
		name    string
		base    calibrate.Calibration
		missing bool
	}{{"base holds the costs", exact, false}, {"base's wake-up too cheap", base, true}} {
		cal, err := Infer(context.Background(), ps, Options{Base: c.base})
		if err != nil {
			t.Fatal(err)
		}
		b := cal.Inferred.Beyond
		if b == nil || b.From != 1 || b.To != 2 || len(b.Fit) != 5 {
			t.Fatalf("%s: beyond %+v, want from 1 to 2 CPUs over the five 2-CPU points", c.name, b)
		}
		var thr, p50 []float64
		for _, f := range b.Fit {
			thr, p50 = append(thr, f.Throughput), append(p50, f.P50)
		}
		t.Logf("%s: %.4f %.4f; %+v", c.name, b.Throughput, b.P50, b.Fit)
		if b.Throughput != round4(nearestRank(thr, Share)) || b.P50 != round4(nearestRank(p50, Share)) {
			t.Errorf("%s: errors %v, %v are not the 4-in-5 of the fit's %v, %v", c.name, b.Throughput, b.P50, thr, p50)
		}
		if missed := slices.Max(thr) > 0.01 || slices.Max(p50) > 0.01; missed != c.missing {
			t.Errorf("%s: a 2-CPU point missed by more than 1 %%: %v, want %v (%+v)", c.name, missed, c.missing, b.Fit)
		}
		if cal.Range().Widen == nil {
			t.Errorf("%s: the range widens no band past 2 CPUs", c.name)
		}
	}
	one := simulated(t, []string{"finelocking"}, []int{2})
	cal, err := Infer(context.Background(), one, Options{Base: base})
	if err != nil {
		t.Fatal(err)
	}
	if cal.Inferred.Beyond != nil || cal.Range().Widen != nil {
		t.Errorf("points on one CPU count carry an error past them: %+v", cal.Inferred.Beyond)
	}
}

func TestNearestRank(t *testing.T) {
	xs := []float64{0.3, 0, 0.1, 0.5, 0.2}
	for q, want := range map[float64]float64{0.8: 0.3, 1: 0.5, 0.2: 0, 0.5: 0.2} {
		if got := nearestRank(xs, q); got != want {
			t.Errorf("nearestRank(%v, %v) = %v, want %v", xs, q, got, want)
		}
	}
}

// TestSpreadWidensRange: a point whose runs disagree by more than the
// tolerance tolerates that much: its fit records the runs' spread as its
// tolerance, and each inferred cost's range holds at least what the same
// points measured once each give it, one of them strictly more. A point
// measured once keeps the tolerance.
func TestSpreadWidensRange(t *testing.T) {
	once := simulated(t, []string{"finelocking", "linearpipe-0", "locking"}, []int{2})
	spread := once
	spread.Points = slices.Clone(once.Points)
	for i, p := range spread.Points {
		r := p.Runs[0]
		r.Throughput *= 1.08
		r.P50 = time.Duration(float64(r.P50) * 0.92)
		spread.Points[i].Runs = []Run{p.Runs[0], r}
	}
	one, err := Infer(context.Background(), once, Options{Base: base})
	if err != nil {
		t.Fatal(err)
	}
	two, err := Infer(context.Background(), spread, Options{Base: base})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range one.Inferred.Fit {
		if f.ThroughputTolerance != DefaultTolerance || f.P50Tolerance != DefaultTolerance {
			t.Errorf("%s measured once: tolerances %v, %v, want %v", f.Point, f.ThroughputTolerance, f.P50Tolerance, DefaultTolerance)
		}
	}
	for i, f := range two.Inferred.Fit {
		thr, p50 := measured(spread.Points[i])
		wantThr, wantP50 := round4((slices.Max(thr)-slices.Min(thr))/results.Median(thr)), round4((slices.Max(p50)-slices.Min(p50))/results.Median(p50))
		if wantThr < 0.07 || f.ThroughputTolerance != wantThr || f.P50Tolerance != wantP50 {
			t.Errorf("%s, runs 8 %% apart: tolerances %v, %v, want their spread %v, %v", f.Point, f.ThroughputTolerance, f.P50Tolerance, wantThr, wantP50)
		}
	}
	wider := false
	for _, name := range one.Inferred.Inferred {
		lo1, hi1 := *calibrate.Field(&one.Lo, name), *calibrate.Field(&one.Hi, name)
		lo2, hi2 := *calibrate.Field(&two.Lo, name), *calibrate.Field(&two.Hi, name)
		t.Logf("%s: once [%v, %v], spread [%v, %v]", name, lo1, hi1, lo2, hi2)
		if !slices.Contains(two.Inferred.Inferred, name) {
			continue // consistent over the whole grid: wider still
		}
		if lo2 > lo1 || hi2 < hi1 {
			t.Errorf("%s: range [%v, %v] from spread runs, narrower than [%v, %v] from single ones", name, lo2, hi2, lo1, hi1)
		}
		wider = wider || lo2 < lo1 || hi2 > hi1
	}
	if !wider && len(two.Inferred.Kept) <= len(one.Inferred.Kept) {
		t.Errorf("runs 8 %% apart widened no cost's range: inferred %v, kept %v", two.Inferred.Inferred, two.Inferred.Kept)
	}
}

func TestConsistentPerPoint(t *testing.T) {
	best := []float64{0, 0.02}
	for _, c := range []struct {
		d    []float64
		tols []float64
		want bool
	}{
		{[]float64{0.01, 0.03}, []float64{0.01, 0.01}, true},
		{[]float64{0.05, 0.02}, []float64{0.01, 0.01}, false},
		{[]float64{0.05, 0.02}, []float64{0.06, 0.01}, true},
		{[]float64{0.05, 0.09}, []float64{0.06, 0.06}, false},
		{nil, []float64{1, 1}, false},
	} {
		if got := consistent(c.d, best, c.tols); got != c.want {
			t.Errorf("consistent(%v, %v, %v) = %v, want %v", c.d, best, c.tols, got, c.want)
		}
	}
	if got := spread([]float64{100, 104, 110}); math.Abs(got-0.1/1.04) > 1e-12 {
		t.Errorf("spread of 100, 104, 110 = %v, want 10/104", got)
	}
	if got := spread([]float64{7}); got != 0 {
		t.Errorf("spread of one run = %v, want 0", got)
	}
}

// TestWiden: a range that carries the model's error past the CPUs
// its costs were inferred on (5 % a doubling past 2 CPUs) leaves the band
// of a point on 2 CPUs as it was, widens one on 8 CPUs by 10 % each side
// (two doublings), and never puts the throughput's edge above
// the point's bound.
func TestWiden(t *testing.T) {
	c := truth
	lo, hi := c, c
	lo.Wake, hi.Wake = 60*time.Microsecond, 90*time.Microsecond
	beyond := Beyond{From: 1, To: 2, Throughput: 0.05, P50: 0.05}
	for _, cpus := range []int{2, 8} {
		cfg := model.DefaultConfig(cpus)
		cfg.Mode, cfg.Costs, cfg.Range = "finelocking", c, &model.Range{Lo: lo, Hi: hi}
		with := cfg
		with.Range = &model.Range{Lo: lo, Hi: hi, Widen: beyond.widen}
		ps, err := model.Simulate(context.Background(), []model.Config{cfg, with}, nil)
		if err != nil {
			t.Fatal(err)
		}
		plain, wide := ps[0].Band, ps[1].Band
		if cpus == 2 {
			if !reflect.DeepEqual(plain, wide) {
				t.Errorf("2 CPUs: band %+v, want %+v: no wider on the CPUs inferred on", wide, plain)
			}
			continue
		}
		bound := ps[1].Bounds.ThroughputMax
		if got, want := wide.Throughput[0], plain.Throughput[0]/1.1; math.Abs(got-want) > 1e-6 {
			t.Errorf("8 CPUs: throughput's low edge %v, want %v", got, want)
		}
		if got, want := wide.Throughput[1], min(plain.Throughput[1]*1.1, bound); math.Abs(got-want) > 1e-6 || got > bound {
			t.Errorf("8 CPUs: throughput's high edge %v, want %v (bound %v)", got, want, bound)
		}
		if got, want := wide.P50Ms[1], plain.P50Ms[1]*1.1; math.Abs(got-want) > 1e-6 {
			t.Errorf("8 CPUs: p50's high edge %v, want %v", got, want)
		}
		if wide.P50Ms[0] > plain.P50Ms[0] || wide.P50Ms[0] < ps[1].Bounds.LatencyMinMs-1e-9 {
			t.Errorf("8 CPUs: p50's low edge %v, want below %v and not under %v", wide.P50Ms[0], plain.P50Ms[0], ps[1].Bounds.LatencyMinMs)
		}
	}
}

// TestRidge: of the sets of costs the search tried, the band takes, for
// each cost, the consistent ones (within the tolerances of the best fit
// at every point) that hold it at its least and at its most, whatever the
// other costs are there; a set outside the tolerances at one point is never
// taken, however far along it lies.
func TestRidge(t *testing.T) {
	cheap := sim.Costs{Wake: time.Microsecond, Switch: 100 * time.Nanosecond}
	dear := sim.Costs{Wake: 16 * time.Microsecond, Switch: 8 * time.Microsecond} // the two traded off
	mid := sim.Costs{Wake: 4 * time.Microsecond, Switch: 200 * time.Nanosecond}
	far := sim.Costs{Wake: 64 * time.Microsecond, Switch: 50 * time.Nanosecond}
	s := &search{tols: []float64{0.01, 0.02}, seen: map[sim.Costs][]float64{
		cheap: {0, 0}, dear: {0.009, 0.015}, mid: {0.002, 0}, far: {0.011, 0},
	}}
	got := s.ridge([]string{"wake", "switch"}, []float64{0, 0})
	want := []sim.Costs{cheap, dear, cheap, dear}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ridge: %v, want %v (far lies 1.1 %% off, past the 1 %% tolerance)", got, want)
	}
}
