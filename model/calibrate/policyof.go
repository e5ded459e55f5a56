package calibrate

import (
	"fmt"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
)

// CostsOf is Ref's inverse for the costs: each cost's median, to the
// nanosecond; one ref does not name is 0 (an older calibration's Lock
// never spun).
func CostsOf(ref results.Calibration) (sim.Costs, error) {
	var c sim.Costs
	for _, k := range ref.Costs {
		d := Field(&c, k.Flag())
		if d == nil {
			return sim.Costs{}, fmt.Errorf("calibration %s: no cost %q", ref.For(), k.Name)
		}
		*d = k.Median
	}
	return c, nil
}

// PolicyOf is the policy model point p was made under, read back (its
// calibration's costs by CostsOf): simulating model.ConfigOf(p) under it
// gives p again. A measured point, or a go one naming no calibration, has
// none.
func PolicyOf(p results.Point) (model.Policy, error) {
	if p.Kind != results.KindShop || !p.IsModel() {
		return model.Policy{}, fmt.Errorf("%s on %d CPUs: a measured point, not a prediction", p.Mode, p.CPUs)
	}
	pol := model.Policy{Policy: results.Policy{Sched: p.Sched, Seed: p.Seed, Runtime: p.Runtime}}
	if pol.Sched == "" {
		pol.Sched = model.DefaultSched
	}
	if pol.Sched != "go" {
		return pol, nil
	}
	if p.Calibration == nil {
		return model.Policy{}, fmt.Errorf("%s on %d CPUs: a go prediction that names no calibration", p.Mode, p.CPUs)
	}
	c, err := CostsOf(*p.Calibration)
	if err != nil {
		return model.Policy{}, err
	}
	pol.Costs = c
	pol.Background = p.Background
	return pol, nil
}
