package advise_test

import (
	"math"
	"strings"
	"testing"

	"github.com/brewput/brewput/advise"
	"github.com/brewput/brewput/blueprint"
	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/model"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// config is the default configuration of the mode named, which may be
// no mode at all (to test advise's check).
func config(mode string, cpus int, sched string) model.Config {
	cfg := model.DefaultConfig(cpus)
	m, err := coffee.ParseMode(mode)
	if err != nil {
		m = coffee.Mode{Family: mode}
	}
	cfg.Mode, cfg.Sched = m, sched
	return cfg
}

// The case: finelocking on 6 CPUs is limited by its machines, and
// another copy of each is the best change, to about 1500 lattes/s.
func TestFinelockingOnSixCPUs(t *testing.T) {
	for _, sched := range []string{"fifo", "go"} {
		a, err := advise.Mode(config("finelocking", 6, sched))
		if err != nil {
			t.Fatal(err)
		}
		if r := a.Now.Bottleneck.Resource; r != "grinder" && r != "espresso" && r != "steamer" {
			t.Errorf("%s: limited by %q, want a machine", sched, r)
		}
		best := a.Options[0]
		if best.As != "multi-2" || math.Abs(best.Throughput-1500) > 30 {
			t.Errorf("%s: best change %q (%s) at %.0f, want multi-2 at about 1500", sched, best.Change, best.As, best.Throughput)
		}
		if best.Cost.Machines != 3 {
			t.Errorf("%s: another copy of each machine costs %+v, want 3 machines", sched, best.Cost)
		}
		if !strings.HasPrefix(a.Answer, "finelocking on 6 CPUs makes") || !strings.Contains(a.Answer, "Best change: another copy of each machine (multi-2)") {
			t.Errorf("%s: answer %q", sched, a.Answer)
		}
		// More CPUs or customers do nothing for a machine-bound shop.
		for _, o := range a.Options {
			if (o.Change == "twice the CPUs" || o.Change == "twice the customers") && o.ThroughputGain > 0.01 {
				t.Errorf("%s: %s gains %.0f %%, want nothing", sched, o.Change, 100*o.ThroughputGain)
			}
		}
	}
}

func TestRankings(t *testing.T) {
	for _, tc := range []struct {
		mode  string
		cpus  int
		first string  // what the best change becomes
		gain  float64 // the first change's throughput gain
	}{
		{"locking", 6, "finelocking", 3}, // 250 → 1000
		// CPU-bound at 1500: twice the CPUs or a quarter off every step
		// both reach the grinders' 2000; the steps cost no machine.
		{"multi-2", 6, "steps ×0.75", 1.0 / 3},
		{"ideal", 4, "8 CPUs, one customer each", 1},
		{"linearpipe-0", 6, "multipipe-2", 0.5},
	} {
		a, err := advise.Mode(config(tc.mode, tc.cpus, "fifo"))
		if err != nil {
			t.Fatal(err)
		}
		o := a.Options[0]
		if o.As != tc.first || math.Abs(o.ThroughputGain-tc.gain) > 0.02 {
			t.Errorf("%s on %d CPUs: first %q gaining %.2f, want %q gaining %.2f", tc.mode, tc.cpus, o.As, o.ThroughputGain, tc.first, tc.gain)
		}
		for i := 1; i < len(a.Options); i++ {
			if a.Options[i].ThroughputGain > a.Options[i-1].ThroughputGain+0.01 {
				t.Errorf("%s: option %d (%s) gains more than option %d", tc.mode, i+1, a.Options[i].As, i)
			}
		}
	}
}

// A buffer helps a jittery pipeline that is not yet machine-bound.
func TestBufferForJitteryPipeline(t *testing.T) {
	cfg := config("linearpipe-0", 4, "fifo")
	cfg.Jitter = 2 * cfg.Grind
	a, err := advise.Mode(cfg)
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

func TestNothingHelps(t *testing.T) {
	// One customer: only shorter steps help a single customer's latte.
	cfg := config("finelocking", 2, "fifo")
	cfg.Customers = 1
	a, err := advise.Mode(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if a.Now.Bottleneck.Resource != "customers" {
		t.Errorf("limited by %q, want customers", a.Now.Bottleneck.Resource)
	}
	if a.Options[0].Change != "twice the customers" {
		t.Errorf("first %q, want twice the customers", a.Options[0].Change)
	}
}

func TestBadConfig(t *testing.T) {
	if _, err := advise.Mode(config("nonsense", 2, "fifo")); err == nil || !strings.Contains(err.Error(), "nonsense") {
		t.Errorf("unknown mode: err %v", err)
	}
	if _, err := advise.Mode(config("finelocking", 0, "fifo")); err == nil {
		t.Error("0 CPUs: no error")
	}
}

func TestBlueprint(t *testing.T) {
	b, err := blueprint.Load("../examples/cafe.yaml")
	if err != nil {
		t.Fatal(err)
	}
	opt := blueprint.DefaultOptions(4)
	opt.Sched = "fifo"
	a, err := advise.Blueprint(b, opt)
	if err != nil {
		t.Fatal(err)
	}
	if a.Now.Bottleneck.Resource != "barista" || a.Options[0].Change != "one more barista" || a.Options[0].ThroughputGain < 0.4 {
		t.Errorf("cafe on 4 CPUs: limited by %q, first %q (+%.0f %%); want the barista", a.Now.Bottleneck.Resource, a.Options[0].Change, 100*a.Options[0].ThroughputGain)
	}
	if b.Resources[1].Capacity != 2 {
		t.Errorf("advise changed the blueprint: barista capacity %d", b.Resources[1].Capacity)
	}
}
