package verdict

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchproc"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// benchCount is how brewput bench spells its count of runs.
const benchCount = "-count"

// BenchFamilies groups Go benchmarks' points into families and answers
// each: which member makes the most at each CPU count and by how much, and
// how each scaled; in the order of their first benchmarks.
func BenchFamilies(points []results.Point) []analysis.BenchFamily {
	return answered(points, familiesOf)
}

// namer gives, for the names of one package's benchmarks, each one's
// family and its variant in it.
type namer func(names []string) func(name string) (family, variant string)

// answered groups the Go benchmarks of points by machine and package,
// their names into families as name says, and answers each.
func answered(points []results.Point, name namer) []analysis.BenchFamily {
	_, benches := results.SplitBench(points)
	type src struct{ origin, pkg string }
	srcs, bySrc := collect.GroupBy(benches, func(p results.Point) (src, bool) { return src{p.Origin(), p.Bench.Pkg}, true })
	var out []analysis.BenchFamily
	for _, s := range srcs {
		names, byName := collect.GroupBy(bySrc[s], func(p results.Point) (string, bool) { return p.Mode, true })
		of := name(names)
		first := len(out)
		index := map[string]int{}
		for _, n := range names {
			family, variant := of(n)
			j, ok := index[family]
			if !ok {
				j, index[family] = len(out), len(out)
				out = append(out, analysis.BenchFamily{Name: family, Pkg: s.pkg, Origin: s.origin})
			}
			out[j].Variants = append(out[j].Variants, variant)
			out[j].Benchmarks = append(out[j].Benchmarks, n)
		}
		for j := first; j < len(out); j++ {
			if out[j].Name == "*" {
				// Top-level names compared with nothing under them.
				out[j].Name = strings.Join(out[j].Variants, " vs ")
			}
			answer(&out[j], byName)
		}
	}
	return out
}

// familiesOf groups benchmark names: among the names of one top-level
// benchmark with as many parts, a part in which some differ while agreeing
// in every other is one their families may vary in; of those, the first
// with a value saying something is absent (lock=none), else the first.
// Names left alone whose top levels differ and whose other parts agree
// are compared by their top level, as benchstat's -col .name compares them.
func familiesOf(names []string) func(name string) (family, variant string) {
	shape := func(parts []string) string { return parts[0] + "/" + strings.Repeat("*", len(parts)) }
	shapes := map[string][][]string{}
	for _, n := range names {
		parts := strings.Split(n, "/")
		shapes[shape(parts)] = append(shapes[shape(parts)], parts)
	}
	varying := map[string]int{} // by shape: the part its families vary in, 0 for none
	for sh, all := range shapes {
		for i := 1; i < len(all[0]); i++ {
			if !variesAlone(all, i) {
				continue
			}
			varying[sh] = cmp.Or(varying[sh], i)
			if slices.ContainsFunc(all, func(parts []string) bool { return saysAbsent(parts[i]) }) {
				varying[sh] = i
				break
			}
		}
	}
	of := func(n string) (family, variant string) {
		parts := strings.Split(n, "/")
		i := varying[shape(parts)]
		family, variant = n, n
		if i > 0 {
			key, value, kv := strings.Cut(parts[i], "=")
			star := "*"
			if kv {
				star, variant = key+"=*", value
			} else {
				variant = parts[i]
			}
			family = strings.Join(slices.Concat(parts[:i], []string{star}, parts[i+1:]), "/")
		}
		return family, variant
	}
	// The names alone, by what follows their top level.
	alone := map[string][]string{}
	for _, n := range names {
		if family, _ := of(n); family == n {
			_, rest, _ := strings.Cut(n, "/")
			alone[rest] = append(alone[rest], n)
		}
	}
	return func(n string) (family, variant string) {
		top, rest, _ := strings.Cut(n, "/")
		if len(alone[rest]) > 1 && slices.Contains(alone[rest], n) {
			return strings.TrimSuffix("*/"+rest, "/"), top
		}
		return of(n)
	}
}

// variesAlone says whether some of names differ in part i alone.
func variesAlone(names [][]string, i int) bool {
	seen := map[string]string{}
	for _, parts := range names {
		rest := strings.Join(slices.Concat(parts[:i], []string{"*"}, parts[i+1:]), "/")
		if v, ok := seen[rest]; ok && v != parts[i] {
			return true
		}
		seen[rest] = parts[i]
	}
	return false
}

// saysAbsent says whether a name's part names something left out: "lock=none".
func saysAbsent(part string) bool {
	_, value, _ := strings.Cut(part, "=")
	value = strings.ToLower(cmp.Or(value, part))
	return slices.ContainsFunc([]string{"none", "off", "no", "without"}, func(w string) bool {
		return value == w || strings.HasPrefix(value, w+"-") || strings.HasPrefix(value, w+"_")
	})
}

// answer fills the family's standings and scaling from its members' points.
func answer(f *analysis.BenchFamily, points map[string][]results.Point) {
	var counts []int
	for _, b := range f.Benchmarks {
		for _, p := range points[b] {
			counts = collect.AppendNew(counts, p.CPUs)
		}
	}
	slices.Sort(counts)
	member := make(map[string]string, len(f.Variants)) // variant → benchmark
	for i, v := range f.Variants {
		if _, ok := member[v]; !ok {
			member[v] = f.Benchmarks[i]
		}
	}
	at := func(variant string, n int) []results.Point {
		return slices.DeleteFunc(slices.Clone(points[member[variant]]), func(p results.Point) bool { return p.CPUs != n })
	}
	unit := points[f.Benchmarks[0]][0].Unit
	if len(f.Variants) > 1 {
		for _, n := range countsOfInterest(counts) {
			var ss []series
			for _, v := range f.Variants {
				if ps := at(v, n); len(ps) > 0 {
					ss = append(ss, series{v, ps})
				}
			}
			st := standing(n, "", unit, benchCount, ss)
			st.TopP50 = 0 // the chart beside it says the latency
			f.Counts = append(f.Counts, st)
		}
	}
	if len(counts) > 1 {
		f.Scaling = scalingFrom(counts[0], counts[len(counts)-1], f.Variants, benchCount, at)
	}
}

// BenchFamiliesBy is BenchFamilies with each family's variants named by
// col, as benchstat's -col spells it (".name", "/key", or several joined
// by commas). A benchmark whose name lacks one of them is its own family.
func BenchFamiliesBy(points []results.Point, col string) ([]analysis.BenchFamily, error) {
	var parser benchproc.ProjectionParser
	proj, err := parser.Parse(col, nil)
	if err != nil {
		return nil, err
	}
	var fields []string
	for _, f := range proj.Fields() {
		if f.Name != ".name" && !strings.HasPrefix(f.Name, "/") {
			return nil, fmt.Errorf("%q: families are drawn from the names: want .name or /key (such as /impl), or several joined by commas", f.Name)
		}
		fields = append(fields, f.Name)
	}
	return answered(points, func([]string) func(string) (string, string) {
		return func(n string) (string, string) {
			family, ok := familyBy(n, fields)
			if !ok {
				return n, n
			}
			return family, proj.Project(&benchfmt.Result{Name: benchfmt.Name(n)}).StringValues()
		}
	}), nil
}

// familyBy is name with each of fields' parts starred, "Map/impl=*",
// false where name lacks one of them.
func familyBy(name string, fields []string) (string, bool) {
	parts := strings.Split(name, "/")
	for _, f := range fields {
		if f == ".name" {
			parts[0] = "*"
			continue
		}
		key := strings.TrimPrefix(f, "/") + "="
		i := slices.IndexFunc(parts[1:], func(p string) bool { return strings.HasPrefix(p, key) })
		if i < 0 {
			return "", false
		}
		parts[i+1] = key + "*"
	}
	return strings.Join(parts, "/"), true
}
