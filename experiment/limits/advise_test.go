package limits_test

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/brewput/brewput/experiment/limits"
	"github.com/brewput/brewput/model"
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
			t.Errorf("%s: bottleneck %v (%s), want the three machines together", sched, b.Resources, b.Text)
		}
		best := a.Options[0]
		if math.Abs(best.ThroughputGain-0.5) > 0.03 || best.Cost.Machines != 3 {
			t.Errorf("%s: best change %q (%s) at %.0f costing %v, want another copy of each machine, about 1500", sched, best.Change, best.As, best.Throughput, best.Cost)
		}
		for _, o := range a.Options {
			if (o.Change == "twice the CPUs" || strings.HasPrefix(o.Change, "twice the customers")) && o.ThroughputGain > 0.01 {
				t.Errorf("%s: %s gains %.0f %%, want nothing", sched, o.Change, 100*o.ThroughputGain)
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
	for _, r := range b.Recommend {
		found := false
		for _, o := range a.Options {
			found = found || (o.Change == r && o.ThroughputGain > 0.01)
		}
		if !found {
			t.Errorf("%s: the verdict recommends %q, which the table does not have with a gain", a.System, r)
		}
	}
	for i := 1; i < len(a.Options); i++ {
		if a.Options[i].ThroughputGain > a.Options[i-1].ThroughputGain+0.01 {
			t.Errorf("%s: option %d (%s) gains more than option %d", a.System, i+1, a.Options[i].As, i)
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
		if !slices.Contains(tc.first, o.As) || math.Abs(o.ThroughputGain-tc.gain) > 0.02 {
			t.Errorf("%s on %d CPUs: first %q gaining %.2f, want one of %q gaining %.2f", tc.mode, tc.cpus, o.As, o.ThroughputGain, tc.first, tc.gain)
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
		if o.As == "linearpipe-1" {
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
		t.Errorf("limited by %v, want the customers alone: %s", b.Resources, b.Text)
	}
	if !strings.HasPrefix(a.Options[0].Change, "twice the customers") {
		t.Errorf("first %q, want twice the customers", a.Options[0].Change)
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
	if a.Now.Bottleneck.Resource != "barista" || a.Options[0].Change != "one more barista (2 → 3)" || a.Options[0].ThroughputGain < 0.4 {
		t.Errorf("cafe on 4 CPUs: limited by %q, first %q (+%.0f %%); want the barista", a.Now.Bottleneck.Resource, a.Options[0].Change, 100*a.Options[0].ThroughputGain)
	}
	if b.Resources[1].Capacity != 2 {
		t.Errorf("advise changed the blueprint: barista capacity %d", b.Resources[1].Capacity)
	}
}
