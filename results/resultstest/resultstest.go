// Package resultstest holds points made by hand for tests of what reads
// results: the talk's shop measured and predicted, a bottleneck, and the
// checks every timeline passes.
package resultstest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// CheckTimeline checks what holds of any timeline: bars on its CPUs,
// within its span, never two at once on a CPU.
func CheckTimeline(t *testing.T, tl analysis.Timeline) {
	t.Helper()
	if len(tl.Bars) == 0 {
		t.Fatalf("%s: no bars", title(tl))
	}
	for i, b := range tl.Bars {
		switch {
		case b.CPU < 0 || b.CPU >= tl.CPUs:
			t.Fatalf("%s: bar on CPU %d of %d: %+v", title(tl), b.CPU, tl.CPUs, b)
		case b.Start < 0 || b.End > tl.Span || b.End <= b.Start:
			t.Fatalf("%s: bar %+v outside [0, %v]", title(tl), b, tl.Span)
		case i > 0 && tl.Bars[i-1].CPU == b.CPU && tl.Bars[i-1].End > b.Start:
			t.Fatalf("%s: CPU %d runs two bars at once: %+v, %+v", title(tl), b.CPU, tl.Bars[i-1], b)
		}
	}
}

// Limited is a bottleneck naming resources.
func Limited(rs ...string) *results.Bottleneck {
	return &results.Bottleneck{Resource: rs[0], Resources: rs, Named: "the " + strings.Join(rs, " and "), Model: "model (go)"}
}

// Study is the talk's shop measured on 1 and 2 CPUs and predicted on 1 to
// 8 under go: ideal and multi-2 scale, finelocking stops at its grinder
// from 4 CPUs, locking at its kitchen lock.
func Study() []results.Point {
	var ps []results.Point
	costs := &results.Calibration{Host: "box", Costs: []results.Cost{
		{Name: "wake", Median: 20 * time.Microsecond}, {Name: "spin wake", Median: 15 * time.Microsecond}, {Name: "spin window"},
		{Name: "switch", Median: 100}, {Name: "mutex handoff", Median: 300}, {Name: "chan handoff", Median: time.Microsecond},
		{Name: "buf chan handoff", Median: time.Microsecond}, {Name: "runnext grace", Median: 60 * time.Microsecond}}}
	steps := results.Steps{Grind: time.Millisecond, Press: time.Millisecond, Steam: time.Millisecond, Combine: time.Millisecond}
	for _, model := range []bool{false, true} {
		top := 2
		if model {
			top = 8
		}
		for n := 1; n <= top; n++ {
			for _, m := range []string{"ideal", "locking", "finelocking", "multi-2"} {
				tput, b := 250*float64(n), Limited("cpus", "customers")
				switch {
				case m == "locking":
					tput, b = 250, Limited("kitchen")
				case m == "finelocking" && n >= 4:
					tput, b = 930, Limited("grinder")
				}
				p := results.Point{Source: results.SourceMeasured, Spec: results.Spec{Mode: m, CPUs: n, Load: results.Load{Par: n, Dur: time.Second, Warmup: 100 * time.Millisecond}}, Throughput: tput, Unit: "lattes/s",
					Bottleneck: b, Host: results.Host{Name: "box"}, Shop: &results.Shop{Steps: steps}}
				if model {
					p.Source, p.Sched, p.Seed, p.Calibration = results.SourceModel, "go", 1, costs
				}
				ps = append(ps, p)
			}
		}
	}
	return ps
}

// title names a timeline in a failure: its mode, CPUs and source.
func title(tl analysis.Timeline) string {
	return fmt.Sprintf("%s on %d CPUs, %s", tl.Mode, tl.CPUs, tl.Source)
}
