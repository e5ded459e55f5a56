package verdict

import (
	"cmp"
	"slices"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// Studies describes each study among points, in the order they first
// come, from the first series each variant was measured in.
func Studies(points []results.Point) []analysis.Described {
	names, by := collect.GroupBy(points, func(p results.Point) (string, bool) { return p.StudyName(), p.Kind == results.KindStudy })
	var out []analysis.Described
	for _, n := range names {
		if d, ok := describe(n, by[n]); ok {
			out = append(out, d)
		}
	}
	return out
}

// studyCount is how a study's command line spells the count of runs.
const studyCount = "--count"

func describe(study string, points []results.Point) (analysis.Described, bool) {
	d := analysis.Described{Study: study, Unit: points[0].Unit, Prediction: predictionOf(points)}
	var variants []string
	var counts []int
	first := map[string]string{}
	type key struct {
		variant string
		cpus    int
	}
	group := map[key][]results.Point{}
	for _, p := range points {
		if p.IsModel() {
			continue
		}
		id := seriesID(p)
		if f, ok := first[p.Mode]; !ok {
			first[p.Mode] = id
		} else if f != id {
			continue
		}
		variants = collect.AppendNew(variants, p.Mode)
		counts = collect.AppendNew(counts, p.CPUs)
		group[key{p.Mode, p.CPUs}] = append(group[key{p.Mode, p.CPUs}], p)
	}
	if len(counts) == 0 {
		return d, d.Prediction != nil
	}
	slices.Sort(counts)
	at := func(v string, n int) []results.Point { return group[key{v, n}] }
	for _, n := range countsOfInterest(counts) {
		var ss []series
		hosts := ""
		for _, v := range variants {
			if ps := at(v, n); len(ps) > 0 {
				ss = append(ss, series{v, ps})
				hosts = cmp.Or(hosts, ps[0].Origin())
			}
		}
		d.Counts = append(d.Counts, standing(n, hosts, d.Unit, studyCount, ss))
	}
	if len(counts) > 1 {
		d.Scaling = scalingFrom(counts[0], counts[len(counts)-1], variants, studyCount, at)
	}
	return d, true
}

// Checks holds each of a study's predicted points against its measured
// points of the same variant and CPU count.
func Checks(points []results.Point) []analysis.Check {
	var out []analysis.Check
	for _, p := range points {
		if !p.IsModel() || p.StudyName() == "" {
			continue
		}
		var thr []float64
		c := analysis.Check{Variant: p.Mode, CPUs: p.CPUs, Predicted: p.Throughput, Lo: p.Throughput, Hi: p.Throughput}
		if b := p.Band; b != nil {
			c.Lo, c.Hi = b.Throughput[0], b.Throughput[1]
		}
		for _, m := range points {
			if !m.IsModel() && m.StudyName() == p.StudyName() && m.Mode == p.Mode && m.CPUs == p.CPUs {
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

// predictionOf is the prediction among a study's points, nil for none.
func predictionOf(points []results.Point) *analysis.Prediction {
	var model []results.Point
	cpus := 0
	for _, p := range points {
		if p.IsModel() {
			model, cpus = append(model, p), max(cpus, p.CPUs)
		}
	}
	if len(model) == 0 {
		return nil
	}
	pr := &analysis.Prediction{Sched: model[0].Sched, Calibration: model[0].Calibration, Checks: Checks(points), CPUs: cpus}
	for _, p := range model {
		if p.CPUs == pr.CPUs && !slices.ContainsFunc(pr.At, func(q analysis.Predicted) bool { return q.Variant == p.Mode }) {
			pr.At = append(pr.At, analysis.Predicted{Variant: p.Mode, Throughput: p.Throughput, Unit: p.Unit, Band: p.Band,
				Locked: len(p.Machines()) > 0, Caveats: p.Caveats})
		}
	}
	slices.SortStableFunc(pr.At, func(a, b analysis.Predicted) int { return cmp.Compare(b.Throughput, a.Throughput) })
	return pr
}
