package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// maxWaitRows is the most sites a table of waits shows; the profile has all.
const maxWaitRows = 8

// waitView is where a measured point's goroutines waited, from its block
// profile (--profile).
type waitView struct {
	// Label says which point: CPUs, and load, repetition, machine where they differ.
	Label    string
	Sentence string
	// Per is the operation of the per-operation column: "latte".
	Per  string
	Rows []waitRow
	// More counts the sites left out of Rows; Files is the profiles' base path.
	More  int
	Files string
}

// waitRow is a site: what was waited on (its source line, or function),
// the kind, and where.
type waitRow struct {
	On, Kind, Where     string
	Count, Total, PerOp string
}

// waitViews are a mode's profiled measured points' waits, a view per
// configuration, most CPUs first, of its first repetition.
func waitViews(points []results.Point, mode string) []waitView {
	type key struct {
		origin    string
		cpus, par int
		rate      float64
	}
	profiled := slices.DeleteFunc(slices.Clone(points), func(p results.Point) bool {
		return p.Mode != mode || p.IsModel() || (p.Profile == "" && len(p.Waits) == 0)
	})
	keys, reps := groupBy(profiled, func(p results.Point) key { return key{p.Origin(), p.CPUs, p.Par, p.Rate} })
	slices.SortStableFunc(keys, func(a, b key) int { return cmp.Compare(b.cpus, a.cpus) })
	manyOrigins := varies(keys, func(k key) string { return k.origin })
	manyLoads := varies(keys, func(k key) [2]float64 { return [2]float64{float64(k.par - k.cpus), k.rate} })
	return collect.Mapped(keys, func(k key) waitView {
		p := slices.MinFunc(reps[k], func(a, b results.Point) int { return cmp.Compare(a.Rep, b.Rep) })
		label := format.Count(p.CPUs, "CPU")
		if manyLoads {
			label += ", " + describeLoad(p)
		}
		if len(reps[k]) > 1 {
			label += fmt.Sprintf(", repetition %d of %d", max(p.Rep, 1), len(reps[k]))
		}
		if manyOrigins {
			label += " on " + p.Origin()
		}
		v := waitView{Label: label, Per: perWhat(p.Unit), Files: p.Profile,
			Sentence: "no goroutine waited on a lock or a channel in the window"}
		for i, w := range p.Waits {
			on, where, detail := waitSite(w)
			if i == 0 {
				_, fn, _ := results.SplitSite(w.Site)
				v.Sentence = fmt.Sprintf("%s waited %s per %s on %s (%s)", waiters(p, fn), format.Wait(w.PerOpMs), v.Per, on, detail)
			}
			if i == maxWaitRows {
				v.More = len(p.Waits) - i
				break
			}
			v.Rows = append(v.Rows, waitRow{On: on, Kind: w.Kind, Where: where, Count: fmt.Sprint(w.Count), Total: format.Wait(w.TotalMs), PerOp: format.Wait(w.PerOpMs)})
		}
		return v
	})
}

// waitSite says on what w waited, where ("" for folded small sites), and
// its kind and file:line as a sentence says them.
func waitSite(w results.Wait) (on, where, detail string) {
	source, fn, loc := results.SplitSite(w.Site)
	if w.Folded > 0 {
		source = text.FoldedSites(w)
	}
	on, detail = source, w.Kind
	switch {
	case fn == "":
		return on, "", detail
	case source == "":
		on, where = fn, loc
	default:
		where = fn + ", " + loc
	}
	return on, where, detail + ", " + loc
}

// waiters names the goroutines that wait in fn, as the shop calls them.
func waiters(p results.Point, fn string) string {
	switch {
	case p.Kind == results.KindStudy:
		return "workers"
	case strings.HasSuffix(fn, ".Brew") && p.Rate > 0, strings.Contains(fn, "(*worker).serve"):
		return "servers"
	case strings.HasSuffix(fn, ".Brew"), strings.Contains(fn, "(*worker).loop"):
		return "customers"
	case fn == "coffee.stage":
		return "baristas"
	}
	return "goroutines"
}

// perWhat is the operation a unit counts: "latte" for "lattes/s".
func perWhat(unit string) string {
	return cmp.Or(strings.TrimSuffix(strings.TrimSuffix(unit, "/s"), "s"), "operation")
}
