package blueprint_test

import (
	"fmt"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/model/sim"
)

// modes are blueprints of the coffee modes, written as a user would write
// them from the README's table of modes.
var modes = []struct {
	mode     string
	yaml     string
	machines string // "same": the model's machines, name for name; "uses": the same but for the waits; "": not comparable
}{
	{"finelocking", "", "same"}, // examples/finelocking.yaml
	{"locking", `
resources: {kitchen: 1, grinder: 1, espresso: 1, steamer: 1}
steps:
  - holds: [kitchen]
    steps:
      - {name: grind, duration: 1ms, holds: [grinder]}
      - {name: press, duration: 1ms, holds: [espresso]}
      - {name: steam, duration: 1ms, holds: [steamer]}
      - {name: combine, duration: 1ms}
`, "same"},
	{"parsteam", `
resources: {grinder: 1, espresso: 1, steamer: 1}
steps:
  - parallel:
      - - {name: grind, duration: 1ms, holds: [grinder]}
        - {name: press, duration: 1ms, holds: [espresso]}
      - {name: steam, duration: 1ms, holds: [steamer]}
  - {name: combine, duration: 1ms}
`, "same"},
	{"multi-2", `
resources: {grinder: 2, espresso: 2, steamer: 2}
steps:
  - {name: grind, duration: 1ms, holds: [grinder]}
  - {name: press, duration: 1ms, holds: [espresso]}
  - {name: steam, duration: 1ms, holds: [steamer]}
  - {name: combine, duration: 1ms}
`, ""},
	{"linearpipe-0", linearpipe(0, 1), "same"},
	{"linearpipe-1", linearpipe(1, 1), "same"},
	{"linearpipe-10", linearpipe(10, 1), "same"},
	{"multipipe-2", linearpipe(1, 2), ""},
	// The blueprint hands the milk to its line from a branch's own process,
	// at the same time as the coffee; the model's customer hands it after
	// the coffee, so its milk waits less for the steamer.
	{"splitpipe-1", "", "uses"}, // examples/splitpipe.yaml
}

func linearpipe(buffer, lines int) string {
	return fmt.Sprintf(`
steps:
  - pipeline:
      - {name: grinder, duration: 1ms}
      - {name: espresso, duration: 1ms}
      - {name: steamer, duration: 1ms}
    buffer: %d
    lines: %d
  - {name: combine, duration: 1ms}
`, buffer, lines)
}

// TestMatchesModel runs blueprints of the coffee modes, as a user writes
// them, beside the modes as the model compiles them (blueprint.Shop),
// under fifo on 1 to 8 CPUs, closed and open loop: the throughput, every
// latency percentile, the drops, the CPU utilization and the bounds must
// be the same, and the machines too where the file has the mode's
// (multi-2 and multipipe-2 read a pool where the mode reads each copy).
func TestMatchesModel(t *testing.T) {
	for _, m := range modes {
		t.Run(m.mode, func(t *testing.T) {
			t.Parallel()
			matchModel(t, m.mode, m.yaml, m.machines)
		})
	}
}

// matchModel compares one mode's blueprint with the mode.
func matchModel(t *testing.T, mode, yaml, machines string) {
	var b *blueprint.Blueprint
	switch mode {
	case "finelocking":
		b = load(t, "finelocking")
	case "splitpipe-1":
		b = load(t, "splitpipe")
	default:
		var err error
		if b, err = blueprint.Parse(mode+".yaml", []byte(yaml)); err != nil {
			t.Fatal(err)
		}
	}
	b.Load.Queue = 10
	for n := 1; n <= 8; n++ {
		for _, rate := range []float64{0, 800} {
			cfg := model.DefaultConfig(n)
			cfg.Mode, cfg.Policy.Sched, cfg.Rate, cfg.MaxQ = mode, "fifo", rate, 10
			want, err := simulateConfig(cfg)
			if err != nil {
				t.Fatal(err)
			}
			opt := fifo(n)
			opt.Rate = rate
			got, err := simulate(b, opt)
			if err != nil {
				t.Fatal(err)
			}
			compare(t, fmt.Sprintf("%s, %d CPUs, rate %v", mode, n, rate), got, want, machines, 0)
		}
	}
}

// compare reports where a blueprint's result differs from the model's,
// the machines compared as machines says and their busy fractions within
// busyTol. The resources' names in the bounds differ with the machines'.
func compare(t *testing.T, where string, got, want result, machines string, busyTol float64) {
	t.Helper()
	switch machines {
	case "":
		got.Machines, want.Machines = nil, nil
		got.Bounds.Resource, want.Bounds.Resource = "", ""
		switch want.Bounds.Limit {
		case "cpus", "customers", "servers", "arrivals":
		default:
			got.Bounds.Limit, want.Bounds.Limit = "", ""
		}
	case "uses":
		for i := range min(len(got.Machines), len(want.Machines)) {
			got.Machines[i].MeanWait, want.Machines[i].MeanWait = 0, 0
		}
	}
	if len(got.Machines) == len(want.Machines) {
		for i := range got.Machines {
			// A point's working fraction is capped at its busy one.
			g, w := &got.Machines[i], want.Machines[i]
			if math.Abs(g.BusyFrac-w.BusyFrac) <= busyTol && math.Abs(g.WorkingFrac-w.WorkingFrac) <= busyTol {
				g.BusyFrac, g.WorkingFrac = w.BusyFrac, w.WorkingFrac
			}
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: the blueprint gives\n%+v\nthe model\n%+v", where, got, want)
	}
}

// TestMatchesModelJitter runs finelocking with random steps beside the
// mode with jitter, under fifo and under the go policy with costs. The
// model's jitter J draws each machine step uniformly from [d−J/2, d+J/2],
// which is the blueprint's {uniform: [0.9ms, 1.1ms]} for J = 200 µs; the
// blueprint draws from the same seeded source, in the same order, and
// calls the same primitives in the same order, so every draw and every
// cost of the policy falls alike. The model meters a machine's busy time
// when each use ends, the blueprint as it passes, so the two differ by the
// uses in progress at the window's edges: at most 2 ms of 1 s.
func TestMatchesModelJitter(t *testing.T) {
	b, err := blueprint.Parse("jitter.yaml", []byte(`
resources: {grinder: 1, espresso: 1, steamer: 1}
steps:
  - {name: grind, duration: {uniform: [0.9ms, 1.1ms]}, holds: [grinder]}
  - {name: press, duration: {uniform: [0.9ms, 1.1ms]}, holds: [espresso]}
  - {name: steam, duration: {uniform: [0.9ms, 1.1ms]}, holds: [steamer]}
  - {name: combine, duration: 1ms}
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, sched := range []string{"fifo", "go"} {
		for n := 1; n <= 8; n++ {
			cfg := model.DefaultConfig(n)
			cfg.Policy.Sched, cfg.Steps.Jitter = sched, 200*time.Microsecond
			if sched == "go" {
				cfg.Costs.Switch, cfg.Costs.Wake, cfg.Costs.MutexHandoff = 2*time.Microsecond, 5*time.Microsecond, time.Microsecond
			}
			want, err := simulateConfig(cfg)
			if err != nil {
				t.Fatal(err)
			}
			opt := goAt(n)
			opt.Policy.Sched, opt.Costs = sched, cfg.Costs
			got, err := simulate(b, opt)
			if err != nil {
				t.Fatal(err)
			}
			compare(t, fmt.Sprintf("finelocking with jitter under %s, %d CPUs", sched, n), got, want, "same", 0.002)
		}
	}
}

// TestFinelockingFileIsTheMode: examples/finelocking.yaml (clock: wall) is
// the mode `brewput model --modes finelocking` simulates with its --burn
// wall default, point for point on 2 to 8 CPUs under fifo and under the go
// policy with costs of a calibration's size, a core slowed to 88 % while
// all run (which would lengthen steps that are work, a file's default):
// the same lattes, latencies to the nanosecond and bounds. Only the machines'
// busy time differs, by the uses in progress at the window's edges, which
// the mode meters whole when they end.
func TestFinelockingFileIsTheMode(t *testing.T) {
	b := load(t, "finelocking")
	costs := sim.Costs{Wake: 28 * time.Microsecond, SpinWake: 19 * time.Microsecond, Switch: 80, MutexHandoff: 2500,
		ChanHandoff: 2600, BufChanHandoff: 3000, RunnextGrace: 78 * time.Microsecond, MutexSpin: 740, RuntimeLock: 11, Transfer: sim.Transfer{Socket: 14}, AllCore: 0.88}
	for _, sched := range []string{"fifo", "go"} {
		for n := 2; n <= 8; n++ {
			cfg := model.DefaultConfig(n)
			cfg.Policy.Sched, cfg.Policy.Burn, cfg.Costs = sched, "wall", costs
			want, err := simulateConfig(cfg)
			if err != nil {
				t.Fatal(err)
			}
			opt := goAt(n)
			opt.Policy.Sched, opt.Costs = sched, costs
			got := run(t, b, opt)
			if sched == "go" && n >= 4 && want.Throughput > 990 {
				t.Errorf("go policy, %d CPUs: the mode makes %v lattes/s; want the costs to cost", n, want.Throughput)
			}
			compare(t, fmt.Sprintf("finelocking under %s, %d CPUs", sched, n), got, want, "same", 0.002)
		}
	}
}
