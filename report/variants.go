package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// variantsView is a study's measured points: the variants side by side,
// then each one's meters, scaling and waits. brewput names what limits a
// user's code only by experiment (study why), so nothing here says it.
type variantsView struct {
	NoCausalProfile string
	Names           []string
	Compare         []compareRow
	Variants        []variantView
	NotFitted       []string
	Profiled        bool
}

// compareRow is a CPU count (on a machine): each variant's median
// throughput and its ratio to the first's.
type compareRow struct {
	CPUs  string
	Cells []string
}

// variantView is a variant's collapsed part; Says is its throughput on
// each CPU count.
type variantView struct {
	Variant, ID, Says string
	Rows              []meterRow
	Fits              []fitView
	Waits             []waitView
}

type meterRow struct {
	Source                string
	CPUs                  int
	Throughput, CPU, Text string
}

// variantViews lays out the studies' measured points. Of repeated points
// (--count), the median run by throughput (the lower middle one) speaks,
// as in a study's predict; the comparison gives the study table's medians.
func variantViews(points []results.Point, a *analysis.Analysis) variantsView {
	v := variantsView{NoCausalProfile: text.NoCausalProfile}
	type key struct {
		mode, origin string
		cpus         int
	}
	keys, runs := groupBy(points, func(p results.Point) key { return key{p.Mode, p.Origin(), p.CPUs} })
	var nf notFitted
	for _, mode := range modeOrder(points) {
		vv := variantView{Variant: mode, ID: "variant-" + anchor(mode), Fits: nf.fitted(mode, fitsOf(a.Fits, mode)), Waits: waitViews(points, mode)}
		var says []string
		for _, k := range keys {
			if k.mode != mode {
				continue
			}
			ps := slices.SortedStableFunc(slices.Values(runs[k]), func(a, b results.Point) int { return cmp.Compare(a.Throughput, b.Throughput) })
			p := ps[(len(ps)-1)/2]
			r := meterRow{Source: p.Origin(), CPUs: p.CPUs, Throughput: format.Rate(p.Throughput, p.Unit),
				CPU: format.Percent(p.Metrics[results.Util], 0), Text: strings.TrimPrefix(text.Describe(p), text.NoCausalProfile+" ")}
			vv.Rows = append(vv.Rows, r)
			says = append(says, fmt.Sprintf("%s on %s", r.Throughput, format.Count(r.CPUs, "CPU")))
		}
		vv.Says = strings.Join(says, ", ")
		v.Profiled = v.Profiled || len(vv.Waits) > 0
		v.Names = append(v.Names, mode)
		v.Variants = append(v.Variants, vv)
	}
	v.NotFitted = nf.sentences()
	if a.StudyTable != nil {
		v.Compare = compareVariants(a.StudyTable.Rows, v.Names)
	}
	return v
}

// compareVariants sets the variants side by side per CPU count and
// machine: "2.10 M ops/s (×3.4)", "-" where a variant has no point.
func compareVariants(rows []analysis.StudyRow, names []string) []compareRow {
	type at struct {
		origin string
		cpus   int
	}
	keys, by := groupBy(rows, func(r analysis.StudyRow) at { return at{r.Origin, r.CPUs} })
	slices.SortStableFunc(keys, func(a, b at) int { return a.cpus - b.cpus })
	origins := distinct(rows, func(r analysis.StudyRow) string { return r.Origin })
	var out []compareRow
	for _, k := range keys {
		row := compareRow{CPUs: format.Count(k.cpus, "CPU")}
		if len(origins) > 1 {
			row.CPUs += " on " + k.origin
		}
		of := func(name string) (analysis.StudyRow, bool) {
			i := slices.IndexFunc(by[k], func(r analysis.StudyRow) bool { return r.Variant == name })
			if i < 0 {
				return analysis.StudyRow{}, false
			}
			return by[k][i], true
		}
		base, _ := of(names[0])
		for _, name := range names {
			r, ok := of(name)
			if !ok {
				row.Cells = append(row.Cells, "-")
				continue
			}
			cell := format.Rate(r.Throughput, r.Unit)
			if base.Throughput > 0 && name != names[0] {
				cell += fmt.Sprintf(" (×%.2g)", r.Throughput/base.Throughput)
			}
			row.Cells = append(row.Cells, cell)
		}
		out = append(out, row)
	}
	return out
}
