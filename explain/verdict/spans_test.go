package verdict

import (
	"slices"
	"testing"

	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// point is a point on cpus making tput within [lo, hi], its causal
// profile's verdict naming rs (with the words given), its experiments
// each relieving one resource by the gain given.
func point(cpus int, tput, lo, hi float64, named string, rs []string, gains map[string]float64) spanPoint {
	b := &results.Bottleneck{Resource: rs[0], Resources: rs, Named: named}
	for r, g := range gains {
		b.Experiments = append(b.Experiments, results.Experiment{Kind: "copy", Resources: []string{r}, Gain: g})
		b.Gain = max(b.Gain, g)
	}
	return spanPoint{cpus: cpus, b: b, lo: lo, hi: hi, throughput: tput}
}

// span is a LimitSpan as a reader gets it: its limit named.
type span struct {
	Named    string
	From, To int
	Scales   bool
}

func spans(ss ...span) []span { return ss }

// said is each span as a reader gets it.
func said(got []analysis.LimitSpan) []span {
	out := make([]span, len(got))
	for i, g := range got {
		out[i] = span{text.LimitName(g.Of), g.From, g.To, g.Scales}
	}
	return out
}

// TestLimitSpans: a series' limit is named once from where it starts,
// across counts the causal profiles cannot tell apart, a second only
// where another limit gains clearly more than it, outside the band.
func TestLimitSpans(t *testing.T) {
	cpus := []string{"cpus", "customers"}
	scaling := func(n int) spanPoint {
		return point(n, 250*float64(n), 250*float64(n), 250*float64(n), "the CPUs and the customers", cpus, map[string]float64{"cpus": 1 / float64(n), "grinder": 0.02})
	}
	grinder := func(n int, lo, hi float64) spanPoint {
		return point(n, 910, lo, hi, "the grinder", []string{"grinder"}, map[string]float64{"grinder": 0.1, "cpus": 0})
	}
	machines := []string{"grinder", "espresso", "steamer"}
	// The three machines bind together where the grinder starts to limit:
	// no single relief helps, relieving all three does.
	knee := point(4, 910, 902, 917, "the grinder, the espresso machine and the steamer", machines, nil)
	knee.b.Combined = &results.Experiment{Kind: "combined", Resources: machines, Gain: 0.5}
	knee.b.Gain = 0.5
	// One count whose profile names all three machines, its band as wide
	// as the step from its neighbours' figure to its own.
	blip := point(7, 999, 910, 999, "the grinder, the espresso machine and the steamer", machines, map[string]float64{"grinder": 0})
	blip.b.Combined = &results.Experiment{Kind: "combined", Resources: machines, Gain: 0.8}
	blip.b.Gain = 0.8
	steamer := func(n int) spanPoint {
		return point(n, 910, 910, 910, "the steamer", []string{"steamer"}, map[string]float64{"steamer": 0.3, "grinder": 0.02})
	}
	for _, c := range []struct {
		name   string
		points []spanPoint
		want   []span
	}{
		{"the grinder from the knee", []spanPoint{scaling(1), scaling(2), scaling(3), knee, grinder(5, 902, 917), grinder(6, 902, 917)},
			spans(span{Named: "the CPUs and the customers together", From: 1, To: 3, Scales: true},
				span{Named: "the grinder", From: 4, To: 6})},
		{"a count its band cannot tell apart", []spanPoint{grinder(5, 902, 917), grinder(6, 905, 999), blip, grinder(8, 905, 999)},
			spans(span{Named: "the grinder", From: 5, To: 8})},
		{"another limit clearly outside the band", []spanPoint{grinder(4, 905, 915), grinder(5, 905, 915), steamer(6), steamer(7)},
			spans(span{Named: "the grinder", From: 4, To: 5}, span{Named: "the steamer", From: 6, To: 7})},
		// Where more CPUs gain the most, a wide band that lets the
		// machines hold on one count does not end the CPUs' span: they
		// hold on more counts from there.
		{"the CPUs while they hold on more counts", func() []spanPoint {
			ps := []spanPoint{scaling(1), scaling(2), scaling(3)}
			for n, c := range map[int][2]float64{4: {0.26, 0.03}, 5: {0.2, 0.11}, 6: {0.16, 0.04}, 7: {0.14, 0.04}} {
				band := 0.0
				if n == 5 {
					band = 0.1 * 250 * float64(n)
				}
				p := point(n, 250*float64(n), 250*float64(n), 250*float64(n)+band, "the CPUs and the customers", cpus, map[string]float64{"cpus": c[0], "grinder": c[1]})
				ps = append(ps, p)
			}
			slices.SortFunc(ps, func(a, b spanPoint) int { return a.cpus - b.cpus })
			three := point(8, 2000, 2000, 2000, "the grinder, the espresso machine and the steamer", machines, map[string]float64{"grinder": 0})
			three.b.Combined = &results.Experiment{Kind: "combined", Resources: machines, Gain: 0.1}
			three.b.Gain = 0.1
			return append(ps, three)
		}(), spans(span{Named: "the CPUs and the customers together", From: 1, To: 7, Scales: true},
			span{Named: "the grinder, the espresso machine and the steamer together", From: 8, To: 8})},
		{"no causal profile", []spanPoint{{cpus: 1, throughput: 1, lo: 1, hi: 1}, {cpus: 2, throughput: 2, lo: 2, hi: 2}},
			spans(span{Named: results.NoCausalProfile, From: 1, To: 2})},
		// The most CPUs, where the answer gives the best change, named as
		// its own profile names it: a span of its own where what it names
		// does not hold before it (more customers alone gain nothing on 1
		// to 3 CPUs, as multipipe-2's did under issue 103's calibration)...
		{"the last count its own, apart", []spanPoint{scaling(1), scaling(2), scaling(3),
			point(4, 1000, 1000, 1000, "the customers", []string{"customers"}, map[string]float64{"customers": 0.09, "cpus": 0})},
			spans(span{Named: "the CPUs and the customers together", From: 1, To: 3, Scales: true},
				span{Named: "the customers", From: 4, To: 4, Scales: true})},
		// ... else the name of its span, where it holds on each count.
		{"the last count's name for its span", []spanPoint{grinder(5, 910, 910), grinder(6, 910, 910),
			point(7, 910, 910, 910, "the steamer and the grinder", []string{"steamer", "grinder"}, map[string]float64{"steamer": 0.1, "grinder": 0.1})},
			spans(span{Named: "the steamer and the grinder together", From: 5, To: 7})},
	} {
		if got := said(limitSpans(c.points)); !slices.Equal(got, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, c.want)
		}
	}
}
