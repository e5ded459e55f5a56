// Package infer finds the go policy's runtime costs (sim.Costs) that make
// the model reproduce measured points, with each cost's range consistent
// with them: validation/heldout infers them from the talk's runs on 1–2
// CPUs and predicts the rest.
//
// It is a deterministic grid search (see grid): one cost at a time, round
// after round, each takes the value that brings the predictions nearest
// where that moves a point 1 % nearer (of values as good, the nearest where
// it was). A point's distance is its runs' median prediction's, each run
// simulated as made, relatively outside their measured band; the fit sums
// the squares. Consistent costs put no point farther outside than the best
// fit by more than its tolerance: Tolerance, or where wider its runs' own
// spread, since runs that disagree by 5 % cannot tell costs apart that
// move a point by 1 %. A cost consistent over the whole grid is not
// constrained by the points and keeps the base calibration's value, and
// its range over the base's earlier calibrations too.
package infer

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
)

// Options say how Infer searches.
type Options struct {
	// Base is the calibration the costs the points do not constrain keep.
	Base calibrate.Calibration
	// Tolerance is how much farther outside its runs' band than the best
	// fit consistent costs may put a point whose runs spread less (see
	// tolerances); 0 means DefaultTolerance.
	Tolerance float64
	// Tell, if not nil, hears how the search goes, a line at a time.
	Tell func(line string)
	// Fixed holds costs, by CostNames' names, at these values instead of
	// searching them: a probe of what the points make of the others.
	Fixed map[string]time.Duration
}

// DefaultTolerance is Options.Tolerance's default: 1 %.
const DefaultTolerance = 0.01

// Limits of the search: rounds, and events a set of costs (about 4 s).
const (
	Rounds            = 4
	MaxEventsPerCosts = 2e7
)

// costNames are the costs searched, as calibrate.Field names them.
var costNames = []string{"wake", "spin-wake", "spin-window", "switch", "mutex-handoff", "chan-handoff", "buf-chan-handoff", "runnext-grace"}

// CostNames are the costs searched, as calibrate.Field names them.
func CostNames() []string { return slices.Clone(costNames) }

// grid is the values each cost may take: 0, then 25 ns doubling to
// 819.2 µs (the runnext grace at least 3 µs).
func grid(cost string) []time.Duration {
	var out []time.Duration
	if cost == "runnext-grace" {
		out = append(out, 3*time.Microsecond)
	} else {
		out = append(out, 0)
	}
	for v := 25 * time.Nanosecond; v < time.Millisecond; v *= 2 {
		if cost != "runnext-grace" || v > 3*time.Microsecond {
			out = append(out, v)
		}
	}
	return out
}

// ErrNoPoints is Infer's error when no point is left to infer from.
var ErrNoPoints = errors.New("no measured points to infer from")

// Infer finds the costs that make the model reproduce ps, as a
// calibration, and where ps span two CPU counts or more, the model's own
// error one step past them (Beyond); it stops early with ctx's error.
func Infer(ctx context.Context, ps Points, opt Options) (Calibration, error) {
	if len(ps.Points) == 0 {
		return Calibration{}, ErrNoPoints
	}
	if opt.Tolerance == 0 {
		opt.Tolerance = DefaultTolerance
	}
	cal, err := infer(ctx, ps, opt)
	if err != nil {
		return cal, err
	}
	cal.Inferred.Beyond, err = beyond(ctx, ps, opt)
	return cal, err
}

// infer is Infer without Beyond.
func infer(ctx context.Context, ps Points, opt Options) (Calibration, error) {
	tell := opt.Tell
	if tell == nil {
		tell = func(string) {}
	}
	s := &search{ctx: ctx, ps: ps, opt: opt, seen: map[sim.Costs][]float64{}, tols: tolerances(ps, opt.Tolerance)}
	events := 0.0
	for _, p := range ps.Points {
		for _, r := range p.Runs {
			events += s.config(r, opt.Base.Costs).Footprint().Events
		}
	}
	if events > MaxEventsPerCosts {
		return Calibration{}, fmt.Errorf("%d points (%d runs) simulate some %.2g events for each set of costs tried, more than the %.0e that keep the search to seconds; infer from fewer points (--cpus) or shorter runs", len(ps.Points), ps.Runs(), events, MaxEventsPerCosts)
	}
	tell(fmt.Sprintf("inferring the go policy's costs from %d points (%d runs) on %s CPUs: every set of costs tried simulates every run", len(ps.Points), ps.Runs(), format.Ints(ps.CPUs(), ", ")))

	// Descend from the base, the first round over the whole grid, the later
	// ones over the values next to each cost's. A failed simulation stops
	// the search: s.err is its error, and every later eval returns at once.
	best := opt.Base.Costs
	if best.RunnextGrace < 3*time.Microsecond {
		best.RunnextGrace = 3 * time.Microsecond // what 0 means to the model
	}
	var names, fixed []string // the costs searched, and those held
	for _, name := range costNames {
		if v, ok := opt.Fixed[name]; ok {
			*calibrate.Field(&best, name) = v
			fixed = append(fixed, name)
		} else {
			names = append(names, name)
		}
	}
	fit := s.fit(best)
	const worth = DefaultTolerance * DefaultTolerance // a point 1 % nearer
	for round := range Rounds {
		moved := false
		for _, name := range names {
			cur := *calibrate.Field(&best, name)
			values := grid(name)
			if round > 0 {
				values = near(values, cur, 2)
			}
			fits := make([]float64, len(values))
			for i, v := range values {
				fits[i] = s.fit(with(best, name, v))
			}
			least := slices.Min(fits)
			if least > fit-worth || s.err != nil {
				continue
			}
			pick := -1
			for i, f := range fits {
				if f <= least+worth && (pick < 0 || logDistance(values[i], cur) < logDistance(values[pick], cur)) {
					pick = i
				}
			}
			best = with(best, name, values[pick])
			fit, moved = fits[pick], true
			tell(fmt.Sprintf("round %d: %s %v → %v (fit %.3g)", round+1, name, cur, values[pick], fit))
		}
		if !moved {
			break
		}
	}

	// A cost consistent over the whole grid keeps the base's value.
	in := &Inference{From: ps.Files, Points: len(ps.Points), Runs: ps.Runs(), CPUs: ps.CPUs(),
		Base: opt.Base.Ref(), Tolerance: opt.Tolerance, Refused: ps.Refused, Fixed: fixed}
	bestDist := s.eval(best)
	ok := func(name string, v time.Duration) bool {
		return consistent(s.eval(with(best, name, v)), bestDist, s.tols)
	}
	for _, name := range names {
		if slices.ContainsFunc(grid(name), func(v time.Duration) bool { return !ok(name, v) }) {
			in.Inferred = append(in.Inferred, name)
		} else {
			in.Kept = append(in.Kept, name)
		}
	}
	for _, name := range in.Kept {
		best = with(best, name, *calibrate.Field(&opt.Base.Costs, name))
	}

	// Between the grid's values, by ever smaller factors.
	fit = s.fit(best)
	for _, f := range []float64{math.Sqrt2, math.Pow(2, 0.25), math.Pow(2, 0.125)} {
		for _, name := range in.Inferred {
			for range 4 {
				cur := *calibrate.Field(&best, name)
				moved := false
				for _, v := range []time.Duration{scale(cur, f), scale(cur, 1/f)} {
					if v == cur || (name == "runnext-grace" && v < 3*time.Microsecond) {
						continue
					}
					if g := s.fit(with(best, name, v)); g < fit-worth/100 { // a point 0.1 % nearer
						best, fit, moved = with(best, name, v), g, true
						break
					}
				}
				if !moved {
					break
				}
			}
		}
	}

	// Each constrained cost's range, the others at their values: out over
	// the grid while consistent, then bisection to the edge.
	bestDist = s.eval(best)
	baseLo, baseHi := opt.Base.Span() // over the base's earlier calibrations too
	for _, name := range in.Fixed {
		*calibrate.Field(&baseLo, name), *calibrate.Field(&baseHi, name) = *calibrate.Field(&best, name), *calibrate.Field(&best, name)
	}
	cal := Calibration{Calibration: calibrate.Calibration{Host: ps.Host, Date: time.Now().UTC().Round(time.Second), Costs: best, Lo: baseLo, Hi: baseHi}}
	var sets []sim.Costs
	for _, name := range in.Inferred {
		cur := *calibrate.Field(&best, name)
		edges := [2]time.Duration{cur, cur}
		for e, dir := range []int{-1, 1} {
			last := cur
			var out time.Duration
			found := false
			for _, v := range outward(grid(name), cur, dir) {
				if !ok(name, v) {
					out, found = v, true
					break
				}
				last = v
			}
			for k := 0; found && k < 3; k++ {
				mid := geoMean(last, out)
				if mid == last || mid == out {
					break
				}
				if ok(name, mid) {
					last = mid
				} else {
					out = mid
				}
			}
			edges[e] = last
		}
		*calibrate.Field(&cal.Lo, name), *calibrate.Field(&cal.Hi, name) = edges[0], edges[1]
		sets = append(sets, with(cal.Costs, name, edges[0]), with(cal.Costs, name, edges[1]))
	}
	if s.err != nil {
		return Calibration{}, s.err
	}
	sets = append(sets, s.ridge(in.Inferred, bestDist)...)
	// The band's sets: each constrained cost at either edge, and the kept
	// ones all at the base's low, or high, edges.
	for _, edge := range []sim.Costs{baseLo, baseHi} {
		c := cal.Costs
		for _, name := range in.Kept {
			c = with(c, name, *calibrate.Field(&edge, name))
		}
		sets = append(sets, c)
	}
	for _, c := range sets {
		if c != cal.Costs && !slices.Contains(in.Sets, c) {
			in.Sets = append(in.Sets, c)
		}
	}
	for i, p := range ps.Points {
		in.Fit = append(in.Fit, PointFit{Point: p.Name, Throughput: round4(bestDist[2*i]), P50: round4(bestDist[2*i+1]),
			ThroughputTolerance: round4(s.tols[2*i]), P50Tolerance: round4(s.tols[2*i+1])})
	}
	in.Evaluations = len(s.seen)
	cal.Inferred = in
	return cal, nil
}

// ridge is, for each of names, the sets of costs the search tried that are
// consistent with the points (within its tolerances of best) and hold that
// cost at its least and at its most. Costs that trade off against each
// other (a dearer wake for a cheaper switch) fit the points along a ridge
// that moving one cost at a time from the best (the edges above) does not
// leave; the sets the search passed through on the way show how far
// along it the points allow.
func (s *search) ridge(names []string, best []float64) []sim.Costs {
	var out []sim.Costs
	for _, name := range names {
		var lo, hi *sim.Costs
		for c, d := range s.seen {
			if !consistent(d, best, s.tols) {
				continue
			}
			v := *calibrate.Field(&c, name)
			if lo == nil || v < *calibrate.Field(lo, name) || v == *calibrate.Field(lo, name) && less(c, *lo) {
				lo = &c
			}
			if hi == nil || v > *calibrate.Field(hi, name) || v == *calibrate.Field(hi, name) && less(c, *hi) {
				hi = &c
			}
		}
		if lo != nil {
			out = append(out, *lo, *hi)
		}
	}
	return out
}

// less orders sets of costs by their searched costs, so that a choice
// among equals does not depend on a map's order.
func less(a, b sim.Costs) bool {
	for _, name := range costNames {
		if x, y := *calibrate.Field(&a, name), *calibrate.Field(&b, name); x != y {
			return x < y
		}
	}
	return false
}

// with is c with the cost name set to v.
func with(c sim.Costs, name string, v time.Duration) sim.Costs {
	*calibrate.Field(&c, name) = v
	return c
}

// near is the grid's values within k places of v.
func near(values []time.Duration, v time.Duration, k int) []time.Duration {
	at, _ := slices.BinarySearch(values, v)
	return values[max(0, at-k):min(len(values), at+k+1)]
}

// outward lists the grid's values beyond v in direction dir.
func outward(values []time.Duration, v time.Duration, dir int) []time.Duration {
	var out []time.Duration
	for _, x := range values {
		if dir > 0 && x > v {
			out = append(out, x)
		}
	}
	for i := len(values) - 1; i >= 0; i-- {
		if dir < 0 && values[i] < v {
			out = append(out, values[i])
		}
	}
	return out
}

// scale is d times f, to the nanosecond.
func scale(d time.Duration, f float64) time.Duration {
	return time.Duration(math.Round(float64(d) * f))
}

// geoMean is halfway between a and b on the grid's scale.
func geoMean(a, b time.Duration) time.Duration {
	l := func(d time.Duration) float64 { return math.Log(float64(max(d, 12*time.Nanosecond))) }
	m := time.Duration(math.Round(math.Exp((l(a) + l(b)) / 2)))
	if min(a, b) == 0 && m < 25*time.Nanosecond {
		return 0
	}
	return m
}

// search simulates the points under sets of costs, each set once.
type search struct {
	ctx  context.Context
	ps   Points
	opt  Options
	seen map[sim.Costs][]float64
	tols []float64 // each distance's tolerance, in eval's order
	err  error     // the first failure, after which eval simulates nothing
}

// config is the configuration that simulates run r under costs c.
func (s *search) config(r Run, c sim.Costs) model.Config {
	cfg := r.Config
	cfg.Policy.Sched, cfg.Costs, cfg.Range = "go", c, nil
	cfg.Policy.Seed = max(cfg.Policy.Seed, 1)
	return cfg
}

// fit is the points' fit under costs c: their distances' sum of squares.
func (s *search) fit(c sim.Costs) float64 { return sumSquares(s.eval(c)) }

// eval is each point's throughput and latency distance under c; nil once
// a simulation has failed (s.err).
func (s *search) eval(c sim.Costs) []float64 {
	if d, ok := s.seen[c]; ok || s.err != nil {
		return d
	}
	thr, p50 := s.predict(c)
	if s.err != nil {
		return nil
	}
	out := make([]float64, 0, 2*len(s.ps.Points))
	for i, p := range s.ps.Points {
		mthr, mp50 := measured(p)
		out = append(out, outside(thr[i], mthr), outside(p50[i], mp50))
	}
	s.seen[c] = out
	return out
}

// measured are p's runs' throughputs and median latencies (ms).
func measured(p Point) (thr, p50 []float64) {
	for _, r := range p.Runs {
		thr, p50 = append(thr, r.Throughput), append(p50, results.Ms(r.P50))
	}
	return thr, p50
}

// predict is each point's throughput and median latency (ms) under c, the
// median over its runs' simulations; nil once a simulation has failed
// (s.err).
func (s *search) predict(c sim.Costs) (thr, p50 []float64) {
	if s.err != nil {
		return nil, nil
	}
	var cfgs []model.Config
	var of []int // the point of each run
	for i, p := range s.ps.Points {
		for _, r := range p.Runs {
			cfgs, of = append(cfgs, s.config(r, c)), append(of, i)
		}
	}
	sims, err := model.Simulate(s.ctx, cfgs, func(k int, _ results.Point, err error) error {
		if err != nil {
			return fmt.Errorf("%s: %w", s.ps.Points[of[k]].Name, err)
		}
		return nil
	})
	switch {
	case s.ctx.Err() != nil || errors.Is(err, context.Canceled):
		s.err = context.Canceled
	case err != nil:
		s.err = err
	}
	if s.err != nil {
		return nil, nil
	}
	k := 0
	for _, p := range s.ps.Points {
		var pthr, pp50 []float64
		for range p.Runs {
			pthr, pp50 = append(pthr, sims[k].Throughput), append(pp50, sims[k].Latency.P50)
			k++
		}
		thr, p50 = append(thr, results.Median(pthr)), append(p50, results.Median(pp50))
	}
	return thr, p50
}

// outside is how far x lies outside ms's band, relatively.
func outside(x float64, ms []float64) float64 { return apart(x, x, ms) }

// tolerances are how much farther outside than the best fit consistent
// costs may put each point's throughput and median latency, in eval's
// order: tol, or where wider the relative width of its runs' band.
func tolerances(ps Points, tol float64) []float64 {
	out := make([]float64, 0, 2*len(ps.Points))
	for _, p := range ps.Points {
		thr, p50 := measured(p)
		out = append(out, max(tol, spread(thr)), max(tol, spread(p50)))
	}
	return out
}

// spread is the width of ms's band relative to their median: 0 for one
// run.
func spread(ms []float64) float64 {
	m := results.Median(ms)
	if m <= 0 {
		return 0
	}
	return (slices.Max(ms) - slices.Min(ms)) / m
}

// consistent reports whether d is within tols of best everywhere (false
// where either is a failed simulation's, nil).
func consistent(d, best, tols []float64) bool {
	if d == nil || best == nil {
		return false
	}
	for i := range d {
		if d[i] > best[i]+tols[i] {
			return false
		}
	}
	return true
}

func sumSquares(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x * x
	}
	return s
}

// logDistance is how far apart two costs are on the grid's scale.
func logDistance(a, b time.Duration) float64 {
	l := func(d time.Duration) float64 { return math.Log2(float64(max(d, 10*time.Nanosecond))) }
	return math.Abs(l(a) - l(b))
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }
