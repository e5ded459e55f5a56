package blueprint_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
)

// TestShortHoldCaveat: a go-policy prediction of a shared mutex held a
// few tens of nanoseconds and busy most of the time, on more than one CPU,
// carries the caveat that real machines ran such locks far slower, in
// its JSON and its notes; the same lock on one CPU, under fifo, each
// customer's own, or held for microseconds carries none.
func TestShortHoldCaveat(t *testing.T) {
	const brief = `
name: brief
unit: ops
resources: {mu: 1}
steps:
  - {name: outside, duration: 1ns}
  - {name: inside, duration: 25ns, holds: [mu]}`
	costs := sim.Costs{Switch: 58, Wake: 20 * time.Microsecond, MutexHandoff: 500, MutexSpin: 700, RuntimeLock: 11,
		Transfer: sim.Transfer{Socket: 30 * time.Nanosecond}}
	for _, c := range []struct {
		name, yaml string
		cpus       int
		sched      string
		want       bool
	}{
		{"brief and busy on 2 CPUs", brief, 2, "go", true},
		{"on one CPU", brief, 1, "go", false},
		{"under fifo", brief, 2, "fifo", false},
		{"each customer's own", strings.Replace(brief, "{mu: 1}", "{mu: {kind: mutex, per: customer}}", 1), 2, "go", false},
		{"held for microseconds", strings.Replace(brief, "25ns", "5us", 1), 2, "go", false},
	} {
		b := parse(t, c.yaml)
		cfg := goAt(c.cpus)
		cfg.Policy.Sched, cfg.Costs = c.sched, costs
		cfg.Dur, cfg.Warmup = time.Millisecond, 250*time.Microsecond
		cfg.System, cfg.Mode = b, b.Name
		ps, err := model.Simulate(context.Background(), []model.Config{cfg}, nil)
		if err != nil {
			t.Fatal(err)
		}
		p := ps[0]
		got := len(p.Caveats) == 1 && p.Caveats[0].Kind == results.CaveatShortHold && p.Caveats[0].Resource == "mu"
		if got != c.want || !c.want && len(p.Caveats) > 0 {
			t.Errorf("%s: caveats %+v, want a short-hold one %v", c.name, p.Caveats, c.want)
			continue
		}
		if c.want && !strings.Contains(results.Notes(p), p.Caveats[0].Text) {
			t.Errorf("%s: notes %q lack the caveat %q", c.name, results.Notes(p), p.Caveats[0].Text)
		}
	}
}
