// Package schedule answers "which drink's step ran on which CPU?" over a
// short span of one run, read from a measured run's execution trace
// (FromTrace), and picks the telling pictures (Pick).
package schedule

import (
	"cmp"
	"slices"

	"github.com/brewput/brewput/explain/verdict"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// Wall is the most of a scaling mode's throughput a walled one may make
// for Pick to draw them side by side: 70 %, whole idle CPUs in the picture.
const Wall = 0.7

// Flat is how much more a walled mode may make at its most CPUs than where
// Pick draws it at a wall.
const Flat = 0.05

// Choice is a configuration to draw, why (Does, of its Entry), and the
// point that says how it ran.
type Choice struct {
	Mode  string
	CPUs  int
	Does  string
	Entry *analysis.Entry
	Point results.Point
}

// Pick chooses the report's pictures from the points laid out in g: a
// mode at a wall (one machine or lock preferred, then the most throughput)
// beside the best mode that still scales, both measured or both predicted,
// at the least count of 2 CPUs or more where the first makes at most Wall
// of the second and within Flat of its most. Without that contrast, the
// first walled mode alone at its most CPUs; without a wall, the best
// scaling mode at the most CPUs.
func Pick(g *analysis.Grid, points []results.Point, modes results.Modes) []Choice {
	shown := func(mode string, n int) *analysis.Entry {
		if c, ok := g.At(mode, n); ok {
			return c.Shown()
		}
		return nil
	}
	top := func(mode string) int {
		t := 0
		for _, n := range g.CPUs {
			if shown(mode, n) != nil {
				t = n
			}
		}
		return t
	}
	// walls are the modes at a wall at their most CPUs: those of one
	// resource first, each kind by throughput, the most first.
	walls := slices.DeleteFunc(slices.Clone(g.Modes), func(m string) bool {
		e := shown(m, top(m))
		return e == nil || e.Limit.Scales() || e.Limit.Class == "unknown"
	})
	several := func(e *analysis.Entry) int { // 1 where not one resource
		switch e.Limit.Class {
		case "cpus", "customers", "machines", "none", "unknown", "channel", "step":
			return 1
		}
		return 0
	}
	slices.SortStableFunc(walls, func(a, b string) int {
		ea, eb := shown(a, top(a)), shown(b, top(b))
		return cmp.Or(several(ea)-several(eb), cmp.Compare(eb.Throughput, ea.Throughput))
	})
	// scaling is the best mode but walled that scales on n CPUs, of kind if given.
	scaling := func(walled string, n int, kind *bool) (string, *analysis.Entry) {
		var name string
		var be *analysis.Entry
		for _, m := range g.Modes {
			e := shown(m, n)
			if m == walled || verdict.Races(modes, m) || e == nil || !e.Limit.Scales() || kind != nil && e.Model != *kind {
				continue
			}
			if be == nil || e.Throughput > be.Throughput {
				name, be = m, e
			}
		}
		return name, be
	}
	said := func(mode string, n int, e *analysis.Entry, does string) Choice {
		c, _ := g.At(mode, n)
		return Choice{Mode: mode, CPUs: n, Does: does, Entry: e, Point: points[c.Shown().First]}
	}
	if len(walls) == 0 {
		for i := len(g.CPUs) - 1; i >= 0; i-- {
			if m, e := scaling("", g.CPUs[i], nil); e != nil {
				return []Choice{said(m, g.CPUs[i], e, analysis.KeepsScaling)}
			}
		}
		return nil
	}
	for _, walled := range walls {
		most := shown(walled, top(walled)).Throughput
		for _, c := range g.CPUs {
			we := shown(walled, c)
			// On one CPU everything waits for it: a wall shows from two.
			if we == nil || we.Limit.Scales() || c < 2 || most > (1+Flat)*we.Throughput {
				continue
			}
			partner, pe := scaling(walled, c, &we.Model)
			if pe == nil || we.Throughput > Wall*pe.Throughput {
				continue
			}
			return []Choice{said(walled, c, we, analysis.HitAWall), said(partner, c, pe, analysis.KeepsScaling)}
		}
	}
	walled := walls[0]
	n := top(walled)
	return []Choice{said(walled, n, shown(walled, n), analysis.WalledAlone)}
}
