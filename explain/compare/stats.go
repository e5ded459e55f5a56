package compare

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"golang.org/x/perf/benchmath"
	"gonum.org/v1/gonum/stat"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/comparison"
	"github.com/brewput/brewput/results/stats"
)

// metricDef is a metric Compare compares.
type metricDef struct {
	name, better string
	unit         func(results.Point) string
	value        func(results.Point) float64
	// latency metrics leave out points that measured no latency; bench
	// metrics, a unit of Go benchmarks' lines, need every point to have it.
	latency, bench bool
}

// metricsOf are the metrics Compare compares: throughput, p50 and p99, then
// the other units of Go benchmarks' lines in the order they first come;
// between Go benchmarks alone, as benchstat, every unit of their lines,
// time per op, B/op and allocs/op first.
func metricsOf(old, new []results.Point) []metricDef {
	var units []string
	for _, p := range slices.Concat(old, new) {
		if p.Bench == nil {
			continue
		}
		for _, m := range p.Own() {
			units = collect.AppendNew(units, string(m))
		}
	}
	var defs []metricDef
	if allBench(old) && allBench(new) {
		first := []string{"ns/op", "B/op", "allocs/op"}
		rank := func(u string) int { return cmp.Or(slices.Index(first, u)+1, len(first)+1) }
		slices.SortStableFunc(units, func(a, b string) int { return rank(a) - rank(b) })
	} else {
		defs = metricDefs()
		skip := []string{"ns/op", "sec/op", "p50-ns", "p99-ns"}
		units = slices.DeleteFunc(units, func(u string) bool { return slices.Contains(skip, u) })
	}
	for _, unit := range units {
		better := "lower" // a unit per second is better higher, as benchstat takes them
		if strings.HasSuffix(unit, "/s") {
			better = "higher"
		}
		defs = append(defs, metricDef{name: unit, better: better, bench: true,
			unit:  func(results.Point) string { return unit },
			value: func(p results.Point) float64 { return p.Metrics[results.Metric(unit)] }})
	}
	return defs
}

// allBench reports whether there are points and all are Go benchmarks'.
func allBench(points []results.Point) bool {
	return len(points) > 0 && !slices.ContainsFunc(points, func(p results.Point) bool { return p.Kind != results.KindBench })
}

func metricDefs() []metricDef {
	ms := func(results.Point) string { return "ms" }
	return []metricDef{
		{name: "throughput", better: "higher", unit: func(p results.Point) string { return p.Unit }, value: func(p results.Point) float64 { return p.Throughput }},
		{name: "p50", better: "lower", unit: ms, value: func(p results.Point) float64 { return p.Latency.P50 }, latency: true},
		{name: "p99", better: "lower", unit: ms, value: func(p results.Point) float64 { return p.Latency.P99 }, latency: true},
	}
}

// compare compares the metric over two sides' repetitions; ok is false
// when a side has no sample of it.
func (d metricDef) compare(old, new []results.Point, alpha float64) (m Metric, ok bool) {
	thresholds := &benchmath.Thresholds{CompareAlpha: alpha}
	sample := func(points []results.Point) (*benchmath.Sample, int) {
		var values []float64
		disturbed := 0
		for _, p := range points {
			if d.bench {
				if _, ok := p.Metrics[results.Metric(d.name)]; !ok {
					return benchmath.NewSample(nil, thresholds), 0
				}
			}
			if !d.latency || p.Ops > 0 && p.Latency != (results.Latency{}) {
				values = append(values, d.value(p))
				if p.IsDisturbed() {
					disturbed++
				}
			}
		}
		return benchmath.NewSample(values, thresholds), disturbed
	}
	so, oldDisturbed := sample(old)
	sn, newDisturbed := sample(new)
	if len(so.Values) == 0 || len(sn.Values) == 0 {
		return Metric{}, false
	}
	m = Metric{Name: d.name, Unit: d.unit(old[0]), Better: d.better, Old: stats.Of(so), New: stats.Of(sn)}
	m.Old.Disturbed, m.New.Disturbed = oldDisturbed, newDisturbed
	m.DeltaPct = (m.New.Median/m.Old.Median - 1) * 100
	if m.Old.Median == 0 {
		m.DeltaPct = math.NaN() // no ratio to 0, even from 0
	}
	lo, hi := RatioRange(m.New, m.Old)
	m.GainLo, m.GainHi = lo-1, hi-1
	m.P = benchmath.AssumeNothing.Compare(so, sn).P
	// A range of gains unbounded at both ends (too few runs for the
	// intervals) leaves the verdict to the test alone, as benchstat does.
	bounded := !math.IsInf(m.GainLo, -1) || !math.IsInf(m.GainHi, 1)
	m.Significant = m.P < alpha && !(bounded && m.GainLo <= 0 && m.GainHi >= 0)
	if m.Significant && m.Old.Disturbed+m.New.Disturbed > 0 {
		m.Significant, m.Inconclusive = false, InconclusiveDisturbed
	}
	m.TooFew = !m.Significant && m.Inconclusive == "" && stats.MinP(len(so.Values), len(sn.Values), alpha) >= alpha
	switch {
	case m.Inconclusive != "":
	case m.Significant:
		m.Change = cmp.Compare(m.New.Median, m.Old.Median) // +1 an improvement, -1 a regression
		if d.better == "lower" {
			m.Change = -m.Change
		}
	case m.TooFew:
		m.Need = stats.RunsFor(alpha)
	}
	return m, true
}

// InconclusiveDisturbed is Metric.Inconclusive where disturbed samples
// leave a change untold.
const InconclusiveDisturbed = "disturbed"

// geomeans computes a Geomean per metric and unit, in row order.
func geomeans(rows []comparison.Row) []comparison.Geomean {
	var all []Metric
	for _, r := range rows {
		all = append(all, r.Metrics...)
	}
	keys, by := collect.GroupBy(all, func(m Metric) ([2]string, bool) {
		return [2]string{m.Name, m.Unit}, m.Old.Median > 0 && m.New.Median > 0
	})
	out := []comparison.Geomean{}
	for _, k := range keys {
		ms := by[k]
		g := comparison.Geomean{Name: k[0], Unit: k[1], Rows: len(ms),
			Old: stat.GeometricMean(collect.Mapped(ms, func(m Metric) float64 { return m.Old.Median }), nil),
			New: stat.GeometricMean(collect.Mapped(ms, func(m Metric) float64 { return m.New.Median }), nil)}
		g.DeltaPct = (g.New/g.Old - 1) * 100
		out = append(out, g)
	}
	return out
}

// RatioRange bounds a's median over b's by their intervals; an end is
// infinite where an interval is, or b's reaches 0.
func RatioRange(a, b stats.Summary) (lo, hi float64) {
	lo, hi = math.Inf(-1), math.Inf(1)
	if b.Hi > 0 && !math.IsInf(b.Hi, 0) && !math.IsInf(a.Lo, 0) {
		lo = a.Lo / b.Hi
	}
	if b.Lo > 0 && !math.IsInf(b.Lo, 0) && !math.IsInf(a.Hi, 0) {
		hi = a.Hi / b.Lo
	}
	return lo, hi
}
