package verdict

import (
	"reflect"
	"slices"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// Ranges summarizes the shop's measured points and, apart, its
// predictions; modes says which modes race (nil: none).
func Ranges(points []results.Point, modes results.Modes) []analysis.Ranges {
	var measured, model []results.Point
	for _, p := range points {
		switch {
		case p.Kind == results.KindLab || p.IsUserCode():
		case p.IsModel():
			model = append(model, p)
		default:
			measured = append(measured, p)
		}
	}
	var out []analysis.Ranges
	for _, ps := range [][]results.Point{measured, model} {
		if len(ps) > 0 {
			out = append(out, ranges(ps, modes))
		}
	}
	return out
}

// ranges is Ranges of points all measured or all predicted.
func ranges(points []results.Point, modes results.Modes) analysis.Ranges {
	type modeSeries struct{ mode, id string }
	keys, groups := collect.GroupBy(points, func(p results.Point) (modeSeries, bool) { return modeSeries{p.Mode, seriesID(p)}, true })
	ids := map[string][]string{} // a mode's series
	var scheds []string
	t := analysis.Ranges{Model: points[0].IsModel(), Points: len(points)}
	for _, k := range keys {
		ids[k.mode] = append(ids[k.mode], k.id)
	}
	for _, p := range points {
		t.Hosts = collect.AppendNew(t.Hosts, p.Origin())
		scheds = collect.AppendNew(scheds, p.Sched)
		if c := p.Calibration; c != nil && !slices.ContainsFunc(t.Calibrations, func(d results.Calibration) bool { return reflect.DeepEqual(d, *c) }) {
			t.Calibrations = append(t.Calibrations, *c)
		}
		t.Reps = t.Reps || p.Rep > 1
	}
	if len(scheds) == 1 {
		t.Sched = scheds[0]
	}
	for _, k := range keys {
		p0 := groups[k][0]
		row := analysis.RangeRow{Mode: k.mode, Races: Races(modes, k.mode), Unit: p0.Unit,
			Series: len(ids[k.mode]) > 1, Policies: len(scheds) > 1}
		if row.Series || p0.Rate > 0 || p0.Harness != "" {
			row.Load = &analysis.RowLoad{Sched: p0.Sched, Rate: p0.Rate, Par: p0.Par, PerCPU: p0.Par == p0.CPUs, Harness: p0.Harness}
		}
		if row.Series && !t.Model && len(t.Hosts) > 1 {
			row.Host = p0.Origin()
		}
		grid := NewGrid(groups[k])
		var at []spanPoint
		for _, n := range grid.CPUs {
			c, _ := grid.At(k.mode, n)
			e := c.Shown()
			row.Cells = append(row.Cells, analysis.RangeCell{CPUs: n, Throughput: e.Throughput, P50: e.P50, Reps: e.Reps, Disturbed: e.Disturbed})
			at = append(at, spanPointOf(groups[k][e.First]))
		}
		row.Limits = limitSpans(at)
		t.Rows = append(t.Rows, row)
	}
	return t
}

// StudyTable summarizes the studies' measured points; nil where none.
func StudyTable(points []results.Point) *analysis.StudyTable {
	type key struct {
		study, variant, id string
		cpus               int
	}
	keys, by := collect.GroupBy(points, func(p results.Point) (key, bool) {
		return key{p.StudyName(), p.Mode, seriesID(p), p.CPUs}, p.Kind == results.KindStudy && !p.IsModel()
	})
	if len(keys) == 0 {
		return nil
	}
	t := &analysis.StudyTable{}
	type at struct {
		study, id string
		cpus      int
	}
	most := map[at]float64{}
	for _, k := range keys {
		a := at{k.study, k.id, k.cpus}
		most[a] = max(most[a], median(by[k], throughput))
	}
	for _, k := range keys {
		ps := by[k]
		p := ps[0]
		row := analysis.StudyRow{Variant: p.Mode, CPUs: p.CPUs, Par: p.Par, Runs: len(ps), Rate: p.Rate, Unit: p.Unit,
			Throughput: median(ps, throughput), Meter: results.BusiestMeter(p), Origin: p.Origin(),
			P50: median(ps, p50), P99: median(ps, p99), Util: median(ps, util)}
		t.Points, t.Open = t.Points+len(ps), t.Open || p.Rate > 0
		t.Hosts, t.Studies = collect.AppendNew(t.Hosts, p.Origin()), collect.AppendNew(t.Studies, k.study)
		for _, q := range ps {
			row.Drops += int64(q.Metrics[results.Drops])
			t.Reps = t.Reps || q.Rep > 0
		}
		if m := most[at{k.study, k.id, k.cpus}]; m > 0 {
			row.Share = row.Throughput / m
		}
		if d, ok := disturbedRuns(p.Mode, ps); ok {
			d.CPUs = p.CPUs
			t.Disturbed = append(t.Disturbed, d)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}
