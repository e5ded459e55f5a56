package verdict

import (
	"slices"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// tie is the least difference of gains that tells two reliefs apart where
// the point has no band, as the causal profile itself.
const tie = 0.01

// spanPoint is a series' point on one CPU count, as limitSpans reads it.
type spanPoint struct {
	cpus int
	b    *results.Bottleneck
	// lo and hi are its throughput's band, or the throughput alone.
	lo, hi, throughput float64
}

func spanPointOf(p results.Point) spanPoint {
	s := spanPoint{cpus: p.CPUs, b: p.Bottleneck, lo: p.Throughput, hi: p.Throughput, throughput: p.Throughput}
	if p.Band != nil {
		s.lo, s.hi = min(s.lo, p.Band.Throughput[0]), max(s.hi, p.Band.Throughput[1])
	}
	return s
}

// limitSpans names what limits a series, its points least CPUs first, in as
// few names as its causal profiles allow, each a point's (see cover).
func limitSpans(points []spanPoint) []analysis.LimitSpan {
	var out []analysis.LimitSpan
	for i := 0; i < len(points); {
		named, set, end := choose(points, i)
		if n := len(out); n > 0 && out[n-1].Of.Same(named) {
			out[n-1].To = points[end-1].cpus
		} else {
			out = append(out, analysis.LimitSpan{Of: named, From: points[i].cpus, To: points[end-1].cpus, Scales: scales(set)})
		}
		i = end
	}
	return lastOwn(points, out)
}

// lastOwn names the count a series' answer speaks of, its most CPUs, as
// that point's own causal profile does (its JSON, its row and the
// answer's best change there): the last span takes its name where its
// resources hold on the whole span, else it ends before that count,
// which gets a span of its own.
func lastOwn(points []spanPoint, out []analysis.LimitSpan) []analysis.LimitSpan {
	n := len(out)
	if n == 0 {
		return out
	}
	last := points[len(points)-1]
	own := last.b.Names()
	if out[n-1].Of.Same(own) {
		return out
	}
	from := slices.IndexFunc(points, func(p spanPoint) bool { return p.cpus == out[n-1].From })
	set := resources(last.b)
	if cover(points, from, set) == len(points) {
		out[n-1].Of, out[n-1].Scales = own, scales(set)
		if n > 1 && out[n-2].Of.Same(own) {
			out[n-2].To = out[n-1].To
			out = out[:n-1]
		}
		return out
	}
	out[n-1].To = points[len(points)-2].cpus
	return append(out, analysis.LimitSpan{Of: own, From: last.cpus, To: last.cpus, Scales: scales(set)})
}

// choose is the limit of the span starting at points[i], its resources,
// and the index past the span's last point: longest's; where none holds on
// i, or the CPUs or the load as i's own limit hold longer, i's own, held
// while no other holds on as many counts.
func choose(points []spanPoint, i int) (named results.Named, set []string, end int) {
	own := points[i].b
	ownSet := resources(own)
	named, set, end = longest(points, i)
	if end > i && !(scales(ownSet) && cover(points, i, ownSet) > end) {
		return named, set, end
	}
	for end = i + 1; end < len(points); end++ {
		next := points[end].b
		if !next.Names().Same(own.Names()) && !(scales(ownSet) && scales(resources(next))) {
			break
		}
		if _, _, e := longest(points, end); e > end && e >= cover(points, end, ownSet) {
			break
		}
	}
	return own.Names(), ownSet, end
}

// longest is the limit other than the CPUs or the load that holds on the
// most counts from points[i] (the fewest resources among equals); end is i
// where none holds on points[i].
func longest(points []spanPoint, i int) (named results.Named, set []string, end int) {
	end = i
	for j := i; j < len(points); j++ {
		p := points[j]
		c := resources(p.b)
		if slices.ContainsFunc(c, scaling) {
			continue
		}
		if e := cover(points, i, c); e > j && (e > end || e == end && len(c) < len(set)) {
			named, set, end = p.b.Names(), c, e
		}
	}
	return named, set, end
}

// cover is the index past the last point, from i on, that set holds on
// without a break: on each by its gain, or, one point at a time, by its
// band overlapping that of a neighbour it holds on by its gain, the model
// not telling the two apart.
func cover(points []spanPoint, i int, set []string) int {
	end, held := i, -1
	for end < len(points) {
		if holds(points[end], set) {
			held, end = end, end+1
			continue
		}
		next := end + 1
		if next == len(points) || !holds(points[next], set) ||
			!overlaps(points[end], points[next]) && (held < 0 || !overlaps(points[end], points[held])) {
			break
		}
		end = next
	}
	return end
}

// holds reports whether relieving set gains at p as much as the best
// relief there, give or take p's band; a point without a causal profile is
// held only by its own limit. A relief counts for set where it relieves
// set's resources alone.
func holds(p spanPoint, set []string) bool {
	b := p.b
	if b == nil || len(b.Experiments) == 0 {
		return slices.Equal(set, resources(b))
	}
	gain, best := 0.0, b.Gain
	for _, e := range b.Experiments {
		if collect.Subset(e.Named(), set) {
			gain = max(gain, e.Gain)
		}
		best = max(best, e.Gain)
	}
	if b.Combined != nil && collect.Subset(b.Resources, set) {
		gain = max(gain, b.Combined.Gain)
	}
	tolerance := tie
	if p.throughput > 0 {
		tolerance = max(tie, (p.hi-p.lo)/p.throughput)
	}
	return gain >= best-tolerance
}

// overlaps reports whether the throughput bands of p and q overlap.
func overlaps(p, q spanPoint) bool { return p.lo <= q.hi && q.lo <= p.hi }

// resources are what b names, "unknown" where there is no profile.
func resources(b *results.Bottleneck) []string {
	switch {
	case b == nil || b.Resource == "":
		return []string{"unknown"}
	case len(b.Resources) == 0:
		return []string{b.Resource}
	}
	return b.Resources
}

// scales reports whether set is the CPUs or the load alone.
func scales(set []string) bool {
	return !slices.ContainsFunc(set, func(r string) bool { return !scaling(r) })
}

// scaling reports whether resource r is the CPUs or the load.
func scaling(r string) bool { return r == "cpus" || r == "customers" || r == "servers" }
