package verdict

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// LimitOf classifies a point's bottleneck.
func LimitOf(b *results.Bottleneck) analysis.Limit {
	if b == nil || b.Resource == "" {
		return analysis.Limit{Class: "unknown", Of: results.Named{Resource: "unknown"}}
	}
	l := analysis.Limit{Gain: b.Gain}
	switch {
	case b.Combined != nil:
		l.Change, l.Combined = b.Combined, true
	default:
		if top, ok := b.Top(); ok {
			l.Change = &top
		} else if len(b.Recommend) > 0 { // a file written before Tier
			l.Change = &results.Experiment{Change: b.Recommend[0]}
		}
	}
	var machines []string
	cpus, customers, other := false, false, ""
	for _, r := range resources(b) {
		switch {
		case r == "cpus":
			cpus = true
		case r == "customers" || r == "servers":
			customers = true
		case strings.HasPrefix(r, "channel:"):
			other = cmp.Or(other, "channel")
		case strings.HasPrefix(r, "step:"):
			other = cmp.Or(other, "step")
		case r == "none" || r == "arrivals":
			other = cmp.Or(other, "none")
		case r == "unknown":
			other = cmp.Or(other, "unknown")
		default:
			machines = collect.AppendNew(machines, analysis.Kind(r))
		}
	}
	l.With = len(machines) > 0 && (cpus || customers)
	switch {
	case len(machines) > 1:
		l.Class = "machines"
	case len(machines) == 1:
		l.Class = machines[0]
	case cpus:
		l.Class = "cpus"
	case customers:
		l.Class = "customers"
	case other != "":
		l.Class = other
	default:
		l.Class = "unknown"
	}
	// The name is the profile's own; the class only colours the map.
	l.Of = b.Names()
	if l.Class == "unknown" {
		l.Of = results.Named{Resource: "unknown"}
	}
	return l
}

// NewGrid lays out the shop's points as modes by CPU counts: of each mode
// the first series measured and the first predicted, so that a cell
// compares like with like, repetitions reduced to medians.
func NewGrid(points []results.Point) *analysis.Grid {
	g := &analysis.Grid{}
	type cellKey struct {
		mode string
		cpus int
	}
	type series struct {
		mode  string
		model bool
	}
	first := map[series]string{}
	groups := map[cellKey][2][]int{}
	var keys []cellKey
	for i, p := range points {
		if p.Kind == results.KindLab || p.IsUserCode() {
			continue
		}
		s, id := series{p.Mode, p.IsModel()}, seriesID(p)
		if f, ok := first[s]; ok && f != id {
			continue
		}
		first[s] = id
		g.Modes = collect.AppendNew(g.Modes, p.Mode)
		g.CPUs = collect.AppendNew(g.CPUs, p.CPUs)
		k := cellKey{p.Mode, p.CPUs}
		gr, ok := groups[k]
		if !ok {
			keys = append(keys, k)
		}
		if p.IsModel() {
			gr[1] = append(gr[1], i)
		} else {
			gr[0] = append(gr[0], i)
		}
		groups[k] = gr
	}
	slices.Sort(g.CPUs)
	for _, k := range keys {
		gr := groups[k]
		g.Cells = append(g.Cells, analysis.Cell{Mode: k.mode, CPUs: k.cpus, Measured: entry(points, gr[0]), Model: entry(points, gr[1])})
	}
	return g
}

// seriesID names what a point's series shares: its source (machine or
// policy) and its load, one customer per CPU counting as one load.
func seriesID(p results.Point) string {
	par := p.Par
	if p.Par == p.CPUs {
		par = -1
	}
	src := p.Origin()
	if p.IsModel() {
		src = "model " + p.Sched
	}
	return fmt.Sprintf("%s|%d|%g|%d|%s", src, par, p.Rate, p.MaxQ, p.Harness)
}

// entry reduces a cell's points of one kind, points[i] for i in idx.
func entry(points []results.Point, idx []int) *analysis.Entry {
	if len(idx) == 0 {
		return nil
	}
	first := idx[0]
	for _, i := range idx {
		if r := points[i].Rep; r > 0 && (points[first].Rep == 0 || r < points[first].Rep) {
			first = i
		}
	}
	p0 := points[first]
	e := &analysis.Entry{Model: p0.IsModel(), Unit: p0.Unit, Reps: len(idx), First: first, Limit: LimitOf(p0.Bottleneck),
		Rate: p0.Rate, Sched: p0.Sched}
	if e.Model {
		if b := p0.Band; b != nil {
			e.Band = &[2]float64{b.Throughput[0], b.Throughput[1]}
		}
		e.Source = results.OriginLabel(p0)
		e.Calibration, e.Caveats = p0.Calibration, p0.Caveats
	} else {
		e.Source, e.Host = "measured", p0.Origin()
	}
	ps := make([]results.Point, len(idx))
	for j, i := range idx {
		ps[j] = points[i]
		if measuredDisturbed(points[i]) {
			e.Disturbed++
		}
	}
	e.Throughput, e.P50, e.P99, e.Util = median(ps, throughput), median(ps, p50), median(ps, p99), median(ps, util)
	return e
}

// measuredDisturbed reports whether p was measured and disturbed.
func measuredDisturbed(p results.Point) bool { return !p.IsModel() && p.IsDisturbed() }
