package text

import (
	"fmt"
	"strings"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
)

// What machines did where a caveat's mechanism decides, as validation
// found it (docs/model.md): each caveat's text and its brief say it.
const (
	ShortHoldSpread = "real machines ran locks this brief and contended from a sixteenth of to ten times the " +
		"model's figure, most within 4× either way"
	SharedLineSpread = "machines measured kept a word their cores add to at a core from hardly at all to about as long " +
		"as it took to come, where the model keeps it half that, and such words ran at 0.4 to 1.7 times the model's figure"
)

// CaveatText says a caveat for its point's row: what the model saw, what
// machines do, and how far to take the figure.
func CaveatText(c results.Caveat) string {
	switch c.Kind {
	case results.CaveatShortHold:
		return fmt.Sprintf("%s held under %v a use, and busy or its word waited for a quarter of the time or more: %s "+
			"(docs/model.md); take this figure as rough", c.Resource, c.Under, ShortHoldSpread)
	case results.CaveatSharedLine:
		return fmt.Sprintf("the CPUs waited for %s's cache line a quarter of their time or more: %s (docs/model.md); "+
			"take this figure as rough", c.Resource, SharedLineSpread)
	case results.CaveatLockstep:
		if c.Customers == 0 { // a file written before the counts were kept
			return CaveatBrief(c) + ": take this point as unreliable"
		}
		return fmt.Sprintf("%d of %d customers finished nothing in the window while the others finished %d each on "+
			"average: held out the whole window, as the model's exact times can keep a goroutine in step with a "+
			"lock's holder, losing it every time; real machines vary their times: take this point as unreliable",
			c.Idle, c.Customers, c.Each)
	}
	return c.Kind
}

// CaveatBrief says why a caveat of c's kind was made, without the point's
// particulars, for a sentence that states figures of several points.
func CaveatBrief(c results.Caveat) string {
	switch c.Kind {
	case results.CaveatShortHold:
		return ShortHoldSpread
	case results.CaveatSharedLine:
		return SharedLineSpread
	case results.CaveatLockstep:
		return "some customers finished nothing in the window, held out by the model's exact times"
	}
	return c.Kind
}

// AboveText says why a number of p passes a bound (a of p.Above): the
// numbers, the reason and what it means for the reader.
func AboveText(p results.Point, a results.Above) string {
	b := p.Bounds
	switch {
	case a.Why == results.WhyBacklog:
		return fmt.Sprintf("%.1f a second above the arrival rate %g: orders that arrived before the window were served in it; %s", p.Throughput, p.Rate, meansArrivals)
	case a.Why == results.WhyPoisson:
		arrived := 0.0
		if b != nil && p.Dur > 0 {
			arrived = float64(b.Arrived) / p.Dur.Seconds()
		}
		s := fmt.Sprintf("%.1f a second above the arrival rate %g: arrivals are random (Poisson), %.0f a second arrived in this window", p.Throughput, p.Rate, arrived)
		if p.Throughput > arrived {
			s += ", and orders queued before it were served in it"
		}
		return s + "; " + meansArrivals
	case b == nil:
		return a.Of + ": " + a.Why
	case a.Bound == results.BoundLatency:
		why := whyText(a.Why)
		if a.Why == results.WhyWallClock {
			why = "steps end on the clock (--burn wall), so steps that share a CPU each end on time"
		}
		return fmt.Sprintf("%s below the latency bound (%s ms): %s; %s", format.JoinAnd(strings.Split(a.Of, ", ")), format.Ms(b.LatencyMinMs), why, meansLatency)
	}
	band := 0.0
	if p.Band != nil {
		band = p.Band.Throughput[1]
	}
	switch a.Of {
	case "throughput, band":
		return fmt.Sprintf("%s, its band to %s: %s; %s", pastBound(p.Throughput, b), format.Sig(band, 4), whyText(a.Why), meansThroughput)
	case "band":
		return fmt.Sprintf("its band's high edge: %s: %s; %s", pastBound(band, b), whyText(a.Why), meansThroughput)
	}
	return fmt.Sprintf("%s: %s; %s", pastBound(p.Throughput, b), whyText(a.Why), meansThroughput)
}

// What a number past a bound means for the reader, said after its reason
// in one clause: the bound, not the number, is what the design can do.
const (
	meansThroughput = "so take the ceiling, not this figure, as the most the design makes"
	meansLatency    = "so take the bound as the least an operation takes whose steps run their full times"
	meansArrivals   = "so over time it serves no more than arrive"
)

// pastBound says how far v passes b's ThroughputMax, with the digits that
// show it does: "8404000 above its ceiling 8403361 (cpus) by 0.0076 %".
func pastBound(v float64, b *results.Bounds) string {
	x, lim := format.Apart(v, b.ThroughputMax)
	return fmt.Sprintf("%s above its ceiling %s (%s) by %s %%", x, lim, b.SetBy, format.Sig(100*(v/b.ThroughputMax-1), 2))
}

func whyText(why string) string {
	switch why {
	case results.WhyWallClock:
		return "steps end on the clock (--burn wall), and one that waits for a CPU burns less than its time"
	case results.WhyWindowEdge:
		return "the window's edge: what was under way when it opened ended inside it, counted whole"
	}
	return "the steps' random times came out below their means"
}

// Interference says what took CPU from a disturbed point: "other
// processes took 0.45 CPUs of its 1"; "" where p is not disturbed.
func Interference(p results.Point) string {
	if !p.IsDisturbed() {
		return ""
	}
	others, steal := p.OthersCPUs, p.StealCPUs
	of := ""
	if on := p.OnCPUs; on != nil {
		others, steal = on.OthersCPUs, on.StealCPUs
		of = " of its " + format.Count(on.CPUs, "CPU")
	}
	s := fmt.Sprintf("other processes took %.2f CPUs%s", others, of)
	if steal >= 0.005 {
		s += fmt.Sprintf(" and the hypervisor %.2f", steal)
	}
	return s
}
