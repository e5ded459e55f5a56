package blueprint_test

import (
	"math"
	"testing"

	"github.com/brewput/brewput/model"
)

// TestStructureEvery: an item that runs on one order in n counts 1/n of
// its time in what an order asks of the CPU and of its resources, and
// nothing in the least an order takes; a CPU bound of one CPU is then
// what one CPU makes (an RWMutex read-locked, write-locked one op in
// 10000, whose bound was half its throughput).
func TestStructureEvery(t *testing.T) {
	b := parse(t, `
name: rw
unit: ops
resources:
  rw: {kind: rwmutex}
  log: 1
steps:
  - {name: rlock, duration: 10ns}
  - {name: runlock, duration: 10ns, shares: [rw]}
  - {name: write, duration: 20ns, holds: [rw], every: 10000}
  - name: flush
    every: 4
    holds: [log]
    steps:
      - {name: format, duration: 40ns}
      - {name: sync, duration: 40ns, every: 2}`)
	st, err := b.Structure(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-6*want {
			t.Errorf("%s: %g s, want %g", what, got, want)
		}
	}
	near("CPU an order", st.CPU, 20e-9+20e-9/10000+40e-9/4+40e-9/8)
	near("the least an order takes", st.Path, 20e-9)
	for _, r := range st.Resources {
		switch r.Name {
		case "rw":
			near("rw held", r.Hold, 20e-9/10000)
		case "log":
			near("log held", r.Hold, 40e-9/4+40e-9/8)
		}
	}
	cfg := model.SystemConfig(b, 1)
	bd, err := cfg.Bounds()
	if err != nil {
		t.Fatal(err)
	}
	near("one CPU's bound", bd.ThroughputMax, 1/st.CPU)
}
