package verdict

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/brewput/brewput/explain/compare"
	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/results"
)

// Versus is one variant's median throughput over another's, with the
// range the two medians' 95 % confidence intervals allow (benchmath's,
// as compare gives them): from the one's low end over the other's high
// end to the one's high end over the other's low end. Lo and Hi are
// infinite where either side has too few runs for an interval.
type Versus struct {
	Variant    string
	Throughput float64 // its median
	Ratio      float64
	Lo, Hi     float64
	// Runs are the runs on each side, the variant's and the other's.
	Runs [2]int
}

// versus is a's median over b's.
func versus(variant string, a, b []float64) Versus {
	sa, sb := compare.SummarizeValues(a), compare.SummarizeValues(b)
	v := Versus{Variant: variant, Throughput: sa.Median, Ratio: math.NaN(), Lo: math.Inf(-1), Hi: math.Inf(1), Runs: [2]int{len(a), len(b)}}
	if sb.Median > 0 {
		v.Ratio = sa.Median / sb.Median
	}
	if !math.IsInf(sa.Lo, 0) && !math.IsInf(sb.Hi, 0) && sb.Hi > 0 {
		v.Lo = sa.Lo / sb.Hi
	}
	if !math.IsInf(sa.Hi, 0) && !math.IsInf(sb.Lo, 0) && sb.Lo > 0 {
		v.Hi = sa.Hi / sb.Lo
	}
	return v
}

// Known reports whether the ratio has an interval.
func (v Versus) Known() bool { return !math.IsInf(v.Lo, 0) && !math.IsInf(v.Hi, 0) }

// Differs reports whether the interval excludes 1: the two differ.
func (v Versus) Differs() bool { return v.Known() && (v.Hi < 1 || v.Lo > 1) }

// text writes the ratio with its interval, "×0.55 [0.52, 0.58]", or
// alone where there is none.
func (v Versus) text() string {
	if math.IsNaN(v.Ratio) {
		return "×?"
	}
	s := "×" + format.Digits(v.Ratio, 3)
	if v.Known() {
		s += " [" + format.Digits(v.Lo, 3) + ", " + format.Digits(v.Hi, 3) + "]"
	}
	return s
}

// Standing is what one CPU count shows of variants measured alike: the
// variant whose median throughput is the most, and each other's against
// it.
type Standing struct {
	CPUs int
	// Source says where the figures come from: "measured on vm"; ""
	// where the caller says it once for several standings.
	Source string
	// Top is the variant with the most median throughput, TopP50 its
	// median latency in ms (0 where none was measured).
	Top                   string
	TopThroughput, TopP50 float64
	// Less are the variants whose interval against Top lies below 1;
	// Same those whose interval holds 1 (no significant difference);
	// Unknown those with too few runs for an interval. Each lists the
	// most first.
	Less, Same, Unknown []Versus
	// Disturbed names the runs other processes took CPU from.
	Disturbed    []string
	allDisturbed bool
	Sentence     string
}

// Better reports whether Top makes significantly more than every other
// variant.
func (s Standing) Better() bool { return len(s.Same) == 0 && len(s.Unknown) == 0 && len(s.Less) > 0 }

// series is one variant's runs at one CPU count.
type series struct {
	variant string
	points  []results.Point
}

func throughputs(ps []results.Point) []float64 {
	out := make([]float64, len(ps))
	for i, p := range ps {
		out[i] = p.Throughput
	}
	return out
}

// standing answers one CPU count: variants are each one's runs there, in
// the order they are to be named. countFlag is how the command that
// measures spells --count, for the advice on too few runs.
func standing(cpus int, source, unit, countFlag string, variants []series) Standing {
	s := Standing{CPUs: cpus, Source: source}
	top := -1
	medians := make([]float64, len(variants))
	s.allDisturbed = len(variants) > 0
	for i, v := range variants {
		medians[i] = results.Median(throughputs(v.points))
		if top < 0 || medians[i] > medians[top] {
			top = i
		}
		if d := disturbedRuns(v.variant, v.points); d != "" {
			s.Disturbed = append(s.Disturbed, d)
		}
		for _, p := range v.points {
			s.allDisturbed = s.allDisturbed && measuredDisturbed(p)
		}
	}
	if top < 0 {
		return s
	}
	s.Top, s.TopThroughput = variants[top].variant, medians[top]
	var p50 []float64
	for _, p := range variants[top].points {
		p50 = append(p50, p.Latency.P50)
	}
	s.TopP50 = results.Median(p50)
	best := throughputs(variants[top].points)
	var all []Versus
	for i, v := range variants {
		if i != top {
			all = append(all, versus(v.variant, throughputs(v.points), best))
		}
	}
	slices.SortStableFunc(all, func(a, b Versus) int { return -cmpFloat(a.Throughput, b.Throughput) })
	for _, v := range all {
		switch {
		case !v.Known():
			s.Unknown = append(s.Unknown, v)
		case v.Differs():
			s.Less = append(s.Less, v)
		default:
			s.Same = append(s.Same, v)
		}
	}
	s.Sentence = s.sentence(unit, countFlag)
	return s
}

// disturbedRuns names a variant's runs that other processes took CPU
// from: "mutex" (its one run), "mutex (all 6 runs)", "mutex runs 2, 5";
// "" where none was.
func disturbedRuns(variant string, points []results.Point) string {
	var reps []string
	for i, p := range points {
		if measuredDisturbed(p) {
			rep := p.Rep
			if rep == 0 {
				rep = i + 1
			}
			reps = append(reps, strconv.Itoa(rep))
		}
	}
	switch {
	case len(reps) == 0:
		return ""
	case len(points) == 1:
		return variant
	case len(reps) == len(points):
		return fmt.Sprintf("%s (all %d runs)", variant, len(points))
	case len(reps) == 1:
		return variant + " run " + reps[0]
	}
	return variant + " runs " + strings.Join(reps, ", ")
}

// runsText says how many runs the figures of top and vs are of: "1 run
// each", or each one's where they differ.
func runsText(top string, vs []Versus) string {
	same := true
	for _, v := range vs {
		same = same && v.Runs[0] == vs[0].Runs[1] && v.Runs[1] == vs[0].Runs[1]
	}
	if same {
		return format.Count(vs[0].Runs[1], "run") + " each"
	}
	parts := []string{fmt.Sprintf("%s %d", top, vs[0].Runs[1])}
	for _, v := range vs {
		parts = append(parts, fmt.Sprintf("%s %d", v.Variant, v.Runs[0]))
	}
	return "runs: " + strings.Join(parts, ", ")
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// sentence says the standing in words: "On 2 CPUs, measured on vm:
// sharded-write makes the most, 10.7 Mops/s at a median 170 ns; the
// others less: syncmap-write ×0.84 [0.80, 0.88], mutex-write ×0.55
// [0.52, 0.58]." — "makes the most" only where every other is
// significantly less, and the ties and the ratios without an interval
// said as such.
func (s Standing) sentence(unit, countFlag string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "On %s", format.Count(s.CPUs, "CPU"))
	if s.Source != "" {
		b.WriteString(", " + s.Source)
	}
	b.WriteString(": ")
	figure := format.Rate(s.TopThroughput, unit)
	if s.TopP50 > 0 {
		figure += " at a median " + format.Wait(s.TopP50)
	}
	list := func(vs []Versus) string {
		var parts []string
		for _, v := range vs {
			parts = append(parts, v.Variant+" "+v.text())
		}
		return strings.Join(parts, ", ")
	}
	switch {
	case len(s.Less)+len(s.Same)+len(s.Unknown) == 0:
		fmt.Fprintf(&b, "%s makes %s", s.Top, figure)
	case len(s.Same) == 0 && len(s.Unknown) == 0:
		fmt.Fprintf(&b, "%s makes the most, %s; the others less: %s", s.Top, figure, list(s.Less))
	case len(s.Same) > 0:
		var names []string
		for _, v := range s.Same {
			names = append(names, v.Variant)
		}
		fmt.Fprintf(&b, "%s and %s make the most (no significant difference: %s of %s's %s)", s.Top, format.JoinAnd(names), list(s.Same), s.Top, figure)
		if len(s.Less) > 0 {
			fmt.Fprintf(&b, "; less: %s", list(s.Less))
		}
	default:
		fmt.Fprintf(&b, "%s made the most, %s", s.Top, figure)
		if len(s.Less) > 0 {
			fmt.Fprintf(&b, "; less: %s", list(s.Less))
		}
	}
	if len(s.Unknown) > 0 {
		fmt.Fprintf(&b, "; too few runs to tell whether it makes more than %s (%s; %s %d or more give intervals)", list(s.Unknown),
			runsText(s.Top, s.Unknown), countFlag, compare.RunsForInterval())
	}
	b.WriteString(".")
	switch {
	case s.allDisturbed:
		b.WriteString(" Every run was disturbed: other processes took CPU while they ran.")
	case len(s.Disturbed) > 0:
		fmt.Fprintf(&b, " Disturbed (other processes took CPU while they ran): %s.", strings.Join(s.Disturbed, ", "))
	}
	return b.String()
}

// scalingFrom says how each variant's median throughput changed from one
// CPU count to another, with its interval: "From 1 to 2 CPUs,
// throughput: more: sharded-read ×1.4 [1.3, 1.5]; less: mutex-write ×0.88
// [0.84, 0.93]; no significant change: mutex-read ×1 [0.96, 1.05]." at
// gives a variant's runs at a count, nil where it has none.
func scalingFrom(from, to int, variants []string, countFlag string, at func(variant string, cpus int) []results.Point) (string, []Versus) {
	var all []Versus
	for _, v := range variants {
		a, b := at(v, from), at(v, to)
		if len(a) == 0 || len(b) == 0 {
			continue
		}
		all = append(all, versus(v, throughputs(b), throughputs(a)))
	}
	if len(all) == 0 {
		return "", nil
	}
	var more, less, same, unknown []string
	for _, v := range all {
		t := v.Variant + " " + v.text()
		switch {
		case !v.Known():
			unknown = append(unknown, t)
		case v.Lo > 1:
			more = append(more, t)
		case v.Hi < 1:
			less = append(less, t)
		default:
			same = append(same, t)
		}
	}
	var parts []string
	for _, g := range []struct {
		name  string
		items []string
	}{{"more", more}, {"less", less}, {"no significant change", same}} {
		if len(g.items) > 0 {
			parts = append(parts, g.name+": "+strings.Join(g.items, ", "))
		}
	}
	if len(unknown) > 0 {
		parts = append(parts, fmt.Sprintf("%s (too few runs for intervals; %s %d or more give them)", strings.Join(unknown, ", "), countFlag, compare.RunsForInterval()))
	}
	return fmt.Sprintf("From %d to %s, throughput: %s.", from, format.Count(to, "CPU"), strings.Join(parts, "; ")), all
}

// countsOfInterest are the CPU counts an answer speaks of: every one
// measured, up to four; of more, the fewest, the most and two between.
func countsOfInterest(counts []int) []int {
	if len(counts) <= 4 {
		return counts
	}
	n := len(counts)
	return []int{counts[0], counts[(n-1)/3], counts[2*(n-1)/3], counts[n-1]}
}
