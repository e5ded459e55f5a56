package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/internal/profile"
	"github.com/brewput/brewput/results"
)

// maxWaitRows is the most sites a point's table of waits shows; the block
// profile has the rest.
const maxWaitRows = 8

// waitView is where one measured point's goroutines waited, from its block
// profile (run --profile), for the waits template.
type waitView struct {
	// Label says which point: its CPU count, and its customers, load,
	// repetition and machine where the mode's points differ in them.
	Label string
	// Sentence is the longest wait in words: "customers waited 3.1 ms per
	// latte on s.grinder.use(s.steps.grind()) (mutex,
	// coffee/finelocking.go:25)"; or that nothing waited.
	Sentence string
	// Per is the operation the per-operation column is per: "latte".
	Per  string
	Rows []waitRow
	// More is the number of sites left out of Rows.
	More int
	// Files is the base path of the point's profile files, if known.
	Files string
}

// waitRow is one site of a point's waits, formatted.
type waitRow struct {
	// On is what was waited on: the source line of the site, or its
	// function where the source could not be read.
	On, Kind string
	// Where is the function and file:line.
	Where               string
	Count, Total, PerOp string
}

// waitViews gives, for mode's measured points that were profiled, where
// their goroutines waited: a view per CPU count, the largest first (the
// first repetition, where there are several). It is empty when no point
// of the mode was profiled.
func waitViews(points []results.Point, mode string) []waitView {
	type key struct {
		origin    string
		cpus, par int
		rate      float64
	}
	var keys []key
	first := map[key]results.Point{}
	reps := map[key]int{}
	for _, p := range points {
		if p.Mode != mode || p.IsModel() || (p.Profile == "" && len(p.Waits) == 0) {
			continue
		}
		k := key{p.Origin(), p.CPUs, p.Par, p.Rate}
		reps[k]++
		if f, ok := first[k]; !ok || p.Rep < f.Rep {
			if !ok {
				keys = append(keys, k)
			}
			first[k] = p
		}
	}
	slices.SortStableFunc(keys, func(a, b key) int { return cmp.Compare(b.cpus, a.cpus) })
	varies := func(f func(key) any) bool {
		return slices.ContainsFunc(keys, func(k key) bool { return f(k) != f(keys[0]) })
	}
	manyOrigins := varies(func(k key) any { return k.origin })
	manyLoads := varies(func(k key) any { return [2]float64{float64(k.par - k.cpus), k.rate} })

	views := make([]waitView, 0, len(keys))
	for _, k := range keys {
		p := first[k]
		label := format.Count(p.CPUs, "CPU")
		if manyLoads {
			label += ", " + describeLoad(p)
		}
		if reps[k] > 1 {
			label += fmt.Sprintf(", repetition %d of %d", max(p.Rep, 1), reps[k])
		}
		if manyOrigins {
			label += " on " + p.Origin()
		}
		views = append(views, waitView{Label: label, Per: perWhat(p.Unit), Files: p.Profile})
		v := &views[len(views)-1]
		if len(p.Waits) == 0 {
			v.Sentence = "no goroutine waited on a lock or a channel in the window"
			continue
		}
		v.Sentence = waitSentence(p, p.Waits[0])
		for i, w := range p.Waits {
			if i == maxWaitRows {
				v.More = len(p.Waits) - i
				break
			}
			text, fn, loc := profile.SplitSite(w.Site)
			row := waitRow{On: text, Kind: w.Kind, Count: fmt.Sprint(w.Count), Total: format.Wait(w.TotalMs), PerOp: format.Wait(w.PerOpMs)}
			switch {
			case fn == "":
			case text == "":
				row.On, row.Where = fn, loc
			default:
				row.Where = fn + ", " + loc
			}
			v.Rows = append(v.Rows, row)
		}
	}
	return views
}

// waitSentence says a wait in words, naming who waited: "customers waited
// 3.1 ms per latte on s.grinder.use(s.steps.grind()) (mutex,
// coffee/finelocking.go:25)".
func waitSentence(p results.Point, w results.Wait) string {
	text, fn, loc := profile.SplitSite(w.Site)
	on, detail := text, w.Kind
	switch {
	case fn == "": // a line such as the folded small sites
	case text == "":
		on, detail = fn, w.Kind+", "+loc
	default:
		detail = w.Kind + ", " + loc
	}
	return fmt.Sprintf("%s waited %s per %s on %s (%s)", waiters(p, fn), format.Wait(w.PerOpMs), perWhat(p.Unit), on, detail)
}

// waiters names the goroutines that wait in fn, as the shop calls them:
// the customers order (a mode's Brew, the harness's closed loop), servers
// take orders in an open loop, baristas run a pipeline's stages; a
// study's are its workers.
func waiters(p results.Point, fn string) string {
	switch {
	case p.Kind() == results.KindStudy:
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
	what := strings.TrimSuffix(strings.TrimSuffix(unit, "/s"), "s")
	if what == "" {
		return "operation"
	}
	return what
}
