package verdict

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/results"
)

// Rank ranks predicted points on each of cpus where any was predicted,
// family by family as brewput bench draws them (Cache/design=*/load=read:
// its designs under one load), or all together where no family has two:
// each family's variants by throughput, the first clearly the most where
// its band lies above every other's. measured is each variant's CPU counts
// measured, kinds what each was read as.
func Rank(points []results.Point, cpus []int, measured map[string][]int, kinds map[string]string) []results.Ranking {
	modes := slices.Compact(collect.Mapped(points, func(p results.Point) string { return p.Mode }))
	of := familiesOf(modes)
	group := func(m string) (string, string) { return of(m) }
	if !slices.ContainsFunc(modes, func(m string) bool { f, _ := of(m); return f != m }) {
		group = func(m string) (string, string) { return "", m } // no family: the benchmarks given, together
	}
	var out []results.Ranking
	for _, n := range cpus {
		byFamily := map[string]*results.Ranking{}
		var order []string
		for _, p := range points {
			if p.CPUs != n {
				continue
			}
			family, variant := group(p.Mode)
			if family == "*" { // top-level names compared: the benchmarks given
				family = ""
			}
			variant = keyed(family, variant)
			r := byFamily[family]
			if r == nil {
				r = &results.Ranking{CPUs: n, Group: family, Unit: cmp.Or(p.Unit, "ops/s")}
				byFamily[family], order = r, append(order, family)
			}
			band := [2]float64{p.Throughput, p.Throughput}
			if p.Band != nil {
				band = p.Band.Throughput
			}
			r.Ranked = append(r.Ranked, results.Ranked{Mode: p.Mode, Name: variant, Throughput: p.Throughput, Band: band,
				Kind: kinds[p.Mode], Measured: slices.Contains(measured[p.Mode], n)})
		}
		for _, f := range order {
			r := byFamily[f]
			slices.SortStableFunc(r.Ranked, func(a, b results.Ranked) int { return cmp.Compare(b.Throughput, a.Throughput) })
			r.Clear = true
			for _, o := range r.Ranked[1:] {
				if o.Band[1] >= r.Ranked[0].Band[0] {
					r.Clear = false
					r.Overlap = append(r.Overlap, o.Mode)
				}
			}
			out = append(out, *r)
		}
	}
	return out
}

// keyed is a variant named by a number given its key from its family
// (keys=4096 of XsyncCount/keys=*), which alone says little.
func keyed(family, variant string) string {
	if _, err := strconv.ParseFloat(variant, 64); err != nil {
		return variant
	}
	for _, part := range strings.Split(family, "/") {
		if key, ok := strings.CutSuffix(part, "=*"); ok {
			return key + "=" + variant
		}
	}
	return variant
}
