package why_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/coffee/shopsweep"
	"github.com/brewput/brewput/experiment/limits"
	"github.com/brewput/brewput/experiment/why"
	"github.com/brewput/brewput/explain/compare"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// profile is the fifo model's causal profile of mode on cpus CPUs.
func profile(t *testing.T, mode string, cpus int) *limits.CausalProfile {
	t.Helper()
	cfg := model.DefaultConfig(cpus)
	cfg.Mode, cfg.Policy.Sched = mode, "fifo"
	var pr *limits.CausalProfile
	if err := limits.CausalProfiles(context.Background(), []model.Config{cfg}, limits.EveryRelief, func(_ int, p *limits.CausalProfile, err error) error {
		pr = p
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return pr
}

func base(mode string, cpus int) shopsweep.Spec {
	return shopsweep.Spec{Mode: coffee.MustParseMode(mode), Load: sweep.Load{CPUs: cpus, Load: results.Load{Warmup: 10 * time.Millisecond, Dur: 50 * time.Millisecond}}, Steps: coffee.DefaultSteps()}
}

// plan is brewput why's plan for mode on cpus CPUs of a machine with as
// many, from the fifo model's causal profile.
func plan(t *testing.T, mode string, cpus int) *why.Check {
	t.Helper()
	s, err := why.Plan(profile(t, mode, cpus), base(mode, cpus), cpus)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Each relief becomes the real change the model made: a shorter step,
// a variant with more machines, more CPUs or customers; what needs more
// CPUs than the machine has is listed, not run.
func TestPlan(t *testing.T) {
	s := plan(t, "finelocking", 2)
	if s.System != "finelocking on 2 CPUs" || s.Base.Mode.String() != "finelocking" || s.Base.CPUs != 2 || s.Base.Dur != 50*time.Millisecond {
		t.Errorf("base %+v of %q", s.Base, s.System)
	}
	found := map[string]shopsweep.Spec{}
	skipped := map[string]string{}
	for _, e := range s.Experiments {
		found[text.ChangeText(e.Model)] = e.Spec
		if e.Skip != "" {
			skipped[text.ChangeText(e.Model)] = e.Skip
		}
	}
	if sp := found["grinding 10 % faster"]; sp.Steps.Grind != 900*time.Microsecond || sp.Steps.Press != time.Millisecond || sp.CPUs != 2 {
		t.Errorf("grinding faster runs %+v", sp)
	}
	if sp := found["another grinder"]; sp.Variant.Copies.Grinder != 2 || sp.Mode.String() != "finelocking" {
		t.Errorf("another grinder runs %+v", sp)
	}
	if sp := found["twice the customers (2 → 4)"]; sp.Par != 4 || sp.CPUs != 2 {
		t.Errorf("twice the customers runs %+v", sp)
	}
	if !strings.Contains(skipped["one more CPU and one more customer"], "needs 3 CPUs; this machine has 2") || len(skipped) != 2 {
		t.Errorf("skipped %v; want the two reliefs of 3 CPUs", skipped)
	}
	if _, err := why.Plan(&limits.CausalProfile{System: "cafe on 2 CPUs"}, base("finelocking", 2), 2); err == nil {
		t.Error("a profile of no shop mode: no error")
	}
}

// Measured and judged with a stand-in for the child process (the model
// itself, a little noisy by repetition): each experiment gets its
// comparison with the point as it is, and the words say what gained most
// and how many agree with the model. Real timings are not asserted here:
// brewput why runs the real thing.
func TestMeasureAndJudge(t *testing.T) {
	s := plan(t, "locking", 2)
	runs := 0
	fake := func(ctx context.Context, sp shopsweep.Spec) (results.Point, error) {
		runs++
		cfg := model.Config{Spec: results.Spec{Mode: sp.Mode.String(), CPUs: sp.CPUs, Load: results.Load{Par: sp.Par, Warmup: 100 * time.Millisecond, Dur: time.Second},
			Policy: results.Policy{Sched: "fifo", Seed: 1}}, Steps: sp.Steps, Variant: sp.Variant}
		cfg.Steps.Jitter, cfg.Steps.Clock = 0, 0
		ps, err := model.Simulate(ctx, []model.Config{cfg}, nil)
		if err != nil {
			return results.Point{}, err
		}
		p := ps[0]
		p.Source = results.SourceMeasured
		p.Throughput *= 1 + 0.001*float64(runs%5) // a little noise
		return p, nil
	}
	if err := s.Run(context.Background(), 6, fake, io.Discard); err != nil {
		t.Fatal(err)
	}
	if runs != 6*(1+len(s.Experiments)-2) || len(s.BasePoints) != 6 {
		t.Errorf("%d runs, %d of the point as it is", runs, len(s.BasePoints))
	}
	s.Judge(compare.Options{})
	var split why.Experiment
	for _, e := range s.Experiments {
		if e.Model.Kind == limits.Split {
			split = e
		}
	}
	g, lo, hi, ok := split.Gain()
	m, _ := split.Throughput()
	if !ok || g < 0.3 || lo > g || hi < g || m.Change != 1 {
		t.Errorf("the kitchen lock held for less: gain %g in [%g, %g], change %d; want about +33 %%, better", g, lo, hi, m.Change)
	}
	if a, ok := split.Agrees(); !ok || !a {
		t.Errorf("the split agrees with the model: %v, %v", a, ok)
	}
	var b strings.Builder
	if err := text.WriteReliefs(&b, s.Reliefs()); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	// The answer first: what the real CPUs showed.
	if first, _, _ := strings.Cut(out, "\n"); !strings.HasPrefix(first, "locking on 2 CPUs, measured 6 times on real CPUs: the kitchen lock held for") {
		t.Errorf("the first line %q is not the measured answer", first)
	}
	for _, want := range []string{"as it is", "model", "measured", "range (95 %)",
		"the kitchen lock held for less: combining outside it", "+33 %", "better", "not measured: needs 3 CPUs;",
		"combining outside it gains most", "The model (fifo): The kitchen lock limits it"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "disturbed") {
		t.Errorf("no run was disturbed, yet:\n%s", out)
	}
}

// Run measures what Sweep lists, round by round, and tells what it
// measures before it starts.
func TestRun(t *testing.T) {
	s := plan(t, "locking", 1)
	st := s.Sweep(2)
	if st.Specs[0] != s.Base || st.Count != 2 || st.Total() != 2*(len(s.Experiments)-2+1) {
		t.Errorf("sweep %d specs × %d; %d experiments, 2 not measured here", len(st.Specs), st.Count, len(s.Experiments))
	}
	var runs []shopsweep.Spec
	fake := func(ctx context.Context, sp shopsweep.Spec) (results.Point, error) {
		runs = append(runs, sp)
		return results.Point{Spec: results.Spec{Mode: sp.Mode.String(), CPUs: sp.CPUs}, Ops: 100, Throughput: 200, Unit: "lattes/s"}, nil
	}
	var told strings.Builder
	text.WriteRounds(&told, s.Rounds(2))
	if err := s.Run(context.Background(), 2, fake, &told); err != nil {
		t.Fatal(err)
	}
	if len(runs) != st.Total() || runs[0] != s.Base || runs[len(st.Specs)] != s.Base || len(s.BasePoints) != 2 {
		t.Errorf("%d runs, base first in each round? %d base points", len(runs), len(s.BasePoints))
	}
	if !strings.HasPrefix(told.String(), fmt.Sprintf("measuring locking as it is and with %d reliefs, 2 times each, in rounds: %d runs", len(st.Specs)-1, st.Total())) {
		t.Errorf("told %q", told.String())
	}
}

// A disturbed run is said to be, and its experiment is not judged
// against the model.
func TestDisturbed(t *testing.T) {
	s := plan(t, "locking", 1)
	n := 0
	fake := func(ctx context.Context, sp shopsweep.Spec) (results.Point, error) {
		n++
		return results.Point{Spec: results.Spec{Mode: sp.Mode.String(), CPUs: sp.CPUs}, Trust: results.Trust{OthersCPUs: 0.9}, Ops: 100, Throughput: 200 + float64(n%3), Unit: "lattes/s"}, nil
	}
	if err := s.Run(context.Background(), 3, fake, io.Discard); err != nil {
		t.Fatal(err)
	}
	s.Judge(compare.Options{})
	for _, e := range s.Experiments {
		if _, ok := e.Agrees(); ok {
			t.Errorf("%s: judged against the model though disturbed", text.ChangeText(e.Model))
		}
	}
	if v := text.ReliefsVerdict(s.Reliefs()); !strings.Contains(v, "were disturbed: other processes took more than 0.2 CPU of the run's own") ||
		!strings.Contains(v, "None of the ") || !strings.Contains(v, "experiments could be held against the model's prediction: too few runs, or disturbed.") ||
		strings.Contains(v, "of the 0") {
		t.Errorf("verdict %q", v)
	}
}

// TestMeasureWithin: a round that would not end within the limit is not
// started; with room for every round, all are run.
func TestMeasureWithin(t *testing.T) {
	s := plan(t, "locking", 1)
	runs := 0
	fake := func(ctx context.Context, sp shopsweep.Spec) (results.Point, error) {
		runs++
		return results.Point{Spec: results.Spec{Mode: sp.Mode.String(), CPUs: sp.CPUs}, Ops: 100, Throughput: 200, Unit: "lattes/s"}, nil
	}
	measured := 1 // the point as it is
	for _, e := range s.Experiments {
		if e.Skip == "" {
			measured++
		}
	}
	s.Within = time.Duration(measured) * (s.Base.Warmup + s.Base.Dur) / 2
	var late *why.OutOfTime
	if err := s.Run(context.Background(), 3, fake, io.Discard); !errors.As(err, &late) || late.Rounds != 0 || runs != 0 {
		t.Errorf("within half a round's windows: %v after %d runs; want out of time before the first", err, runs)
	}
	s.Within = time.Hour
	if err := s.Run(context.Background(), 3, fake, io.Discard); err != nil || len(s.BasePoints) != 3 {
		t.Errorf("within an hour: %v, %d runs as it is; want 3", err, len(s.BasePoints))
	}
	// The limit counts from the command's start (Since), what came
	// before the rounds included: an hour, all of it gone but a
	// millisecond, leaves no round.
	runs = 0
	s.BasePoints = nil
	s.Since = time.Now().Add(-time.Hour + time.Millisecond)
	if err := s.Run(context.Background(), 3, fake, io.Discard); !errors.As(err, &late) || runs != 0 {
		t.Errorf("an hour from a start an hour less 1ms ago: %v after %d runs; want out of time before the first", err, runs)
	}
}
