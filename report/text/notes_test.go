package text

import (
	"testing"
	"time"

	"github.com/brewput/brewput/results"
)

// Notes says, in order, the talk's harness, a window that was not steady
// (Little's law, an open loop's queue), each number past a bound and each
// caveat, in their words; a steady point within its bounds says nothing.
func TestNotes(t *testing.T) {
	no := false
	open := results.Point{Source: results.SourceModel, Spec: results.Spec{Mode: "webserver", CPUs: 1, Load: results.Load{Par: 64, Rate: 2000, MaxQ: 1000, Dur: time.Second}},
		Bounds: &results.Bounds{Little: 1.1, Arrived: 2000, Growth: 480}, Trust: results.Trust{Steady: &no}}
	steady := open
	steady.Bounds, steady.Trust = &results.Bounds{Little: 1, Arrived: 2000}, results.Trust{}
	open.Harness = "talk"
	open.Throughput = 2040
	open.Above = []results.Above{{Bound: results.BoundArrivals, Why: results.WhyBacklog, Of: "throughput"}}
	open.Caveats = []results.Caveat{{Kind: results.CaveatShortHold, Resource: "mu", Under: 100}}
	want := "talk harness; not steady: Little's law 1.100; not steady: the queue grew by 480 over the window (24 % of its arrivals); " +
		"its latencies depend on --dur; 2040.0 a second above the arrival rate 2000: orders that arrived before the window were served in it; " +
		"so over time it serves no more than arrive; mu held under 100ns a use, and busy or its word waited for a quarter of the time or more: " +
		ShortHoldSpread + " (docs/model.md); take this figure as rough"
	if got := Notes(open); got != want {
		t.Errorf("notes\n%q, want\n%q", got, want)
	}
	if got := Notes(steady); got != "" {
		t.Errorf("a steady point's notes %q, want none", got)
	}
}
