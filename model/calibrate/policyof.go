package calibrate

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
)

// CostsOf reads back the costs a calibration's Ref names: each cost's
// median, in the order Rows lists them, with any given as flags already
// in place. It is Ref's inverse for the costs, exact to the nanosecond.
func CostsOf(ref results.Calibration) (sim.Costs, error) {
	var c sim.Costs
	line, _, _ := strings.Cut(ref.Costs, "; given as flags: ")
	rest := line
	for i, n := range costs {
		if rest == "" && n.flag == "mutex-spin" {
			break // named before Lock's spin was measured: it never spun
		}
		after, ok := strings.CutPrefix(rest, n.name+" ")
		if !ok {
			return sim.Costs{}, fmt.Errorf("calibration %q: want %q at %q", ref.Costs, n.name, rest)
		}
		end := strings.IndexAny(after, " ,")
		if end < 0 {
			end = len(after)
		}
		d, err := time.ParseDuration(after[:end])
		if err != nil {
			return sim.Costs{}, fmt.Errorf("calibration %q: %s: %w", ref.Costs, n.name, err)
		}
		*Field(&c, n.flag) = d
		rest = after[end:]
		if strings.HasPrefix(rest, " [") {
			shut := strings.IndexByte(rest, ']')
			if shut < 0 {
				return sim.Costs{}, fmt.Errorf("calibration %q: %s's interval is not closed", ref.Costs, n.name)
			}
			rest = rest[shut+1:]
		}
		if i < len(costs)-1 && rest != "" {
			if rest, ok = strings.CutPrefix(rest, ", "); !ok {
				return sim.Costs{}, fmt.Errorf("calibration %q: want \", \" after %s", ref.Costs, n.name)
			}
		}
	}
	if rest != "" {
		return sim.Costs{}, fmt.Errorf("calibration %q: %q after the costs", ref.Costs, rest)
	}
	return c, nil
}

// PolicyOf is the policy a prediction was made under, read back from its
// point: the scheduling policy, seed and runtime, other processes'
// demand, and under the go policy the costs its calibration names
// (CostsOf). Simulating the point's configuration (model.ConfigOf) under
// it gives the point again. A measured point, or a go prediction that
// names no calibration, has none.
func PolicyOf(p results.Point) (model.Policy, error) {
	if p.Kind() != results.KindModel {
		return model.Policy{}, fmt.Errorf("%s on %d CPUs: a measured point, not a prediction", p.Mode, p.CPUs)
	}
	pol := model.Policy{Policy: results.Policy{Sched: p.Model.Sched, Seed: p.Model.Seed, Runtime: p.Model.Runtime}}
	if pol.Sched == "" {
		pol.Sched = model.DefaultSched
	}
	if pol.Sched != "go" {
		return pol, nil
	}
	if p.Model.Calibration == nil {
		return model.Policy{}, fmt.Errorf("%s on %d CPUs: a go prediction that names no calibration", p.Mode, p.CPUs)
	}
	c, err := CostsOf(*p.Model.Calibration)
	if err != nil {
		return model.Policy{}, err
	}
	pol.Costs = c
	pol.Background = results.Background{CPUs: p.Model.BackgroundCPUs, Burst: time.Duration(math.Round(p.Model.BackgroundBurstMs * float64(time.Millisecond)))}
	return pol, nil
}
