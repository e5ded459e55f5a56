package verdict

import (
	"cmp"
	"slices"

	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// Checks holds each of a study's predicted points against its measured
// points of the same variant and CPU count, where there are any.
func Checks(points []results.Point) []analysis.Check {
	var out []analysis.Check
	for _, p := range points {
		if !p.IsModel() || p.Study == "" {
			continue
		}
		var thr []float64
		c := analysis.Check{Variant: p.Mode, CPUs: p.CPUs, Predicted: p.Throughput, Lo: p.Throughput, Hi: p.Throughput}
		if b := p.Band; b != nil {
			c.Lo, c.Hi = b.Throughput[0], b.Throughput[1]
		}
		for _, m := range points {
			if !m.IsModel() && m.Study == p.Study && m.Mode == p.Mode && m.CPUs == p.CPUs {
				thr = append(thr, m.Throughput)
				c.Disturbed = c.Disturbed || m.Disturbed
			}
		}
		if len(thr) == 0 {
			continue
		}
		c.Measured, c.Runs = results.Median(thr), len(thr)
		out = append(out, c)
	}
	return out
}

// predictionOf is the prediction among a study's points, nil where none
// is predicted.
func predictionOf(points []results.Point) *analysis.Prediction {
	var model []results.Point
	for _, p := range points {
		if p.IsModel() {
			model = append(model, p)
		}
	}
	if len(model) == 0 {
		return nil
	}
	pr := &analysis.Prediction{Sched: model[0].Sched, Calibration: model[0].Calibration, Checks: Checks(points)}
	for _, p := range model {
		pr.CPUs = max(pr.CPUs, p.CPUs)
	}
	for _, p := range model {
		if p.CPUs == pr.CPUs && !slices.ContainsFunc(pr.At, func(q analysis.Predicted) bool { return q.Variant == p.Mode }) {
			pr.At = append(pr.At, analysis.Predicted{Variant: p.Mode, Throughput: p.Throughput, Unit: p.Unit, Band: p.Band,
				Locked: p.Shop != nil && len(p.Machines) > 0})
		}
	}
	slices.SortStableFunc(pr.At, func(a, b analysis.Predicted) int { return cmp.Compare(b.Throughput, a.Throughput) })
	return pr
}
