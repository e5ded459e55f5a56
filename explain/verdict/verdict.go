// Package verdict answers "what did the points find?": for the CPU counts
// where the picture changes, which modes make the most and what limits
// each (Of); the studies', Go benchmark families' and labs' answers; and
// the rows of the compact tables, as results/analysis data.
package verdict

import (
	"cmp"
	"slices"

	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// Of computes the verdict of points: the shop's, the studies' and the Go
// benchmarks', not labs'. modes says which modes race (nil: none).
func Of(points []results.Point, modes results.Modes) analysis.Verdict {
	v := analysis.Verdict{Studies: Studies(points), Benches: BenchFamilies(points)}
	g := NewGrid(points)
	for _, c := range interesting(g) {
		v.Counts = append(v.Counts, count(g, c, modes))
	}
	for i, m := range g.Modes {
		if ml, ok := modeLimit(g, m, modes); ok {
			v.Modes = append(v.Modes, ml)
			if i == 0 {
				v.Unit = ml.Unit
			} else if ml.Unit != v.Unit {
				v.Unit = ""
			}
		}
	}
	return v
}

// interesting picks the CPU counts the verdict speaks of: the most CPUs
// measured, then, beyond, the first count where a mode stops scaling and
// the most CPUs predicted.
func interesting(g *analysis.Grid) []int {
	measured := 0
	for _, n := range g.CPUs {
		for _, m := range g.Modes {
			if c, ok := g.At(m, n); ok && c.Measured != nil {
				measured = max(measured, n)
			}
		}
	}
	var out []int
	if measured > 0 {
		out = append(out, measured)
	}
	prev, last, walled := measured, 0, false
	for _, n := range g.CPUs {
		if n <= measured {
			continue
		}
		if !walled && prev > 0 && newWall(g, prev, n) {
			out, walled = append(out, n), true
		}
		prev, last = n, n
	}
	if last > 0 && !slices.Contains(out, last) {
		out = append(out, last)
	}
	return out
}

// newWall reports whether a mode that scaled on a CPUs stops scaling on b.
func newWall(g *analysis.Grid, a, b int) bool {
	for _, m := range g.Modes {
		ca, okA := g.At(m, a)
		cb, okB := g.At(m, b)
		if okA && okB && ca.Shown().Limit.Scales() && !cb.Shown().Limit.Scales() {
			return true
		}
	}
	return false
}

// count says what CPU count n shows.
func count(g *analysis.Grid, n int, modes results.Modes) analysis.Count {
	c := analysis.Count{CPUs: n}
	var all, es []shown
	units := map[string]int{}
	for _, m := range g.Modes {
		if cell, ok := g.At(m, n); ok {
			all = append(all, shown{m, cell.Shown()})
			units[cell.Shown().Unit]++
		}
	}
	// Only modes counting the unit most of them count compare.
	unit := ""
	for _, s := range all {
		if unit == "" || units[s.e.Unit] > units[unit] {
			unit = s.e.Unit
		}
	}
	host, sched := "", ""
	var costs *results.Calibration
	for _, s := range all {
		if s.e.Unit != unit {
			c.Apart = append(c.Apart, analysis.Reference{Mode: s.mode, Throughput: s.e.Throughput, Unit: s.e.Unit})
			continue
		}
		es = append(es, s)
		c.All += s.e.Reps
		if s.e.Model {
			sched = cmp.Or(sched, s.e.Source)
			costs = cmp.Or(costs, s.e.Calibration)
		} else {
			host = cmp.Or(host, s.e.Host)
			c.Disturbed += s.e.Disturbed
		}
	}
	// A design with a data race is a reference: never the one that makes
	// the most, unless it is all there is.
	racy := func(s shown) bool { return Races(modes, s.mode) }
	if valid := slices.DeleteFunc(slices.Clone(es), racy); len(valid) > 0 && len(valid) < len(es) {
		for _, s := range es {
			if racy(s) {
				c.References = append(c.References, analysis.Reference{Mode: s.mode, Throughput: s.e.Throughput, Unit: unit})
			}
		}
		es = valid
	}
	// A disturbed measurement says more about the machine than the design.
	var ranked []shown
	measured, best := 0, 0.0
	for _, s := range es {
		if !s.e.Model && s.e.Disturbed > 0 {
			o := analysis.Below{Mode: s.mode, Throughput: s.e.Throughput, Limit: s.e.Limit, Rate: s.e.Rate, Disturbed: true}
			if cell, _ := g.At(s.mode, n); cell.Model != nil && cell.Model.Throughput > 0 {
				o.Predicted = cell.Model.Throughput
			}
			c.Unranked = append(c.Unranked, o)
			continue
		}
		ranked = append(ranked, s)
		best = max(best, s.e.Throughput)
		if !s.e.Model {
			measured++
		}
	}
	slices.SortStableFunc(c.Unranked, func(a, b analysis.Below) int { return cmp.Compare(b.Throughput, a.Throughput) })
	c.Unit, c.Every, c.Host = unit, len(es) == len(g.Modes), host
	if len(ranked) == 0 && len(c.Unranked) > 0 {
		c.Inconclusive = analysis.InconclusiveDisturbed
		return c
	}
	es = ranked
	c.Every = len(es) == len(g.Modes)
	mixed := measured > 0 && measured < len(es)
	if measured == 0 {
		c.Predictor, c.Model, c.Calibration = sched, true, costs
	}
	if c.Mixed = mixed; mixed {
		c.Measured = measured
	}
	rank(&c, g, es, mixed, best)
	return c
}

// shown is a mode's entry on a count.
type shown struct {
	mode string
	e    *analysis.Entry
}

// rank puts each of es in c's Best, within Near of the most (best), or
// its Rest, the most first; mixed says some are measured, some predicted.
func rank(c *analysis.Count, g *analysis.Grid, es []shown, mixed bool, best float64) {
	for _, s := range es {
		for _, cv := range s.e.Caveats {
			c.Caveats = append(c.Caveats, analysis.ModeCaveat{Mode: s.mode, Caveat: cv})
		}
		if s.e.Throughput >= (1-analysis.Near)*best {
			if len(c.Best) == 0 {
				c.Lo, c.Hi, c.P50Lo, c.P50Hi = s.e.Throughput, s.e.Throughput, s.e.P50, s.e.P50
			}
			c.Lo, c.Hi = min(c.Lo, s.e.Throughput), max(c.Hi, s.e.Throughput)
			c.P50Lo, c.P50Hi = min(c.P50Lo, s.e.P50), max(c.P50Hi, s.e.P50)
			c.Band = joinBands(c.Band, s.e.Band, len(c.Best) == 0)
			c.Best = append(c.Best, s.mode)
			c.Leaders = append(c.Leaders, analysis.Below{Mode: s.mode, Throughput: s.e.Throughput, Model: mixed && s.e.Model, Limit: s.e.Limit, Rate: s.e.Rate})
			continue
		}
		o := analysis.Below{Mode: s.mode, Throughput: s.e.Throughput, Model: mixed && s.e.Model, Limit: s.e.Limit, Rate: s.e.Rate, Disturbed: s.e.Disturbed > 0}
		if cell, _ := g.At(s.mode, c.CPUs); !s.e.Model && cell.Model != nil && cell.Model.Throughput > 0 &&
			(s.e.Throughput/cell.Model.Throughput > 1+analysis.Near || s.e.Throughput/cell.Model.Throughput < 1-analysis.Near) {
			o.Predicted = cell.Model.Throughput
		}
		c.Rest = append(c.Rest, o)
	}
	slices.SortStableFunc(c.Rest, func(a, b analysis.Below) int { return cmp.Compare(b.Throughput, a.Throughput) })
}

// modeLimit is mode's limit at its most CPUs, and since which count it holds.
func modeLimit(g *analysis.Grid, mode string, modes results.Modes) (analysis.ModeLimit, bool) {
	counts := slices.DeleteFunc(slices.Clone(g.CPUs), func(n int) bool {
		_, ok := g.At(mode, n)
		return !ok
	})
	if len(counts) == 0 {
		return analysis.ModeLimit{}, false
	}
	top := counts[len(counts)-1]
	cell, _ := g.At(mode, top)
	e := cell.Shown()
	ml := analysis.ModeLimit{Mode: mode, CPUs: top, Unit: e.Unit, Source: e.Source, Host: e.Host, Model: e.Model, Sched: e.Sched,
		Throughput: e.Throughput, P50: e.P50, Band: e.Band, Limit: e.Limit, From: top, First: counts[0], Races: Races(modes, mode),
		Caveats: e.Caveats}
	for i := len(counts) - 2; i >= 0; i-- {
		c, _ := g.At(mode, counts[i])
		if c.Shown().Limit.Class != e.Limit.Class {
			break
		}
		ml.From = counts[i]
	}
	return ml, true
}

// Races reports whether modes declares mode a design with a data race
// (the shop's ideal); nil declares none.
func Races(modes results.Modes, mode string) bool { return modes != nil && modes.Races(mode) }

// joinBands is the band from the lowest edge of band and b to the highest
// (b's alone where first); nil where either has none, not to claim for all
// of the best what holds for some.
func joinBands(band, b *[2]float64, first bool) *[2]float64 {
	switch {
	case b == nil:
		return nil
	case first:
		return &[2]float64{b[0], b[1]}
	case band == nil:
		return nil
	}
	return &[2]float64{min(band[0], b[0]), max(band[1], b[1])}
}
