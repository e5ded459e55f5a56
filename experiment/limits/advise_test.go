package limits_test

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/brewput/brewput/experiment/limits"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// config is the default configuration of the mode named, which may be
// no mode at all (to test advise's check).
func config(mode string, cpus int, sched string) model.Config {
	cfg := model.DefaultConfig(cpus)
	cfg.Mode, cfg.Policy.Sched = mode, sched
	return cfg
}

// finelocking on 6 CPUs is limited by its three machines together: no
// single relief gains, another copy of each gains 50 %, and more CPUs or
// customers nothing.
func TestFinelockingOnSixCPUs(t *testing.T) {
	for _, sched := range []string{"fifo", "go"} {
		a, err := limits.Advise(context.Background(), config("finelocking", 6, sched))
		if err != nil {
			t.Fatal(err)
		}
		checkAgrees(t, a)
		b := a.Now.Bottleneck
		if b.Combined == nil || len(b.Resources) != 3 {
			t.Errorf("%s: bottleneck %v (%s), want the three machines together", sched, b.Resources, said(a.Unit, b))
		}
		best := a.Options[0]
		if math.Abs(best.ThroughputGain-0.5) > 0.03 || best.Cost.Machines != 3 {
			t.Errorf("%s: best change %q (%s) at %.0f costing %v, want another copy of each machine, about 1500", sched, text.OptionChange(best), text.Becomes(best.Becomes), best.Throughput, best.Cost)
		}
		for _, o := range a.Options {
			if (text.OptionChange(o) == "twice the CPUs" || strings.HasPrefix(text.OptionChange(o), "twice the customers")) && o.ThroughputGain > 0.01 {
				t.Errorf("%s: %s gains %.0f %%, want nothing", sched, text.OptionChange(o), 100*o.ThroughputGain)
			}
		}
	}
}

// checkAgrees checks that the advice and the profile's verdict agree:
// every change the verdict recommends is in the table, gaining more than
// 1 %.
func checkAgrees(t *testing.T, a *limits.Advice) {
	t.Helper()
	b := a.Now.Bottleneck
	for _, r := range recommended(b) {
		found := false
		for _, o := range a.Options {
			found = found || (text.OptionChange(o) == r && o.ThroughputGain > 0.01)
		}
		if !found {
			t.Errorf("%s: the verdict recommends %q, which the table does not have with a gain", a.System, r)
		}
	}
	for i := 1; i < len(a.Options); i++ {
		if a.Options[i].ThroughputGain > a.Options[i-1].ThroughputGain+0.01 {
			t.Errorf("%s: option %d (%s) gains more than option %d", a.System, i+1, text.Becomes(a.Options[i].Becomes), i)
		}
	}
}

func TestRankings(t *testing.T) {
	for _, tc := range []struct {
		mode  string
		cpus  int
		first []string // what the best change may be
		gain  float64  // the first change's throughput gain
	}{
		{"locking", 6, []string{"finelocking"}, 3}, // 250 → 1000
		// CPU-bound at 1500: twice the CPUs reach the grinders' 2000.
		{"multi-2", 6, []string{"12 CPUs, one customer each"}, 1.0 / 3},
		{"ideal", 4, []string{"8 CPUs, one customer each"}, 1},
		// A second line, or a second machine at every stage.
		{"linearpipe-0", 6, []string{"multipipe-2", "linearpipe-0, 2 grinders, 2 espresso machines, 2 steamers"}, 0.5},
	} {
		a, err := limits.Advise(context.Background(), config(tc.mode, tc.cpus, "fifo"))
		if err != nil {
			t.Fatal(err)
		}
		checkAgrees(t, a)
		o := a.Options[0]
		if !slices.Contains(tc.first, text.Becomes(o.Becomes)) || math.Abs(o.ThroughputGain-tc.gain) > 0.02 {
			t.Errorf("%s on %d CPUs: first %q gaining %.2f, want one of %q gaining %.2f", tc.mode, tc.cpus, text.Becomes(o.Becomes), o.ThroughputGain, tc.first, tc.gain)
		}
	}
}

// A buffer helps a jittery pipeline that is not yet machine-bound.
func TestBufferForJitteryPipeline(t *testing.T) {
	cfg := config("linearpipe-0", 4, "fifo")
	cfg.Steps.Jitter = 2 * cfg.Steps.Grind
	a, err := limits.Advise(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range a.Options {
		if text.Becomes(o.Becomes) == "linearpipe-1" {
			if o.ThroughputGain <= 0.01 || o.Cost.BufferSlots != 3 || o.Cost.BufferBytes <= 0 {
				t.Errorf("buffers of 1: %+v, want a gain for 3 slots", o)
			}
			return
		}
	}
	t.Fatal("no buffer option for linearpipe-0")
}

// One customer on two CPUs: the customers limit, and twice as many is the
// best change.
func TestOneCustomer(t *testing.T) {
	cfg := config("finelocking", 2, "fifo")
	cfg.Par = 1
	a, err := limits.Advise(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	checkAgrees(t, a)
	if b := a.Now.Bottleneck; b.Resource != "customers" || len(b.Resources) != 1 {
		t.Errorf("limited by %v, want the customers alone: %s", b.Resources, said(a.Unit, b))
	}
	if !strings.HasPrefix(text.OptionChange(a.Options[0]), "twice the customers") {
		t.Errorf("first %q, want twice the customers", text.OptionChange(a.Options[0]))
	}
}

func TestBadConfig(t *testing.T) {
	if _, err := limits.Advise(context.Background(), config("nonsense", 2, "fifo")); err == nil || !strings.Contains(err.Error(), "nonsense") {
		t.Errorf("unknown mode: err %v", err)
	}
	if _, err := limits.Advise(context.Background(), config("finelocking", 0, "fifo")); err == nil {
		t.Error("0 CPUs: no error")
	}
}

func TestAdviseBlueprint(t *testing.T) {
	cfg := example(t, "cafe.yaml", 4)
	b := cfg.System
	a, err := limits.Advise(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	checkAgrees(t, a)
	if a.Now.Bottleneck.Resource != "barista" || text.OptionChange(a.Options[0]) != "one more barista (2 → 3)" || a.Options[0].ThroughputGain < 0.4 {
		t.Errorf("cafe on 4 CPUs: limited by %q, first %q (+%.0f %%); want the barista", a.Now.Bottleneck.Resource, text.OptionChange(a.Options[0]), 100*a.Options[0].ThroughputGain)
	}
	if b.Resources[1].Capacity != 2 {
		t.Errorf("advise changed the blueprint: barista capacity %d", b.Resources[1].Capacity)
	}
}

// recommended says the changes b's verdict recommends: its tier's, or
// its combined change.
func recommended(b *results.Bottleneck) []string {
	var out []string
	for _, i := range b.Tier {
		out = append(out, text.ChangeText(b.Experiments[i]))
	}
	if b.Combined != nil {
		out = append(out, text.ChangeText(*b.Combined))
	}
	return out
}

// said is what report/text says of b, an advice's verdict of unit.
func said(unit string, b *results.Bottleneck) string {
	return text.BottleneckText(results.Point{Unit: unit, Bottleneck: b})
}
