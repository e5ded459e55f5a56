package model

import (
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/model/sim"
)

// TestStepsAsCoroutines: under fifo a closed loop's customers run as steps
// (blueprint.Order) where the system is steps and groups holding mutexes,
// and give what they give as coroutines, to the event: the shop's modes
// with jitter and start delays, more customers than CPUs, and systems of
// every kind of step, group and resource a step can wait for. Those that
// cannot run as steps (a pipeline, a pooled or read-write resource) are
// checked to run as coroutines.
func TestStepsAsCoroutines(t *testing.T) {
	var cfgs []Config
	for _, mode := range []string{"ideal", "locking", "finelocking", "parsteam", "multi-2", "linearpipe-1"} {
		for _, cpus := range []int{1, 3, 8} {
			cfg := talk(mode, cpus)
			cfg.Dur = 300 * ms
			cfgs = append(cfgs, cfg)
			more := cfg
			more.Par, more.Phase, more.Steps.Jitter = 2*cpus+1, 2, 300*time.Microsecond
			cfgs = append(cfgs, more)
		}
	}
	yamls := []string{`
resources: {kitchen: 1, grinder: 1, till: 1}
steps:
  - {name: order, duration: {uniform: [100us, 300us]}, holds: [till]}
  - name: make
    holds: [kitchen]
    steps:
      - {name: grind, duration: 400us, holds: [grinder]}
      - {name: wait, duration: 200us, cpu: false}
      - {name: descale, duration: 2ms, every: 5}
  - {name: pay, duration: 0s}
  - {name: rest, duration: {exponential: 300us}, cpu: false}`, `
resources: {shards: {locks: 4}, own: {kind: mutex, per: customer}, mine: {kind: mutex, per: cpu}, n: {kind: word, per: cpu, hashed: true}}
steps:
  - {name: a, duration: 300us, holds: [shards], writes: [n]}
  - {name: b, duration: 200us, holds: [own, mine], reads: [n]}
  - {name: c, every: 3, steps: [{name: d, duration: 50us, holds: [shards]}, {name: e, duration: 100us}]}`}
	systems := []*blueprint.Blueprint{}
	for _, y := range yamls {
		b, err := blueprint.Parse("steps.yaml", []byte(y))
		if err != nil {
			t.Fatal(err)
		}
		systems = append(systems, b)
	}
	files, _ := filepath.Glob("../examples/*.yaml")
	for _, f := range files {
		b, err := blueprint.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		systems = append(systems, b)
	}
	for _, b := range systems {
		for _, cpus := range []int{1, 4} {
			cfg := SystemConfig(b, cpus)
			cfg.Policy.Sched, cfg.Dur = "fifo", 300*ms
			if b.Load.Rate == 0 {
				cfgs = append(cfgs, cfg)
			}
		}
	}
	asSteps := 0
	for _, cfg := range cfgs {
		name := cfg.Mode
		if cfg.System != nil {
			name = cfg.System.Name
		}
		if stepsOf(cfg) {
			asSteps++
		}
		got := run(t, cfg)
		co := cfg
		co.coroutines = true
		if want := run(t, co); !reflect.DeepEqual(got, want) {
			t.Errorf("%s on %d CPUs, %d customers: as steps %+v\nas coroutines %+v", name, cfg.CPUs, cfg.Par, got, want)
		}
	}
	if asSteps < len(cfgs)/2 {
		t.Errorf("%d of %d configurations ran as steps", asSteps, len(cfgs))
	}
	for _, c := range []struct {
		mode  string
		steps bool
	}{{"finelocking", true}, {"locking", true}, {"multi-2", false}, {"linearpipe-1", false}, {"parsteam", false}} {
		if got := stepsOf(talk(c.mode, 2)); got != c.steps {
			t.Errorf("%s runs as steps: %v, want %v", c.mode, got, c.steps)
		}
	}
}

// stepsOf reports whether cfg's system builds an Order for its customers.
func stepsOf(cfg Config) bool {
	mode, _ := coffee.ParseMode(cfg.Mode)
	s := sim.New(1)
	defer s.Stop()
	_, _, order := cfg.system(mode).Build(s, sim.NewCPUs(s, cfg.CPUs), blueprint.Run{Customers: 1})
	return order != nil
}
