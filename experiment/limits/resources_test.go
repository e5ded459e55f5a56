package limits_test

import (
	"context"
	"math"
	"testing"

	"github.com/brewput/brewput/experiment/limits"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
)

// modelPoint simulates mode on cpus under the fifo policy, the talk's
// shop with every step 1 ms.
func modelPoint(t *testing.T, mode string, cpus int, edit func(*model.Config)) results.Point {
	t.Helper()
	cfg := model.DefaultConfig(cpus)
	cfg.Mode, cfg.Policy.Sched = mode, "fifo"
	if edit != nil {
		edit(&cfg)
	}
	ps, err := model.Simulate(context.Background(), []model.Config{cfg}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ps[0]
}

func nearRel(got, want, tol float64) bool { return math.Abs(got-want) <= tol*want }

// Resources lists the CPUs and each kind of machine the mode holds, copies
// as one pool, with the time held and working and the bound of the
// model's structure.
func TestResources(t *testing.T) {
	rs := limits.Resources(modelPoint(t, "finelocking", 6, nil))
	if len(rs) != 4 || rs[0].Name != "cpus" || rs[1].Name != "grinder" {
		t.Fatalf("finelocking: %+v", rs)
	}
	if !nearRel(rs[0].Bound, 1500, 0.001) || !nearRel(rs[1].Bound, 1000, 0.001) || !nearRel(rs[1].Utilization, 1, 0.01) || !nearRel(rs[1].Working, 1, 0.01) {
		t.Errorf("finelocking on 6 CPUs: %+v", rs)
	}
	rs = limits.Resources(modelPoint(t, "parsteam", 2, nil))
	if es := rs[2]; es.Name != "espresso" || es.Utilization < 0.9 || es.Working > 0.55 {
		t.Errorf("parsteam on 2 CPUs: espresso %+v, want held nearly always and working half the time", es)
	}
	rs = limits.Resources(modelPoint(t, "multi-2", 4, nil))
	if rs[1].Name != "grinder" || rs[1].Copies != 2 || !nearRel(rs[1].Bound, 2000, 0.001) {
		t.Errorf("multi-2: %+v", rs[1])
	}
	// ideal holds nothing: only the CPUs.
	if rs := limits.Resources(modelPoint(t, "ideal", 2, nil)); len(rs) != 1 {
		t.Errorf("ideal: %+v", rs)
	}
	// Unknown to the model (a YAML system): the empirical bound.
	p := results.Point{Spec: results.Spec{Mode: "cafe"}, Throughput: 1900, Metrics: map[results.Metric]float64{results.Util: 0.5}, Shop: &results.Shop{Machines: []results.Machine{{Name: "barista", Uses: 10, BusyFrac: 0.95}}}}
	if rs := limits.Resources(p); len(rs) != 2 || !nearRel(rs[1].Bound, 2000, 0.001) {
		t.Errorf("unknown mode: %+v", rs)
	}
}
