package report

import (
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results/analysis"

	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/results"
)

// variantsView is the section of a study's points (package study): the
// variants side by side at each CPU count, as measured, then each
// variant's meters, how it scales and where its goroutines waited.
// brewput names what limits the user's code only by experiment (a
// study's why command), so nothing here says what limits a variant or
// what would help: the meters are described, and variants that differ in
// one change show what that change did. A study's predicted points are
// left to the answer and the charts.
type variantsView struct {
	NoProfile string
	Names     []string
	Compare   []compareRow
	Variants  []variantView
	// NotFitted says, once for all variants, which series could not be
	// fitted and why, as the modes' section does.
	NotFitted []string
	// Profiled says some point was measured with --profile; without, the
	// section says once how to see where goroutines waited.
	Profiled bool
}

// compareRow is one CPU count (on one machine): each variant's median
// throughput, and its ratio to the first variant's.
type compareRow struct {
	CPUs  string
	Cells []string
}

// variantView is one variant's part of the section, collapsed as each
// mode's is: Says, its summary, is its throughput on each CPU count.
type variantView struct {
	Variant, ID, Says string
	Rows              []meterRow
	Fits              []fitView
	Waits             []waitView
}

// meterRow is one point of a variant: its CPUs, throughput, CPU use, and
// what its meters measured, in words.
type meterRow struct {
	Source, CPUs, Throughput, CPU, Text string
}

// variantViews lays out the studies' points. Of repeated points (--count),
// the median run by throughput (of an even count, the lower of the middle
// two) speaks for the configuration in the meters' rows and the summary,
// as it does for a study's model (its predict command); the comparison
// gives the median of all of them.
func variantViews(points []results.Point, a *analysis.Analysis) variantsView {
	v := variantsView{NoProfile: text.NoProfile}
	type key struct {
		mode, origin string
		cpus         int
	}
	var keys []key
	runs := map[key][]results.Point{}
	for _, p := range points {
		k := key{p.Mode, p.Origin(), p.CPUs}
		if _, ok := runs[k]; !ok {
			keys = append(keys, k)
		}
		runs[k] = append(runs[k], p)
	}
	index := map[string]int{}
	for _, k := range keys {
		i, ok := index[k.mode]
		if !ok {
			i = len(v.Variants)
			index[k.mode] = i
			v.Names = append(v.Names, k.mode)
			v.Variants = append(v.Variants, variantView{Variant: k.mode, ID: "variant-" + anchor(k.mode)})
		}
		ps := slices.SortedStableFunc(slices.Values(runs[k]), func(a, b results.Point) int { return cmp.Compare(a.Throughput, b.Throughput) })
		p := ps[(len(ps)-1)/2]
		v.Variants[i].Rows = append(v.Variants[i].Rows, meterRow{
			Source: p.Origin(), CPUs: strconv.Itoa(p.CPUs), Throughput: format.Rate(p.Throughput, p.Unit),
			CPU: fmt.Sprintf("%.0f %%", 100*p.Util), Text: strings.TrimPrefix(text.Describe(p), text.NoProfile+" "),
		})
	}
	notFitted := map[string][]string{}
	var reasons []string
	for i := range v.Variants {
		vv := &v.Variants[i]
		var says []string
		for _, r := range vv.Rows {
			says = append(says, fmt.Sprintf("%s on %s", r.Throughput, format.Count(atoi(r.CPUs), "CPU")))
		}
		vv.Says = strings.Join(says, ", ")
		for _, f := range fitViews(fitsOf(a.Fits, vv.Variant)) {
			if f.Reason == "" {
				vv.Fits = append(vv.Fits, f)
				continue
			}
			key := f.Source + ": " + f.Reason
			if _, ok := notFitted[key]; !ok {
				reasons = append(reasons, key)
			}
			notFitted[key] = append(notFitted[key], vv.Variant)
		}
		vv.Waits = waitViews(points, vv.Variant)
		v.Profiled = v.Profiled || len(vv.Waits) > 0
	}
	for _, r := range reasons {
		source, why, _ := strings.Cut(r, ": ")
		v.NotFitted = append(v.NotFitted, fmt.Sprintf("the series of %s (%s): %s.", strings.Join(notFitted[r], ", "), source, why))
	}
	v.Compare = compareVariants(points, v.Names)
	return v
}

// compareVariants sets the variants side by side at each CPU count on
// each machine: the median throughput of each, and its ratio to the
// first variant's, "2.10 M ops/s (×3.4)"; "-" where a variant has no
// point there.
func compareVariants(points []results.Point, names []string) []compareRow {
	type key struct {
		origin string
		cpus   int
	}
	var keys []key
	by := map[key]map[string][]float64{}
	unit := map[string]string{}
	origins := map[string]bool{}
	for _, p := range points {
		k := key{p.Origin(), p.CPUs}
		if by[k] == nil {
			by[k] = map[string][]float64{}
			keys = append(keys, k)
		}
		by[k][p.Mode] = append(by[k][p.Mode], p.Throughput)
		unit[p.Mode] = p.Unit
		origins[p.Origin()] = true
	}
	slices.SortStableFunc(keys, func(a, b key) int { return a.cpus - b.cpus })
	var rows []compareRow
	for _, k := range keys {
		row := compareRow{CPUs: format.Count(k.cpus, "CPU")}
		if len(origins) > 1 {
			row.CPUs += " on " + k.origin
		}
		base := 0.0
		if xs := by[k][names[0]]; len(xs) > 0 {
			base = results.Median(xs)
		}
		for _, name := range names {
			xs := by[k][name]
			if len(xs) == 0 {
				row.Cells = append(row.Cells, "-")
				continue
			}
			m := results.Median(xs)
			cell := format.Rate(m, unit[name])
			if base > 0 && name != names[0] {
				cell += fmt.Sprintf(" (×%.2g)", m/base)
			}
			row.Cells = append(row.Cells, cell)
		}
		rows = append(rows, row)
	}
	return rows
}
