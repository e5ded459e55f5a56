package limits

import (
	"context"
	"math"
	"testing"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
)

// modelPoint simulates mode on cpus under the fifo policy, the talk's
// shop with every step 1 ms.
func modelPoint(t *testing.T, mode string, cpus int) results.Point {
	t.Helper()
	cfg := model.DefaultConfig(cpus)
	cfg.Mode, cfg.Policy.Sched = mode, "fifo"
	ps, err := model.Simulate(context.Background(), []model.Config{cfg}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ps[0]
}

func nearRel(got, want, tol float64) bool { return math.Abs(got-want) <= tol*want }

// usage reads the CPUs' and each kind of machine's time held and working,
// copies as one pool, and the bound of the model's structure.
func TestUsage(t *testing.T) {
	p := modelPoint(t, "finelocking", 6)
	if _, _, bound := usage(p, "cpus"); !nearRel(bound, 1500, 0.001) {
		t.Errorf("finelocking on 6 CPUs: the CPUs' bound %g, want 1500", bound)
	}
	if held, working, bound := usage(p, "grinder"); !nearRel(bound, 1000, 0.001) || !nearRel(held, 1, 0.01) || !nearRel(working, 1, 0.01) {
		t.Errorf("finelocking on 6 CPUs: the grinder held %g, working %g, bound %g", held, working, bound)
	}
	if held, working, _ := usage(modelPoint(t, "parsteam", 2), "espresso"); held < 0.9 || working > 0.55 {
		t.Errorf("parsteam on 2 CPUs: espresso held %g, working %g; want held nearly always and working half the time", held, working)
	}
	if _, _, bound := usage(modelPoint(t, "multi-2", 4), "grinder"); !nearRel(bound, 2000, 0.001) {
		t.Errorf("multi-2: the 2 grinders' bound %g, want 2000", bound)
	}
	// ideal's structure holds no machine: no bound.
	if _, _, bound := usage(modelPoint(t, "ideal", 2), "grinder"); bound != 0 {
		t.Errorf("ideal: the grinder's bound %g, want none", bound)
	}
	// Unknown to the model (a YAML system): the empirical bound.
	p = results.Point{Spec: results.Spec{Mode: "cafe"}, Throughput: 1900, Metrics: map[results.Metric]float64{results.Util: 0.5}, Shop: &results.Shop{Machines: []results.Machine{{Name: "barista", Uses: 10, BusyFrac: 0.95}}}}
	if _, _, bound := usage(p, "barista"); !nearRel(bound, 2000, 0.001) {
		t.Errorf("unknown mode: the barista's bound %g, want 2000", bound)
	}
}
