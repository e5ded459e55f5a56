package calibrate

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
)

// TestCostsOfRef: CostsOf reads back, to the nanosecond, every cost a
// calibration's Ref names, intervals, zero costs and costs given as
// flags included, without parsing text; a cost it does not know is an error.
func TestCostsOfRef(t *testing.T) {
	var c Calibration
	c.Host.Name = "vm"
	c.Samples = 5
	c.Costs.Wake, c.Lo.Wake, c.Hi.Wake = 21271*time.Nanosecond, 19954*time.Nanosecond, 35958*time.Nanosecond
	c.Costs.SpinWake, c.Lo.SpinWake, c.Hi.SpinWake = 17796*time.Nanosecond, 16*time.Microsecond, 20*time.Microsecond
	c.Costs.Switch, c.Lo.Switch, c.Hi.Switch = 55, 50, 66
	c.Costs.MutexHandoff = 311
	c.Costs.ChanHandoff, c.Lo.ChanHandoff, c.Hi.ChanHandoff = 1398*time.Nanosecond, time.Microsecond, 2*time.Microsecond
	c.Costs.BufChanHandoff = 1403 * time.Nanosecond
	c.Costs.RunnextGrace, c.Lo.RunnextGrace, c.Hi.RunnextGrace = 77971*time.Nanosecond, 74*time.Microsecond, 88*time.Microsecond
	c.Costs.MutexSpin, c.Lo.MutexSpin, c.Hi.MutexSpin = 1057, 1050, 1090
	if err := c.Override("spin-window", 3*time.Microsecond); err != nil {
		t.Fatal(err)
	}
	ref := c.Ref()
	got, err := CostsOf(ref)
	if err != nil {
		t.Fatal(err)
	}
	if got != c.Costs {
		t.Errorf("CostsOf(%+v) = %+v, want %+v", ref.Costs, got, c.Costs)
	}
	// A point named its calibration without the mutex spin before Lock's
	// spin was measured: it reads as a Lock that never spins.
	old := ref
	old.Costs = ref.Costs[:slices.IndexFunc(ref.Costs, func(k results.Cost) bool { return k.Name == "mutex spin" })]
	want := c.Costs
	want.MutexSpin = 0
	if got, err := CostsOf(old); err != nil || got != want {
		t.Errorf("CostsOf(%+v) = %+v, %v; want %+v", old.Costs, got, err, want)
	}
	bad := ref
	bad.Costs = append(slices.Clone(ref.Costs), results.Cost{Name: "more", Median: time.Second})
	if _, err := CostsOf(bad); err == nil || !strings.Contains(err.Error(), `no cost "more"`) {
		t.Errorf("CostsOf with a cost it does not know: %v", err)
	}
}

// TestPolicyOfPoint: a go prediction's point gives back the policy it was
// made under, costs and seed included; a fifo one needs no costs; a
// measured point, or a go one naming no calibration, has none.
func TestPolicyOfPoint(t *testing.T) {
	var c Calibration
	c.Costs.Wake, c.Costs.Switch = 20*time.Microsecond, 100
	ref := c.Ref()
	cfg := model.DefaultConfig(2)
	cfg.Warmup, cfg.Dur = 10*time.Millisecond, 20*time.Millisecond
	want := model.Policy{Policy: results.Policy{Sched: "go", Seed: 3}, Costs: c.Costs}
	ps, err := model.Simulate(context.Background(), []model.Config{want.Apply(cfg)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := ps[0]
	p.Calibration = &ref
	got, err := PolicyOf(p)
	if err != nil {
		t.Fatal(err)
	}
	if got.Sched != want.Sched || got.Costs != want.Costs || got.Seed != want.Seed || got.Background != want.Background {
		t.Errorf("PolicyOf = %+v, want %+v", got, want)
	}
	p.Calibration = nil
	if _, err := PolicyOf(p); err == nil {
		t.Error("a go point without its calibration: no error")
	}
	p.Sched = "fifo"
	if got, err := PolicyOf(p); err != nil || got.Sched != "fifo" {
		t.Errorf("a fifo point: %+v, %v", got, err)
	}
	p.Source = "measured"
	if _, err := PolicyOf(p); err == nil {
		t.Error("a measured point: no error")
	}
}
