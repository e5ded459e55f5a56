package limits

import (
	"fmt"
	"math"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
)

// Disturbed is how many CPUs' worth of other processes' time during a
// measured window, beyond the cores the point left free, makes it say
// nothing about the design: 0.2 CPU (results.DisturbedCPUs).
const Disturbed = results.DisturbedCPUs

// Disagrees is how far a measured throughput may be from the model's
// prediction of the same configuration before the point says they
// disagree: 5 %.
const Disagrees = 0.05

// Fifo is the idealized policy, which needs no calibration: the policy
// Annotate profiles with where no calibration is at hand.
func Fifo() model.Policy { return model.Policy{Sched: "fifo"} }

// Predict simulates every configuration with its causal profile: the
// points as they are, each with its Bottleneck, as many simulations at
// once as there are CPUs. The points are in the configurations' order.
func Predict(cfgs []model.Config) ([]results.Point, error) {
	ps, err := ProfileModes(cfgs)
	if err != nil {
		return nil, err
	}
	out := make([]results.Point, len(ps))
	for i, pr := range ps {
		out[i] = pr.Point()
	}
	return out, nil
}

// Point is the profiled configuration's point as it is, with the
// profile's verdict as its Bottleneck (none at depth PointsOnly).
func (pr *Profile) Point() results.Point {
	p := pr.Now
	if pr.Bottleneck.Model == "" {
		return p
	}
	b := pr.Bottleneck
	p.Bottleneck = &b
	return p
}

// Annotate gives every point of the shop that has no causal verdict yet
// (no bottleneck, or one from an older version, which names no Model) the
// bottleneck of its configuration's profile. A model point is re-simulated under its own
// policy (with policy's costs for the go policy, or under fifo where
// policy is not go); a measured one under policy (its seed 1), and its bottleneck then says how the
// measurement compares with the model's prediction — or that other
// processes took the CPU while it was measured — and gives the time its
// own machines were held and working. Lab points and YAML systems' points
// are left as they are. Points of the user's own code (a study's, a Go
// benchmark's), of which the model knows nothing, get no verdict, and
// lose any an older version gave them from their counters: they are
// described as measured (report/text's Describe), never explained. The error is the first profile that failed; the
// others are annotated all the same.
func Annotate(points []results.Point, policy model.Policy) error {
	var idx []int
	var ts []target
	for i, p := range points {
		// A verdict of this package says the model it came from, even
		// where there was no profile to be had ("unknown").
		if p.IsUserCode() {
			points[i].Bottleneck = nil
			continue
		}
		if p.Kind() == results.KindLab || (p.Bottleneck != nil && p.Bottleneck.Model != "") {
			continue
		}
		cfg, ok := model.ConfigOf(p)
		if !ok {
			continue // a YAML system's point: its file is not at hand
		}
		cfg.CPUs = max(cfg.CPUs, 1)
		switch {
		case !p.IsModel():
			cfg.Sched, cfg.Costs, cfg.Seed = policy.Sched, policy.Costs, 1
			cfg.Warmup = max(cfg.Warmup, 100*time.Millisecond)
			cfg.Duration = min(max(cfg.Duration, 500*time.Millisecond), 2*time.Second)
		case p.Sched == "go" && policy.Sched == "go":
			cfg.Sched, cfg.Costs, cfg.Runtime, cfg.Seed = "go", policy.Costs, p.Runtime, max(p.Seed, 1)
		default: // fifo, or go with costs unknown here
			cfg.Sched, cfg.Seed = "fifo", max(p.Seed, 1)
		}
		s, err := newShop(cfg)
		if err != nil { // such as noop in a closed loop, which takes no virtual time
			points[i].Bottleneck = &results.Bottleneck{Resource: "unknown", Model: ModelLabel(cfg.Sched, cfg.Costs),
				Text: "No causal profile: the model cannot simulate this configuration: " + err.Error() + "."}
			continue
		}
		idx = append(idx, i)
		ts = append(ts, s)
	}
	ps, errs := profileAll(ts)
	var first error
	for j, pr := range ps {
		if errs[j] != nil {
			if first == nil {
				first = errs[j]
			}
			continue
		}
		p := &points[idx[j]]
		b := pr.Bottleneck
		if !p.IsModel() {
			b = measured(ts[j], pr, *p)
		}
		p.Bottleneck = &b
	}
	return first
}

// measured is the bottleneck of measured point p from its configuration's
// profile pr: the model's verdict, the time p's own machines were held
// and working, and how p compares with the model's prediction.
func measured(t target, pr *Profile, p results.Point) results.Bottleneck {
	own := *pr
	own.Now.Machines, own.Now.Util = p.Machines, p.Util
	b := pr.Bottleneck
	b.Utilization, b.Working, _ = jointUsage(own.Now, b.Resources)
	b.Measured = compare(p, pr.Now)
	b.Text = words(t, &own, b) + " " + b.Measured
	return b
}

// compare says how measured point p compares with the model's prediction
// of its configuration.
func compare(p, model results.Point) string {
	if model.Throughput <= 0 {
		return ""
	}
	d := p.Throughput/model.Throughput - 1
	if p.IsDisturbed() {
		return fmt.Sprintf("Measured %.0f %s while %s of the machine's %d: disturbed, it says nothing about the design (the model gives %.0f).",
			p.Throughput, p.Unit, p.Interference(), max(p.Host.Cores, p.CPUs), model.Throughput)
	}
	if math.Abs(d) > Disagrees {
		return fmt.Sprintf("The measurement disagrees with the model: %.0f %s measured, the model gives %.0f (%s); the profile is the model's.",
			p.Throughput, p.Unit, model.Throughput, format.Gain(d))
	}
	return fmt.Sprintf("Measured %.0f %s, as the model gives (%.0f, %s).", p.Throughput, p.Unit, model.Throughput, format.Gain(d))
}

// PredictModes predicts each mode of cfgs (its first configuration) on
// every CPU count of cpus, each point with its causal profile, mode by
// mode. A mode the model cannot simulate (noop in a closed loop takes no
// time), or whose prediction fails, is left out, and skipped says why,
// one error a mode.
func PredictModes(cfgs []model.Config, cpus []int) (points []results.Point, skipped []error) {
	seen := map[coffee.Mode]bool{}
	for _, c := range cfgs {
		if seen[c.Mode] {
			continue
		}
		seen[c.Mode] = true
		var each []model.Config
		for _, n := range cpus {
			c.CPUs = n
			each = append(each, c)
		}
		predicted, err := Predict(each)
		if err != nil {
			skipped = append(skipped, fmt.Errorf("no prediction for %s: %w", c.Mode, err))
			continue
		}
		points = append(points, predicted...)
	}
	return points, skipped
}
