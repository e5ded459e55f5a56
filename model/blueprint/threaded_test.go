package blueprint_test

import (
	"context"
	"testing"
	"time"

	"github.com/brewput/brewput/model"
)

// TestBandThreaded: an unknown machine's CPUs may be hardware threads, two
// to a core (model.Hardware.Threaded): the band's slow edge also runs the
// point on such a machine, where two Ps busy on one core each run at
// about 0.62 of a core's speed. Customers that share nothing, on 8 CPUs:
// the band reaches down to about 0.62 of its point, and stays at it
// without the threads.
func TestBandThreaded(t *testing.T) {
	b := parse(t, `
steps:
  - {name: work, duration: 1us}`)
	for _, threaded := range []bool{false, true} {
		cfg := goAt(8)
		cfg.Range = &model.Range{Lo: cfg.Costs, Hi: cfg.Costs, Machine: &model.MachineRange{FastAll: 1, SlowAll: 1, Threaded: threaded}}
		cfg.Dur, cfg.Warmup = time.Millisecond, 100*time.Microsecond
		cfg.System, cfg.Mode = b, b.Name
		ps, err := model.Simulate(context.Background(), []model.Config{cfg}, nil)
		if err != nil {
			t.Fatal(err)
		}
		p := ps[0]
		if p.Band == nil {
			t.Fatalf("threaded %v: no band", threaded)
		}
		lo := p.Band.Throughput[0] / p.Throughput
		switch {
		case threaded && (lo < 0.55 || lo > 0.7):
			t.Errorf("threaded: the band's low edge %.3f of the point, want about 0.62", lo)
		case !threaded && lo < 0.99:
			t.Errorf("not threaded: the band's low edge %.3f of the point, want 1", lo)
		}
	}
}
