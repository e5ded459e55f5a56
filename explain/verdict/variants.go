package verdict

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/brewput/brewput/internal/prose"
	"github.com/brewput/brewput/results"
)

// Described is what the verdict says of one study's variants (package
// study): the user's own code, of which brewput has no model and so no
// causal profile. It says only what was measured — which variants make the
// most on the CPU counts of interest, the others' throughput as a ratio to
// the most, and how each variant's throughput changed from the fewest CPUs
// to the most — and nothing of what limits a variant or what would help.
type Described struct {
	// Study is the study's name.
	Study string
	Unit  string
	// Counts are the fewest and the most CPUs measured.
	Counts []VariantCount
	// Scaling says, where there are two counts, how each variant's
	// throughput changed from the first to the second: "From 1 to 2 CPUs,
	// as measured: sharded-read ×1.9, mutex-read ×0.71." Empty otherwise.
	Scaling string
}

// VariantCount is what a CPU count shows of a study's variants.
type VariantCount struct {
	CPUs int
	// Source says where the figures come from: "measured on vm".
	Source string
	// Best are the variants within Near of the most; Lo, Hi their median
	// throughput and P50Lo, P50Hi their median latency in ms.
	Best                 []string
	Lo, Hi, P50Lo, P50Hi float64
	// Rest are the other variants, the most first.
	Rest           []Ratio
	Disturbed, All int
	Sentence       string
}

// Ratio is a variant's median throughput and its ratio to the most.
type Ratio struct {
	Variant    string
	Throughput float64
	Ratio      float64
}

// Studies describes the studies' points among points (every other kind is
// left out), a Described for each study in the order they first appear.
// Of each variant it takes one series — the first machine and load it was
// measured under — so that like is compared with like, and reduces
// repetitions to medians.
func Studies(points []results.Point) []Described {
	var names []string
	by := map[string][]results.Point{}
	for _, p := range points {
		if p.Kind() != results.KindStudy {
			continue
		}
		if _, ok := by[p.Study]; !ok {
			names = append(names, p.Study)
		}
		by[p.Study] = append(by[p.Study], p)
	}
	var out []Described
	for _, n := range names {
		if d, ok := describe(n, by[n]); ok {
			out = append(out, d)
		}
	}
	return out
}

// variantEntry is a variant's cell: the medians of its repetitions.
type variantEntry struct {
	tput, p50       float64
	host            string
	reps, disturbed int
}

func describe(study string, points []results.Point) (Described, bool) {
	d := Described{Study: study, Unit: points[0].Unit}
	var variants []string
	var counts []int
	first := map[string]string{}
	type key struct {
		variant string
		cpus    int
	}
	group := map[key][]results.Point{}
	for _, p := range points {
		id := seriesID(p)
		if f, ok := first[p.Mode]; !ok {
			first[p.Mode] = id
		} else if f != id {
			continue
		}
		if !slices.Contains(variants, p.Mode) {
			variants = append(variants, p.Mode)
		}
		if !slices.Contains(counts, p.CPUs) {
			counts = append(counts, p.CPUs)
		}
		group[key{p.Mode, p.CPUs}] = append(group[key{p.Mode, p.CPUs}], p)
	}
	if len(counts) == 0 {
		return d, false
	}
	slices.Sort(counts)
	at := func(v string, n int) (variantEntry, bool) {
		ps := group[key{v, n}]
		if len(ps) == 0 {
			return variantEntry{}, false
		}
		var tp, p50 []float64
		e := variantEntry{host: ps[0].Origin(), reps: len(ps)}
		for _, p := range ps {
			tp = append(tp, p.Throughput)
			p50 = append(p50, p.Latency.P50)
			if measuredDisturbed(p) {
				e.disturbed++
			}
		}
		e.tput, e.p50 = results.Median(tp), results.Median(p50)
		return e, true
	}
	of := []int{counts[0]}
	if last := counts[len(counts)-1]; last != counts[0] {
		of = append(of, last)
	}
	for _, n := range of {
		c := VariantCount{CPUs: n}
		type shown struct {
			variant string
			e       variantEntry
		}
		var es []shown
		hosts := ""
		for _, v := range variants {
			if e, ok := at(v, n); ok {
				es = append(es, shown{v, e})
				hosts = appendFirst(hosts, e.host)
				c.All += e.reps
				c.Disturbed += e.disturbed
			}
		}
		c.Source = "measured on " + hosts
		best := most(es, func(s shown) float64 { return s.e.tput })
		var sp spread
		for _, s := range es {
			if s.e.tput >= (1-Near)*best {
				c.Best = append(c.Best, s.variant)
				sp.add(s.e.tput, s.e.p50)
				continue
			}
			r := Ratio{Variant: s.variant, Throughput: s.e.tput}
			if best > 0 {
				r.Ratio = s.e.tput / best
			}
			c.Rest = append(c.Rest, r)
		}
		c.Lo, c.Hi, c.P50Lo, c.P50Hi = sp.lo, sp.hi, sp.p50Lo, sp.p50Hi
		slices.SortStableFunc(c.Rest, func(a, b Ratio) int { return cmp.Compare(b.Throughput, a.Throughput) })
		c.Sentence = variantSentence(c, d.Unit, len(es) == len(variants))
		d.Counts = append(d.Counts, c)
	}
	if len(of) == 2 {
		var parts []string
		for _, v := range variants {
			a, okA := at(v, of[0])
			b, okB := at(v, of[1])
			if okA && okB && a.tput > 0 {
				parts = append(parts, fmt.Sprintf("%s ×%s", v, ratio(b.tput/a.tput)))
			}
		}
		if len(parts) > 0 {
			d.Scaling = fmt.Sprintf("From %d to %s, as measured, each variant's throughput changed: %s.", of[0], cpus(of[1]), strings.Join(parts, ", "))
		}
	}
	return d, true
}

// variantSentence says a count of a study in words: "On 2 CPUs, measured
// on vm: sharded-read makes the most, 19.8 M ops/s at a median 0.08 µs;
// syncmap-read 15.1 M ops/s (×0.76), mutex-read 5.02 M ops/s (×0.25)."
func variantSentence(c VariantCount, unit string, every bool) string {
	var s strings.Builder
	fmt.Fprintf(&s, "On %s, %s: ", cpus(c.CPUs), c.Source)
	switch {
	case len(c.Best) > 1 && len(c.Rest) == 0 && every:
		s.WriteString("every variant makes")
	case len(c.Best) == 1 && len(c.Rest) == 0:
		s.WriteString(c.Best[0] + " makes")
	case len(c.Best) == 1:
		s.WriteString(c.Best[0] + " makes the most,")
	case len(c.Rest) == 0:
		s.WriteString(prose.JoinAnd(c.Best) + " make")
	default:
		s.WriteString(prose.JoinAnd(c.Best) + " make the most,")
	}
	fmt.Fprintf(&s, " %s at a median %s", span(results.FormatRate(c.Lo, unit), results.FormatRate(c.Hi, unit)),
		span(results.FormatWait(c.P50Lo), results.FormatWait(c.P50Hi)))
	if len(c.Rest) > 0 {
		var rest []string
		for _, r := range c.Rest {
			rest = append(rest, fmt.Sprintf("%s %s (×%s)", r.Variant, results.FormatRate(r.Throughput, unit), ratio(r.Ratio)))
		}
		s.WriteString("; " + strings.Join(rest, ", "))
	}
	s.WriteString(".")
	if c.Disturbed > 0 {
		fmt.Fprintf(&s, " %d of the %d points measured here were disturbed: other processes took CPU while they ran.", c.Disturbed, c.All)
	}
	return s.String()
}

// span writes two figures with their units as a range: "5.71–5.83
// Mops/s" where the units agree, "950 ns–1.2 µs" where they do not, one
// figure where they are the same.
func span(lo, hi string) string {
	if lo == hi {
		return lo
	}
	l, lu, _ := strings.Cut(lo, " ")
	h, hu, _ := strings.Cut(hi, " ")
	if lu == hu {
		return l + "–" + h + " " + hu
	}
	return lo + "–" + hi
}

// ratio writes a ratio with two significant figures: "0.25", "1.9", "12".
func ratio(r float64) string {
	if r >= 10 {
		return fmt.Sprintf("%.0f", r)
	}
	return fmt.Sprintf("%.2g", r)
}

// Sentences are what the description says, a sentence for each count of
// interest and one on how the variants scaled.
func (d Described) Sentences() []string {
	var out []string
	for _, c := range d.Counts {
		out = append(out, c.Sentence)
	}
	if d.Scaling != "" {
		out = append(out, d.Scaling)
	}
	return out
}
