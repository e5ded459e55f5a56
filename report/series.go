package report

import (
	"cmp"
	"image/color"
	"slices"
	"strconv"
	"strings"

	"github.com/brewput/brewput/report/palette"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// load is a point's offered load: points differing only in it are
// different series.
type load struct {
	Par  int // customers or servers, or perCPU
	Rate float64
	MaxQ int
}

// perCPU is load.Par of a series run with a customer per CPU (--par 0),
// whose points record Par as CPUs; keyed by Par, it would split a point
// per CPU count.
const perCPU = -1

// seriesKey is a series: one mode, measured on one machine or predicted
// under one policy, under one load.
type seriesKey struct {
	// Origin is results.Point.Origin; Model tells the model from a host of
	// that name.
	Origin string
	Model  bool
	Sched  string // the model's scheduling policy
	Mode   string
	Load   load
}

// sample is a series at one CPU count, each value the repetitions' median.
type sample struct {
	CPUs       int
	Reps       int
	Throughput float64
	Latency    results.Latency
	// Band spans the repetitions' bands; nil where they have none.
	Band *results.Band
	// Disturbed crosses the marker (results.Point.IsDisturbed).
	Disturbed bool
}

// series is a line on the charts against CPUs, a box on the distribution.
type series struct {
	seriesKey
	Label  string
	Unit   string     // throughput unit of the series' first point
	Colour color.RGBA // the mode's colour, the same on every chart
	// Style picks a measurement's marker or a model's dashes, different for
	// each series sharing a colour (a mode's machines, loads, policies, or
	// modes the palette cycled onto).
	Style   int
	Samples []sample // ascending CPUs
	// Group and GroupTitle are the mode's small multiple (results.Modes.Group).
	Group      int
	GroupTitle string
}

func (s series) at(cpus int) (sample, bool) {
	for _, x := range s.Samples {
		if x.CPUs == cpus {
			return x, true
		}
	}
	return sample{}, false
}

// buildSeries groups points into series of medians, in the order their
// modes first appear, so that a measurement and its prediction sit
// together in a legend.
func buildSeries(points []results.Point, declared results.Modes) []series {
	keys, byKey := bySeries(points)
	colours := palette.Modes(modeOrder(points), declared)
	modes := modeOrder(points)
	cycles := (len(modes) + len(palette.Cycle()) - 1) / len(palette.Cycle())
	label := labeller(keys)
	type kind struct {
		mode  string
		model bool
	}
	nth := map[kind]int{} // series of the mode and kind so far
	out := make([]series, 0, len(keys))
	for _, k := range keys {
		ps := byKey[k]
		cycle := slices.Index(modes, k.Mode) / len(palette.Cycle())
		s := series{
			seriesKey: k,
			Label:     label(k),
			Unit:      ps[0].Unit,
			Colour:    colours[k.Mode],
			Style:     cycle + nth[kind{k.Mode, k.Model}]*cycles,
			Samples:   samples(ps),
		}
		if declared != nil {
			s.Group, s.GroupTitle = declared.Group(k.Mode)
		}
		out = append(out, s)
		nth[kind{k.Mode, k.Model}]++
	}
	slices.SortStableFunc(out, func(a, b series) int {
		return slices.Index(modes, a.Mode) - slices.Index(modes, b.Mode)
	})
	return out
}

// bySeries splits points by series, in order of appearance; a point may
// belong to two (see pars).
func bySeries(points []results.Point) ([]seriesKey, map[seriesKey][]results.Point) {
	var keys []seriesKey
	byKey := map[seriesKey][]results.Point{}
	keysOf := pars(points)
	for _, p := range points {
		for _, k := range keysOf(p) {
			if _, ok := byKey[k]; !ok {
				keys = append(keys, k)
			}
			byKey[k] = append(byKey[k], p)
		}
	}
	return keys, byKey
}

// pars gives the series a point belongs to: analysis.ParSeries, as the
// fits have them.
func pars(points []results.Point) func(results.Point) []seriesKey {
	group := func(p results.Point) seriesKey {
		return seriesKey{Origin: p.Origin(), Model: p.IsModel(), Sched: p.Sched, Mode: p.Mode,
			Load: load{Par: perCPU, Rate: p.Rate, MaxQ: p.MaxQ}}
	}
	return analysis.ParSeries(points, group, func(k seriesKey, par int) seriesKey {
		k.Load.Par = par
		return k
	})
}

// samples reduces a series' points to a sample per CPU count, ascending;
// medians keep percentiles ordered where each repetition's are.
func samples(ps []results.Point) []sample {
	_, byCPUs := groupBy(ps, func(p results.Point) int { return p.CPUs })
	var out []sample
	for _, n := range cpusOf(ps) {
		reps := byCPUs[n]
		med := func(f func(results.Point) float64) float64 { return medianOf(reps, f) }
		out = append(out, sample{
			CPUs:       n,
			Reps:       len(reps),
			Throughput: med(func(p results.Point) float64 { return p.Throughput }),
			Latency: results.Latency{
				Min:  med(func(p results.Point) float64 { return p.Latency.Min }),
				P05:  med(func(p results.Point) float64 { return p.Latency.P05 }),
				P25:  med(func(p results.Point) float64 { return p.Latency.P25 }),
				P50:  med(func(p results.Point) float64 { return p.Latency.P50 }),
				P75:  med(func(p results.Point) float64 { return p.Latency.P75 }),
				P90:  med(func(p results.Point) float64 { return p.Latency.P90 }),
				P95:  med(func(p results.Point) float64 { return p.Latency.P95 }),
				P99:  med(func(p results.Point) float64 { return p.Latency.P99 }),
				Max:  med(func(p results.Point) float64 { return p.Latency.Max }),
				Mean: med(func(p results.Point) float64 { return p.Latency.Mean }),
			},
			Band:      bandOf(reps),
			Disturbed: slices.ContainsFunc(reps, results.Point.IsDisturbed),
		})
	}
	return out
}

// bandOf spans the repetitions' bands; nil if any has none.
func bandOf(reps []results.Point) *results.Band {
	var b *results.Band
	for _, p := range reps {
		if p.Band == nil {
			return nil
		}
		if b == nil {
			c := *p.Band
			b = &c
			continue
		}
		b.Throughput = [2]float64{min(b.Throughput[0], p.Band.Throughput[0]), max(b.Throughput[1], p.Band.Throughput[1])}
		b.P50Ms = [2]float64{min(b.P50Ms[0], p.Band.P50Ms[0]), max(b.P50Ms[1], p.Band.P50Ms[1])}
	}
	return b
}

// labeller names a series: its mode, then what tells it from the others
// (model and policy, machine, load), always saying a prediction.
func labeller(keys []seriesKey) func(seriesKey) string {
	machines, scheds := map[string]bool{}, map[string]bool{}
	loads := map[string][]load{}
	for _, k := range keys {
		if k.Model {
			scheds[k.Sched] = true
		} else {
			machines[k.Origin] = true
		}
		if !slices.Contains(loads[k.Mode], k.Load) {
			loads[k.Mode] = append(loads[k.Mode], k.Load)
		}
	}
	return func(k seriesKey) string {
		s := k.Mode
		switch {
		case k.Model && len(scheds) > 1 && k.Sched != "":
			s += " (model, " + k.Sched + ")"
		case k.Model:
			s += " (model)"
		case len(machines) > 1:
			s += " (" + cmp.Or(k.Origin, "no source") + ")"
		}
		if d := loadLabel(k.Load, loads[k.Mode]); d != "" {
			s += " " + d
		}
		return s
	}
}

// loadLabel describes l by the fields that vary across a mode's loads; ""
// for one load.
func loadLabel(l load, all []load) string {
	var parts []string
	if varies(all, func(o load) float64 { return o.Rate }) {
		if l.Rate == 0 {
			parts = append(parts, "closed loop")
		} else {
			parts = append(parts, "rate="+strconv.FormatFloat(l.Rate, 'f', -1, 64)+"/s")
		}
	}
	if varies(all, func(o load) int { return o.Par }) {
		if l.Par == perCPU {
			parts = append(parts, "par=CPUs")
		} else {
			parts = append(parts, "par="+strconv.Itoa(l.Par))
		}
	}
	if varies(all, func(o load) int { return o.MaxQ }) && l.Rate != 0 { // a closed loop has no queue bound
		parts = append(parts, "maxq="+strconv.Itoa(l.MaxQ))
	}
	return strings.Join(parts, " ")
}

func modeOrder(points []results.Point) []string {
	return distinct(points, func(p results.Point) string { return p.Mode })
}
