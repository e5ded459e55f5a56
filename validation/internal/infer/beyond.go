package infer

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/model"
)

// Share is the part of the points one step past the fitted CPU counts
// that Beyond's errors hold: 4 in 5.
const Share = 0.8

// beyond is the model's own error one step past the CPU counts it was
// inferred on: how far outside their runs' band the band of the costs
// inferred from the points on all but the most CPUs — as a prediction
// with those costs has it — puts the points on the most. What no set of costs there
// makes up for is a mechanism the model leaves out, and that error is
// what the band of a prediction past the points is widened by. nil where
// ps are on one CPU count.
func beyond(ctx context.Context, ps Points, opt Options) (*Beyond, error) {
	cpus := ps.CPUs()
	if len(cpus) < 2 {
		return nil, nil
	}
	from, to := cpus[len(cpus)-2], cpus[len(cpus)-1]
	fewer, most := ps, ps
	fewer.Points, most.Points = slices.Clone(ps.Points), slices.Clone(ps.Points)
	fewer.Select(cpus[:len(cpus)-1])
	most.Select([]int{to})
	if tell := opt.Tell; tell != nil {
		tell(fmt.Sprintf("the model's error past its points: inferring again from the %d points on %s CPUs, to predict the %d on %d",
			len(fewer.Points), format.Ints(cpus[:len(cpus)-1], ", "), len(most.Points), to))
	}
	sub := opt
	sub.Tell = nil
	cal, err := infer(ctx, fewer, sub)
	if err != nil {
		return nil, err
	}
	// Each point's band under those costs, as a prediction with them has
	// it (model.Simulate with their Range: the sets of costs, the start
	// states), over its runs.
	s := &search{ctx: ctx, ps: most, opt: opt}
	var cfgs []model.Config
	var of []int // the point of each run
	for i, p := range most.Points {
		for _, r := range p.Runs {
			c := s.config(r, cal.Costs)
			c.Range = cal.Range()
			cfgs, of = append(cfgs, c), append(of, i)
		}
	}
	sims, err := model.Simulate(ctx, cfgs, nil)
	if err != nil {
		return nil, err
	}
	lo := [2][]float64{make([]float64, len(most.Points)), make([]float64, len(most.Points))}
	hi := [2][]float64{make([]float64, len(most.Points)), make([]float64, len(most.Points))}
	for i := range most.Points {
		lo[0][i], lo[1][i], hi[0][i], hi[1][i] = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	}
	for k, p := range sims {
		thr, p50 := [2]float64{p.Throughput, p.Throughput}, [2]float64{p.Latency.P50, p.Latency.P50}
		if p.Band != nil {
			thr, p50 = p.Band.Throughput, p.Band.P50Ms
		}
		i := of[k]
		lo[0][i], hi[0][i] = min(lo[0][i], thr[0]), max(hi[0][i], thr[1])
		lo[1][i], hi[1][i] = min(lo[1][i], p50[0]), max(hi[1][i], p50[1])
	}
	b := &Beyond{From: from, To: to}
	var thr, p50 []float64
	for i, p := range most.Points {
		mthr, mp50 := measured(p)
		dt, dp := apart(lo[0][i], hi[0][i], mthr), apart(lo[1][i], hi[1][i], mp50)
		b.Fit = append(b.Fit, PointFit{Point: p.Name, Throughput: round4(dt), P50: round4(dp)})
		thr, p50 = append(thr, dt), append(p50, dp)
	}
	b.Throughput, b.P50 = round4(nearestRank(thr, Share)), round4(nearestRank(p50, Share))
	return b, nil
}

// apart is how far the band from lo to hi lies from ms's band, relative
// to ms's nearer edge: 0 where they overlap.
func apart(lo, hi float64, ms []float64) float64 {
	mlo, mhi := slices.Min(ms), slices.Max(ms)
	switch {
	case hi < mlo:
		return (mlo - hi) / mlo
	case lo > mhi:
		return (lo - mhi) / mhi
	}
	return 0
}

// nearestRank is the least of xs that q of them are at most.
func nearestRank(xs []float64, q float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	return s[max(0, int(math.Ceil(q*float64(len(s))))-1)]
}
