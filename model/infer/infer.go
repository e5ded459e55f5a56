// Package infer finds the go policy's runtime costs (sim.Costs) that make
// the model reproduce measured points — of another machine, whose
// measurements a user has but where brewput calibrate cannot run, or of
// this one, where a microbenchmark's cost may not be the one a design
// pays — with the range of each cost that stays consistent with them.
//
// The search is a deterministic grid search: each cost moves over the
// same grid of values (0, then 25 ns doubling to 819.2 µs), one cost at a
// time, round after round, and takes the value that brings the model's
// predictions nearest to the points, where that gain is worth a point
// moving 1 % nearer; among values about as good it keeps the one nearest
// to where the cost was, so that a cost the points say nothing about stays
// at the base calibration's value. Every set of costs is simulated on
// every run of every point, as the run was made (its steps, window,
// harness); a point's prediction is the median over its runs, and its
// distance the prediction's relative distance outside the band of its
// runs' measurements (0 inside it). The points' fit is the sum of the
// squared distances.
//
// A set of costs is consistent with the points where it puts no point's
// throughput or median latency more than Tolerance farther outside its
// runs' band than the best fit does, so that the runs' own spread widens
// what is consistent. Each cost's range is the run of grid values around
// its inferred value that are consistent with the other costs at theirs;
// a cost consistent over the whole grid is one the points do not
// constrain: it keeps the base calibration's value and interval, and the
// calibration says so.
package infer

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
)

// Options say how Infer searches.
type Options struct {
	// Base is the calibration whose costs and intervals the costs the
	// points do not constrain keep: this machine's, as a rule.
	Base calibrate.Calibration
	// Runtime is the Go runtime the points ran on, whose scheduler the
	// model follows ("" today's, "go1.9").
	Runtime string
	// Tolerance is how much farther outside its runs' band (relative) than
	// the best fit a consistent set of costs may put a point; 0 means
	// DefaultTolerance.
	Tolerance float64
	// Parallel is how many simulations run at once; 0 means one a CPU.
	Parallel int
	// Tell, if not nil, hears how the search goes, a line at a time.
	Tell func(line string)
}

// DefaultTolerance is Options.Tolerance's default: 1 %.
const DefaultTolerance = 0.01

// Limits of the search: rounds over the costs, and the simulated events
// one set of costs may take over all the runs (about 4 s of simulation
// at the engine's 5 million events a second), beyond which it would not
// end in seconds.
const (
	Rounds            = 4
	MaxEventsPerCosts = 2e7
)

// costNames are the costs searched, as calibrate.Field names them.
var costNames = []string{"wake", "spin-wake", "spin-window", "switch", "mutex-handoff", "chan-handoff", "buf-chan-handoff", "runnext-grace"}

// grid is the values each cost may take: 0, then 25 ns doubling to
// 819.2 µs, short of a millisecond: a cost as long as the shop's steps is
// no runtime's (a wake-up that long would amount to Ps that never steal,
// which fits some points and predicts nothing). The runnext grace is at
// least the 3 µs the runtime asks for.
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

// Infer finds the costs that make the model reproduce ps (see the package
// doc) and returns them as a calibration: Costs the inferred ones, Lo and
// Hi their ranges, Inferred how. It stops early with ctx's error.
func Infer(ctx context.Context, ps Points, opt Options) (calibrate.Calibration, error) {
	if len(ps.Points) == 0 {
		return calibrate.Calibration{}, ErrNoPoints
	}
	if opt.Tolerance == 0 {
		opt.Tolerance = DefaultTolerance
	}
	if opt.Parallel <= 0 {
		opt.Parallel = runtime.NumCPU()
	}
	tell := opt.Tell
	if tell == nil {
		tell = func(string) {}
	}
	s := &search{ps: ps, opt: opt, done: ctx.Done(), seen: map[sim.Costs][]float64{}}
	events := 0.0
	for _, p := range ps.Points {
		for _, r := range p.Runs {
			events += s.config(r, opt.Base.Costs).Footprint().Events
		}
	}
	if events > MaxEventsPerCosts {
		return calibrate.Calibration{}, fmt.Errorf("%d points (%d runs) simulate some %.2g events for each set of costs tried, more than the %.0e that keep the search to seconds; infer from fewer points (--cpus) or shorter runs", len(ps.Points), ps.Runs(), events, MaxEventsPerCosts)
	}
	tell(fmt.Sprintf("inferring the go policy's costs from %d points (%d runs) on %s CPUs: every set of costs tried simulates every run", len(ps.Points), ps.Runs(), format.Ints(ps.CPUs(), ", ")))

	// Descend, one cost at a time, from the base calibration: the first
	// round over the whole grid, the later ones over the grid's values
	// next to each cost's.
	best := opt.Base.Costs
	if best.RunnextGrace < 3*time.Microsecond {
		best.RunnextGrace = 3 * time.Microsecond // what 0 means to the model
	}
	fit, err := s.fit(best)
	if err != nil {
		return calibrate.Calibration{}, err
	}
	const worth = DefaultTolerance * DefaultTolerance // a point 1 % nearer
	for round := range Rounds {
		moved := false
		for _, name := range costNames {
			cur := *calibrate.Field(&best, name)
			values := grid(name)
			if round > 0 {
				values = near(values, cur, 2)
			}
			fits := make([]float64, len(values))
			for i, v := range values {
				if fits[i], err = s.fit(with(best, name, v)); err != nil {
					return calibrate.Calibration{}, err
				}
			}
			least := slices.Min(fits)
			if least > fit-worth {
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

	// A cost consistent with the points over the whole grid is not
	// constrained by them: it keeps the base's value.
	in := &calibrate.Inference{From: ps.Files, Points: len(ps.Points), Runs: ps.Runs(), CPUs: ps.CPUs(), Runtime: opt.Runtime,
		Base: opt.Base.Ref(), Tolerance: opt.Tolerance, Refused: ps.Refused}
	bestDist, err := s.eval(best)
	if err != nil {
		return calibrate.Calibration{}, err
	}
	for _, name := range costNames {
		all := true
		for _, v := range grid(name) {
			d, err := s.eval(with(best, name, v))
			if err != nil {
				return calibrate.Calibration{}, err
			}
			if !consistent(d, bestDist, opt.Tolerance) {
				all = false
				break
			}
		}
		if all {
			in.Kept = append(in.Kept, name)
		} else {
			in.Inferred = append(in.Inferred, name)
		}
	}
	for _, name := range in.Kept {
		best = with(best, name, *calibrate.Field(&opt.Base.Costs, name))
	}

	// Between the grid's values: each constrained cost moves by ever
	// smaller factors while that brings a point 0.1 % nearer.
	if fit, err = s.fit(best); err != nil {
		return calibrate.Calibration{}, err
	}
	for _, f := range []float64{math.Sqrt2, math.Pow(2, 0.25), math.Pow(2, 0.125)} {
		for _, name := range in.Inferred {
			for range 4 {
				cur := *calibrate.Field(&best, name)
				moved := false
				for _, v := range []time.Duration{scale(cur, f), scale(cur, 1/f)} {
					if v == cur || (name == "runnext-grace" && v < 3*time.Microsecond) {
						continue
					}
					g, err := s.fit(with(best, name, v))
					if err != nil {
						return calibrate.Calibration{}, err
					}
					if g < fit-worth/100 { // a point 0.1 % nearer
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

	// Each constrained cost's range, with the others at their values: out
	// from its value over the grid while consistent, then the edge found
	// by bisection between the last consistent value and the first that
	// is not.
	if bestDist, err = s.eval(best); err != nil {
		return calibrate.Calibration{}, err
	}
	cal := calibrate.Calibration{Host: ps.Host, Date: time.Now().UTC().Round(time.Second), Costs: best, Lo: opt.Base.Lo, Hi: opt.Base.Hi}
	ok := func(name string, v time.Duration) (bool, error) {
		d, err := s.eval(with(best, name, v))
		return err == nil && consistent(d, bestDist, opt.Tolerance), err
	}
	type span struct {
		name   string
		lo, hi time.Duration
	}
	var spans []span
	for _, name := range in.Inferred {
		cur := *calibrate.Field(&best, name)
		values := grid(name)
		sp := span{name, cur, cur}
		for _, dir := range []int{-1, 1} {
			last := cur
			var out time.Duration
			found := false
			for _, v := range outward(values, cur, dir) {
				good, err := ok(name, v)
				if err != nil {
					return calibrate.Calibration{}, err
				}
				if !good {
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
				good, err := ok(name, mid)
				if err != nil {
					return calibrate.Calibration{}, err
				}
				if good {
					last = mid
				} else {
					out = mid
				}
			}
			if dir < 0 {
				sp.lo = last
			} else {
				sp.hi = last
			}
		}
		spans = append(spans, sp)
		*calibrate.Field(&cal.Lo, name), *calibrate.Field(&cal.Hi, name) = sp.lo, sp.hi
	}
	// The band's sets: each constrained cost at either edge, the kept ones
	// all at the base's low edges and all at its high ones.
	addSet := func(c sim.Costs) {
		if c != cal.Costs && !slices.Contains(in.Sets, c) {
			in.Sets = append(in.Sets, c)
		}
	}
	for _, sp := range spans {
		addSet(with(cal.Costs, sp.name, sp.lo))
		addSet(with(cal.Costs, sp.name, sp.hi))
	}
	for _, edge := range []sim.Costs{opt.Base.Lo, opt.Base.Hi} {
		c := cal.Costs
		for _, name := range in.Kept {
			c = with(c, name, *calibrate.Field(&edge, name))
		}
		addSet(c)
	}
	for i, p := range ps.Points {
		in.Fit = append(in.Fit, calibrate.PointFit{Point: p.Name, Throughput: round4(bestDist[2*i]), P50: round4(bestDist[2*i+1])})
	}
	in.Evaluations = len(s.seen)
	cal.Inferred = in
	return cal, nil
}

// with is c with the cost name set to v.
func with(c sim.Costs, name string, v time.Duration) sim.Costs {
	*calibrate.Field(&c, name) = v
	return c
}

// near is the grid's values within k places of v's (v itself where it
// is one of them).
func near(values []time.Duration, v time.Duration, k int) []time.Duration {
	at, _ := slices.BinarySearch(values, v)
	return values[max(0, at-k):min(len(values), at+k+1)]
}

// outward lists the grid's values beyond v in direction dir (-1 smaller
// first the nearest, +1 larger).
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

// geoMean is the value halfway between a and b on the grid's scale, which
// doubles (0 counts as half the grid's least value).
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
	ps   Points
	opt  Options
	done <-chan struct{}
	seen map[sim.Costs][]float64
}

// config is the configuration that simulates run r under costs c.
func (s *search) config(r Run, c sim.Costs) model.Config {
	cfg := r.Config
	cfg.Sched, cfg.Runtime, cfg.Costs, cfg.Range, cfg.Cancel = "go", s.opt.Runtime, c, nil, s.done
	if cfg.Seed == 0 {
		cfg.Seed = 1
	}
	return cfg
}

// fit is the points' fit under costs c: the sum of the squares of their
// distances (see eval).
func (s *search) fit(c sim.Costs) (float64, error) {
	d, err := s.eval(c)
	return sumSquares(d), err
}

// eval returns, for costs c, each point's distance outside its runs'
// band: throughput, then median latency, point after point.
func (s *search) eval(c sim.Costs) ([]float64, error) {
	if d, ok := s.seen[c]; ok {
		return d, nil
	}
	type job struct{ p, r int }
	var jobs []job
	for i, p := range s.ps.Points {
		for j := range p.Runs {
			jobs = append(jobs, job{i, j})
		}
	}
	sims := make([]model.Result, len(jobs))
	errs := make([]error, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(s.opt.Parallel, len(jobs)) {
		wg.Go(func() {
			for k := range next {
				j := jobs[k]
				sims[k], errs[k] = model.Run(s.config(s.ps.Points[j.p].Runs[j.r], c))
			}
		})
	}
	for k := range jobs {
		next <- k
	}
	close(next)
	wg.Wait()
	for k, err := range errs {
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return nil, context.Canceled
			}
			return nil, fmt.Errorf("%s: %w", s.ps.Points[jobs[k].p].Name, err)
		}
	}
	out := make([]float64, 0, 2*len(s.ps.Points))
	k := 0
	for _, p := range s.ps.Points {
		var thr, p50, mthr, mp50 []float64
		for _, r := range p.Runs {
			thr, p50 = append(thr, sims[k].Throughput), append(p50, float64(sims[k].Latency.P50))
			mthr, mp50 = append(mthr, r.Throughput), append(mp50, float64(r.P50))
			k++
		}
		out = append(out, outside(results.Median(thr), mthr), outside(results.Median(p50), mp50))
	}
	s.seen[c] = out
	return out, nil
}

// outside is how far x lies outside the band of the measured values ms,
// relative to the nearer edge; 0 inside it.
func outside(x float64, ms []float64) float64 {
	lo, hi := slices.Min(ms), slices.Max(ms)
	switch {
	case x < lo:
		return (lo - x) / lo
	case x > hi:
		return (x - hi) / hi
	}
	return 0
}

// consistent reports whether distances d put no point more than tol
// farther outside its runs' band than the best fit's distances do.
func consistent(d, best []float64, tol float64) bool {
	for i := range d {
		if d[i] > best[i]+tol {
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

// logDistance is how far apart two costs are on the grid's scale, which
// doubles: 0 is taken as 10 ns.
func logDistance(a, b time.Duration) float64 {
	l := func(d time.Duration) float64 { return math.Log2(float64(max(d, 10*time.Nanosecond))) }
	return math.Abs(l(a) - l(b))
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }
