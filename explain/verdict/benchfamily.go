package verdict

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/results"
)

// BenchFamily is Go benchmarks of one package, measured alike, that
// differ in one part of their names: the variants of one design, as
// benchstat -col /design sets them side by side. Cache/design=mutex/
// load=read, Cache/design=sharded/load=read and Cache/design=syncmap/
// load=read are the family Cache/design=*/load=read, whose variants are
// mutex, sharded and syncmap. A benchmark with no sibling is a family of
// one.
type BenchFamily struct {
	// Name is the benchmarks' name with the part they differ in as *.
	Name string
	// Pkg and Origin are the package and where it was measured.
	Pkg, Origin string
	// Variants name the members as the part they differ in says
	// ("mutex", or the part whole where it is not key=value); Benchmarks
	// are their full names, in the same order, as they first come.
	Variants, Benchmarks []string
	// Points are each member's points, by its full name.
	Points map[string][]results.Point
	// Counts answer each CPU count of interest (none for a family of
	// one), Scaling how each member's throughput changed from the fewest
	// CPUs measured to the most, Changes its figures.
	Counts  []Standing
	Scaling string
	Changes []Versus
}

// benchCount is how brewput bench spells its count of runs.
const benchCount = "-count"

// BenchFamilies groups Go benchmarks' points into families and answers
// each: which member makes the most at each CPU count and by how much,
// with intervals, and how each scaled. Families come in the order their
// first benchmark does. Other kinds of points are left out.
func BenchFamilies(points []results.Point) []BenchFamily {
	_, benches := results.SplitBench(points)
	type src struct{ origin, pkg string }
	var srcs []src
	names := map[src][]string{}
	by := map[src]map[string][]results.Point{}
	for _, p := range benches {
		s := src{p.Origin(), p.Bench.Pkg}
		if by[s] == nil {
			srcs = append(srcs, s)
			by[s] = map[string][]results.Point{}
		}
		if !slices.Contains(names[s], p.Mode) {
			names[s] = append(names[s], p.Mode)
		}
		by[s][p.Mode] = append(by[s][p.Mode], p)
	}
	var out []BenchFamily
	for _, s := range srcs {
		for _, f := range familiesOf(names[s]) {
			f.Pkg, f.Origin, f.Points = s.pkg, s.origin, map[string][]results.Point{}
			for _, b := range f.Benchmarks {
				f.Points[b] = by[s][b]
			}
			f.answer()
			out = append(out, f)
		}
	}
	return out
}

// familiesOf groups benchmark names: among the names of one top-level
// benchmark with as many parts, the first part (after the top level) in
// which some of them differ while agreeing in every other part is the
// part their families vary in.
func familiesOf(names []string) []BenchFamily {
	var out []BenchFamily
	index := map[string]int{}
	shape := func(parts []string) string { return parts[0] + "/" + strings.Repeat("*", len(parts)) }
	shapes := map[string][][]string{}
	for _, n := range names {
		parts := strings.Split(n, "/")
		shapes[shape(parts)] = append(shapes[shape(parts)], parts)
	}
	varying := map[string]int{} // by shape: the part its families vary in, 0 for none
	for sh, all := range shapes {
		for i := 1; i < len(all[0]) && varying[sh] == 0; i++ {
			seen := map[string]string{}
			for _, parts := range all {
				rest := strings.Join(slices.Concat(parts[:i], []string{"*"}, parts[i+1:]), "/")
				if v, ok := seen[rest]; ok && v != parts[i] {
					varying[sh] = i
					break
				}
				seen[rest] = parts[i]
			}
		}
	}
	for _, n := range names {
		parts := strings.Split(n, "/")
		i := varying[shape(parts)]
		family, variant := n, n
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
		j, ok := index[family]
		if !ok {
			j = len(out)
			index[family] = j
			out = append(out, BenchFamily{Name: family})
		}
		out[j].Variants = append(out[j].Variants, variant)
		out[j].Benchmarks = append(out[j].Benchmarks, n)
	}
	return out
}

// answer fills the family's standings and scaling.
func (f *BenchFamily) answer() {
	var counts []int
	for _, b := range f.Benchmarks {
		for _, p := range f.Points[b] {
			if !slices.Contains(counts, p.CPUs) {
				counts = append(counts, p.CPUs)
			}
		}
	}
	slices.Sort(counts)
	at := func(variant string, n int) []results.Point {
		var out []results.Point
		for _, p := range f.Points[f.Benchmarks[slices.Index(f.Variants, variant)]] {
			if p.CPUs == n {
				out = append(out, p)
			}
		}
		return out
	}
	unit := f.Points[f.Benchmarks[0]][0].Unit
	if len(f.Variants) > 1 {
		for _, n := range countsOfInterest(counts) {
			var ss []series
			for _, v := range f.Variants {
				if ps := at(v, n); len(ps) > 0 {
					ss = append(ss, series{v, ps})
				}
			}
			st := standing(n, "", unit, benchCount, ss)
			// The latency of a call is the chart's beside it, where
			// measured: the sentence keeps to throughput.
			st.TopP50 = 0
			st.Sentence = st.sentence(unit, benchCount)
			f.Counts = append(f.Counts, st)
		}
	}
	if len(counts) > 1 {
		f.Scaling, f.Changes = scalingFrom(counts[0], counts[len(counts)-1], f.Variants, benchCount, at)
	}
}

// Sentences are what the family's answer says: a sentence for each CPU
// count of interest, and one on how its members scaled.
func (f BenchFamily) Sentences() []string { return sentences(f.Counts, f.Scaling) }

// WriteBenchAnswer writes the families' answers for a terminal: each
// family's name, then its sentences, wrapped and indented.
func WriteBenchAnswer(w io.Writer, families []BenchFamily) error {
	for _, f := range families {
		ss := f.Sentences()
		if len(ss) == 0 {
			continue
		}
		if _, err := fmt.Fprintf(w, "%s, measured on %s:\n", f.Name, f.Origin); err != nil {
			return err
		}
		for _, s := range ss {
			if _, err := fmt.Fprintln(w, "  "+format.Wrap(s, 108, "  ")); err != nil {
				return err
			}
		}
	}
	return nil
}
